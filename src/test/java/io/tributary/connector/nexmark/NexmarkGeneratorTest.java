package io.tributary.connector.nexmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SplitReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
    private static final long BASE = 1_700_000_000_000_000L;

    @Test
    void eventsArePersonAuctionBidInTheRatioOneThreeFortySix() {
        long[] counts = new long[3];
        for (NexmarkTable t : NexmarkTable.values()) {
            for (long k = 0; ; k++) {
                long n = t.eventNumber(k);
                if (n >= 10_000) {
                    break;
                }
                counts[t.ordinal()]++;
                assertEquals(k, t.eventsBefore(n), "index of event " + n);
            }
        }
        assertArrayEquals(new long[] {200, 600, 9200}, counts);
    }

    @Test
    void theSameEventNumberAlwaysGivesTheSameRow() {
        NexmarkGenerator a = new NexmarkGenerator(BASE);
        NexmarkGenerator b = new NexmarkGenerator(BASE);
        for (NexmarkTable t : NexmarkTable.values()) {
            for (long k = 0; k < 500; k += 7) {
                long n = t.eventNumber(k);
                assertArrayEquals(a.row(t, n), b.row(t, n), t + " event " + n);
            }
        }
        assertNotEquals(Arrays.asList(a.row(NexmarkTable.BID, 4)), Arrays.asList(a.row(NexmarkTable.BID, 5)));
    }

    @Test
    void idsAndTimesFollowFromEventNumbers() {
        NexmarkGenerator g = new NexmarkGenerator(BASE);
        Set<Long> people = new HashSet<>();
        Set<Long> auctions = new HashSet<>();
        for (long n = 0; n < 20_000; n++) {
            long offset = n % NexmarkTable.EVENTS_PER_CYCLE;
            if (offset == 0) {
                Object[] p = g.row(NexmarkTable.PERSON, n);
                assertEquals(1000 + n / 50, p[0]);
                assertEquals(BASE + n * 100 / 1000 * 1000, p[6]);
                assertTrue(((String) p[3]).matches("\\d{4} \\d{4} \\d{4} \\d{4}"), (String) p[3]);
                people.add((Long) p[0]);
            } else if (offset < 4) {
                Object[] a = g.row(NexmarkTable.AUCTION, n);
                assertEquals(1000 + n / 50 * 3 + offset - 1, a[0]);
                assertTrue((Long) a[4] > (Long) a[3], "reserve above the initial bid");
                assertTrue((Long) a[6] > (Long) a[5], "expires after it starts");
                long seller = (Long) a[7];
                assertTrue(seller >= 1000 && seller <= 1000 + n / 50 + 10, "seller " + seller + " at event " + n);
                long category = (Long) a[8];
                assertTrue(category >= 10 && category < 15);
                auctions.add((Long) a[0]);
            } else {
                Object[] b = g.row(NexmarkTable.BID, n);
                long auction = (Long) b[0];
                long lastAuction = 1000 + n / 50 * 3 + 2;
                assertTrue(
                        auction >= Math.max(1000, lastAuction - 100) && auction <= lastAuction + 10,
                        "auction " + auction + " at event " + n);
                long price = (Long) b[2];
                assertTrue(price >= 100 && price <= 100_000_000, "price " + price);
                assertEquals(BASE + n * 100 / 1000 * 1000, b[5]);
            }
        }
        assertEquals(400, people.size());
        assertEquals(1200, auctions.size());
    }

    @Test
    void splitsTogetherYieldEveryEventOnceAndResumeIdentically() throws Exception {
        Source one = open(1, "bid");
        List<List<Object>> single = readAll(one, null);
        List<List<Object>> split = new ArrayList<>();
        Source source = new NexmarkConnector().open(context(4, "bid", NexmarkTable.BID.columns, one.identity()));
        for (String s : source.splits()) {
            split.addAll(readAll(source, s));
        }
        assertEquals(new HashSet<>(single), new HashSet<>(split));
        assertEquals(single.size(), split.size());

        // a reader reopened from a position yields exactly what the uninterrupted reader did next
        try (SplitReader r = source.reader("2", null)) {
            r.poll(0, 10);
            byte[] position = r.position();
            assertEquals("next event " + (NexmarkTable.BID.eventNumber(2 + 10 * 4)), r.describe(position));
            List<Object> next = Arrays.asList(r.poll(0, 1).changes().get(0).row());
            try (SplitReader resumed = source.reader("2", position)) {
                assertEquals(
                        next, Arrays.asList(resumed.poll(0, 1).changes().get(0).row()));
            }
        }
    }

    @Test
    void theIdentityKeepsEventTimesAcrossRestarts() throws Exception {
        Source first = open(1, "person");
        Source again = new NexmarkConnector().open(context(1, "person", NexmarkTable.PERSON.columns, first.identity()));
        assertEquals(readAll(first, null), readAll(again, null));
    }

    @Test
    void optionsAndColumnsAreChecked() {
        ConnectorException unknown = assertThrows(
                ConnectorException.class,
                () -> new NexmarkConnector()
                        .open(new SourceContext(
                                1,
                                "t",
                                NexmarkTable.BID.columns,
                                new int[0],
                                Map.of("nexmark.table.type", "bid", "nexmark.rate", "5"),
                                null,
                                null)));
        assertEquals("42601", unknown.sqlState());
        assertTrue(unknown.getMessage().contains("nexmark.rate")
                && unknown.getMessage().contains("nexmark.split.num"));
        ConnectorException missing = assertThrows(
                ConnectorException.class,
                () -> new NexmarkConnector()
                        .open(new SourceContext(1, "t", NexmarkTable.BID.columns, new int[0], Map.of(), null, null)));
        assertEquals("42601", missing.sqlState());
        ConnectorException badType = assertThrows(ConnectorException.class, () -> open(1, "seller"));
        assertEquals("22023", badType.sqlState());
        ConnectorException badNumber = assertThrows(
                ConnectorException.class,
                () -> new NexmarkConnector()
                        .open(new SourceContext(
                                1,
                                "t",
                                NexmarkTable.BID.columns,
                                new int[0],
                                Map.of("nexmark.table.type", "bid", "nexmark.split.num", "0"),
                                null,
                                null)));
        assertEquals("22023", badNumber.sqlState());
        List<SourceColumn> wrongName = new ArrayList<>(NexmarkTable.BID.columns);
        wrongName.set(0, new SourceColumn("auction_id", DataType.BIGINT));
        ConnectorException column = assertThrows(
                ConnectorException.class, () -> new NexmarkConnector().open(context(1, "bid", wrongName, null)));
        assertEquals("42703", column.sqlState());
        assertTrue(
                column.getMessage().contains("auction_id")
                        && column.getMessage().contains("auction, bidder"),
                column.getMessage());
        List<SourceColumn> tooFew = NexmarkTable.BID.columns.subList(0, 3);
        assertTrue(assertThrows(
                        ConnectorException.class, () -> new NexmarkConnector().open(context(1, "bid", tooFew, null)))
                .getMessage()
                .contains("missing: channel, url, date_time, extra"));
        List<SourceColumn> wrongType = new ArrayList<>(NexmarkTable.BID.columns);
        wrongType.set(2, new SourceColumn("price", DataType.INTEGER));
        assertEquals(
                "42804",
                assertThrows(
                                ConnectorException.class,
                                () -> new NexmarkConnector().open(context(1, "bid", wrongType, null)))
                        .sqlState());
    }

    @Test
    void declaredTypesMayWidenTheGeneratedOnes() throws Exception {
        List<SourceColumn> columns = new ArrayList<>(NexmarkTable.PERSON.columns);
        columns.set(0, new SourceColumn("id", DataType.NUMERIC));
        columns.set(1, new SourceColumn("name", DataType.TEXT));
        columns.set(6, new SourceColumn("date_time", DataType.TIMESTAMPTZ));
        Source s = new NexmarkConnector().open(context(1, "person", columns, null));
        try (SplitReader r = s.reader("0", null)) {
            Object[] row = r.poll(0, 1).changes().get(0).row();
            assertEquals(new java.math.BigDecimal(1000), row[0]);
            assertTrue(row[6] instanceof Long);
        }
    }

    private static SourceContext context(int splits, String type, List<SourceColumn> columns, byte[] identity) {
        return new SourceContext(
                1,
                "t",
                columns,
                new int[0],
                Map.of(
                        "nexmark.table.type",
                        type,
                        "nexmark.event.num",
                        "3000",
                        "nexmark.split.num",
                        Integer.toString(splits)),
                null,
                identity);
    }

    private static Source open(int splits, String type) {
        List<SourceColumn> columns = switch (type) {
            case "person" -> NexmarkTable.PERSON.columns;
            default -> NexmarkTable.BID.columns;
        };
        return new NexmarkConnector().open(context(splits, type, columns, null));
    }

    private static List<List<Object>> readAll(Source source, String split) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (SplitReader r = source.reader(split == null ? "0" : split, null)) {
            while (true) {
                List<SourceChange> changes = r.poll(0, 500).changes();
                if (changes.isEmpty()) {
                    return rows;
                }
                changes.forEach(c -> rows.add(Arrays.asList(c.row())));
            }
        }
    }
}
