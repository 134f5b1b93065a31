package io.tributary.connector.nexmark;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The Nexmark event generator: the event with number {@code n} is a function of {@code n} and the
 * base time alone (its random choices come from a generator seeded with {@code n}), so replaying
 * from any event number yields the same events. Ids follow from event numbers: the {@code k}-th
 * person has id 1000 + k and the {@code k}-th auction id 1000 + k; sellers and bidders are mostly
 * "hot" (recent multiples of a ratio) and otherwise one of the last 1000 people (with a lead of 10
 * not yet created); bids go to a hot auction half of the time, else to one of the last 100.
 * Event times are {@value #EVENT_GAP_MICROS} µs apart (10,000 events per second of event time)
 * from the base time, in whole milliseconds as Nexmark's generator gives them (so ten events share
 * each millisecond). Immutable and thread-safe.
 */
final class NexmarkGenerator {
    static final long EVENT_GAP_MICROS = 100;
    private static final long FIRST_PERSON_ID = 1000;
    private static final long FIRST_AUCTION_ID = 1000;
    private static final long FIRST_CATEGORY_ID = 10;
    private static final int NUM_CATEGORIES = 5;
    private static final int HOT_AUCTION_RATIO = 2;
    private static final int HOT_SELLER_RATIO = 4;
    private static final int HOT_BIDDER_RATIO = 4;
    private static final long ACTIVE_PEOPLE = 1000;
    private static final long IN_FLIGHT_AUCTIONS = 100;
    private static final long PERSON_ID_LEAD = 10;
    private static final long AUCTION_ID_LEAD = 10;
    private static final int PERSON_AVG_BYTES = 200;
    private static final int AUCTION_AVG_BYTES = 500;
    private static final int BID_AVG_BYTES = 100;
    private static final String[] FIRST_NAMES = {
        "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"
    };
    private static final String[] LAST_NAMES = {
        "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"
    };
    private static final String[] CITIES = {
        "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"
    };
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};

    /** The item number a named channel's URL ends with is the auction's id modulo this. */
    private static final int ITEMS_PER_URL = 100;
    /** How many numbered channels ({@code channel-0} ...) the other bids come from. */
    private static final int OTHER_CHANNELS = 10_000;
    /**
     * Every URL a bid through a named channel can have, by channel and item number: a bid is the
     * generator's most frequent event, so its strings are built once rather than per event.
     */
    private static final String[][] NAMED_CHANNEL_URLS = new String[CHANNELS.length][ITEMS_PER_URL];
    /** {@code channel-<id>} by id. */
    private static final String[] OTHER_CHANNEL_NAMES = new String[OTHER_CHANNELS];

    static {
        for (int c = 0; c < CHANNELS.length; c++) {
            String host = "https://www." + CHANNELS[c].toLowerCase(Locale.ROOT) + ".com/search?q=item";
            for (int item = 0; item < ITEMS_PER_URL; item++) {
                NAMED_CHANNEL_URLS[c][item] = host + item;
            }
        }
        for (int id = 0; id < OTHER_CHANNELS; id++) {
            OTHER_CHANNEL_NAMES[id] = "channel-" + id;
        }
    }

    private final long baseMicros;

    /** @param baseMicros the event time of event number 0, microseconds since 1970 (UTC) */
    NexmarkGenerator(long baseMicros) {
        this.baseMicros = baseMicros;
    }

    /** The row of event {@code n}, which must belong to {@code table}, in {@link NexmarkTable#columns} order. */
    Object[] row(NexmarkTable table, long n) {
        SplittableRandom random = new SplittableRandom(n);
        return switch (table) {
            case PERSON -> person(n, random);
            case AUCTION -> auction(n, random);
            case BID -> bid(n, random);
        };
    }

    private long time(long n) {
        return baseMicros + Math.floorDiv(n * EVENT_GAP_MICROS, 1000L) * 1000L;
    }

    private Object[] person(long n, SplittableRandom r) {
        String name = pick(r, FIRST_NAMES) + " " + pick(r, LAST_NAMES);
        String email = letters(r, 7) + "@" + letters(r, 5) + ".com";
        String card = digits(r, 4) + " " + digits(r, 4) + " " + digits(r, 4) + " " + digits(r, 4);
        String city = pick(r, CITIES);
        String state = pick(r, STATES);
        int size = 8 + name.length() + email.length() + card.length() + city.length() + state.length() + 8;
        return new Object[] {
            lastPerson(n) + FIRST_PERSON_ID, name, email, card, city, state, time(n), extra(r, size, PERSON_AVG_BYTES)
        };
    }

    private Object[] auction(long n, SplittableRandom r) {
        long seller = r.nextInt(HOT_SELLER_RATIO) > 0
                ? lastPerson(n) / HOT_SELLER_RATIO * HOT_SELLER_RATIO
                : recentPerson(n, r);
        long category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
        long initialBid = price(r);
        long reserve = initialBid + price(r);
        String item = text(r, 20);
        String description = text(r, 100);
        // auctions stay open for about as long as it takes IN_FLIGHT_AUCTIONS new ones to arrive
        long horizon =
                IN_FLIGHT_AUCTIONS * NexmarkTable.EVENTS_PER_CYCLE / NexmarkTable.AUCTION.proportion * EVENT_GAP_MICROS;
        long expires = time(n) + 1 + r.nextLong(2 * horizon);
        int size = 8 + item.length() + description.length() + 8 + 8 + 8 + 8 + 8 + 8;
        return new Object[] {
            lastAuction(n) + FIRST_AUCTION_ID,
            item,
            description,
            initialBid,
            reserve,
            time(n),
            expires,
            seller + FIRST_PERSON_ID,
            category,
            extra(r, size, AUCTION_AVG_BYTES)
        };
    }

    private Object[] bid(long n, SplittableRandom r) {
        long auction = r.nextInt(HOT_AUCTION_RATIO) > 0
                ? lastAuction(n) / HOT_AUCTION_RATIO * HOT_AUCTION_RATIO
                : recentAuction(n, r);
        long bidder = r.nextInt(HOT_BIDDER_RATIO) > 0
                ? lastPerson(n) / HOT_BIDDER_RATIO * HOT_BIDDER_RATIO + 1
                : recentPerson(n, r);
        long price = price(r);
        String channel;
        String url;
        int c = r.nextInt(10);
        if (c < CHANNELS.length) {
            channel = CHANNELS[c];
            url = NAMED_CHANNEL_URLS[c][(int) (auction % ITEMS_PER_URL)];
        } else {
            int id = r.nextInt(OTHER_CHANNELS);
            channel = OTHER_CHANNEL_NAMES[id];
            url = "https://www.nexmark.com/" + letters(r, 5) + "/" + letters(r, 5) + "/item.htm?channel_id=" + id;
        }
        int size = 8 + 8 + 8 + channel.length() + url.length() + 8;
        return new Object[] {
            auction + FIRST_AUCTION_ID,
            bidder + FIRST_PERSON_ID,
            price,
            channel,
            url,
            time(n),
            extra(r, size, BID_AVG_BYTES)
        };
    }

    /** The 0-based id of the last person created at or before event {@code n}. */
    static long lastPerson(long n) {
        return NexmarkTable.PERSON.eventsBefore(n + 1) - 1;
    }

    /** The 0-based id of the last auction created at or before event {@code n} (-1 before the first). */
    static long lastAuction(long n) {
        return NexmarkTable.AUCTION.eventsBefore(n + 1) - 1;
    }

    private static long recentPerson(long n, SplittableRandom r) {
        long people = lastPerson(n) + 1;
        long active = Math.min(people, ACTIVE_PEOPLE);
        return people - active + r.nextLong(active + PERSON_ID_LEAD);
    }

    private static long recentAuction(long n, SplittableRandom r) {
        long last = lastAuction(n);
        long min = Math.max(last - IN_FLIGHT_AUCTIONS, 0);
        return min + r.nextLong(Math.max(last, 0) - min + 1 + AUCTION_ID_LEAD);
    }

    /** Prices are spread log-uniformly from 1.00 to 1,000,000.00 (in cents). */
    private static long price(SplittableRandom r) {
        return Math.round(Math.pow(10.0, r.nextDouble() * 6.0) * 100.0);
    }

    private static String pick(SplittableRandom r, String[] values) {
        return values[r.nextInt(values.length)];
    }

    /** Letters drawn from one random long: each takes about 4.7 of its 64 bits, so 12 keep them near uniform. */
    private static final int LETTERS_PER_LONG = 12;

    /**
     * {@code length} random lower-case letters. Each letter is the integer part of the random long, read as a
     * fraction of 2^64, times 26, and the fraction left goes on to the next one: one random long and no
     * division per 12 letters (this was most of a bid's generation when each letter took a bounded
     * {@code nextInt}, a rejection loop with a division). The bytes become the string without a copy
     * through {@code char}s.
     */
    private static String letters(SplittableRandom r, int length) {
        byte[] c = new byte[length];
        long x = 0;
        for (int i = 0; i < length; i++) {
            if (i % LETTERS_PER_LONG == 0) {
                x = r.nextLong();
            }
            // the high word of the unsigned 128-bit product x * 26, in 0..25
            long high = Math.multiplyHigh(x, 26) + ((x >> 63) & 26);
            c[i] = (byte) ('a' + high);
            x *= 26;
        }
        return new String(c, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Lower-case words: between 1 and {@code maxLength} characters, a space now and then. */
    private static String text(SplittableRandom r, int maxLength) {
        int length = 1 + r.nextInt(maxLength);
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = i > 0 && c[i - 1] != ' ' && r.nextInt(13) == 0 ? ' ' : (char) ('a' + r.nextInt(26));
        }
        return new String(c).trim();
    }

    private static String digits(SplittableRandom r, int length) {
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = (char) ('0' + r.nextInt(10));
        }
        return new String(c);
    }

    /** Padding that brings the event to about {@code average} bytes (within 20%). */
    private static String extra(SplittableRandom r, int size, int average) {
        if (size >= average) {
            return "";
        }
        int target = average - size;
        int delta = Math.round(target * 0.2f);
        return letters(r, target - delta + r.nextInt(2 * delta + 1));
    }
}
