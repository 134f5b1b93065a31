package io.tributary.common.types;

import java.util.UUID;

/**
 * PostgreSQL's uuid input and output. Input is what PostgreSQL's {@code uuid_in} accepts: 32 hex
 * digits in either case, optionally inside braces, with at most one hyphen after any group of four
 * digits (so the canonical form, the form without hyphens and {@code a0ee-bc99-...} all read);
 * nothing else, not even surrounding blanks. Output is the lower-case canonical 8-4-4-4-12 form.
 * Stateless and thread-safe; called wherever text becomes a uuid (COPY, literals, casts, parameters).
 */
public final class PgUuidText {
    private static final int BYTES = 16;

    private PgUuidText() {}

    /**
     * The uuid {@code text} spells.
     *
     * @throws io.tributary.common.TributaryException 22P02 {@code invalid input syntax for type
     *     uuid: "text"} for anything PostgreSQL refuses
     */
    public static UUID parse(String text) {
        int pos = 0;
        int end = text.length();
        boolean braces = end > 0 && text.charAt(0) == '{';
        if (braces) {
            pos++;
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < BYTES; i++) {
            if (pos + 1 >= end) {
                throw PgTextFormat.invalid("uuid", text);
            }
            int hi = hex(text.charAt(pos));
            int lo = hex(text.charAt(pos + 1));
            if (hi < 0 || lo < 0) {
                throw PgTextFormat.invalid("uuid", text);
            }
            pos += 2;
            long b = hi << 4 | lo;
            if (i < 8) {
                high = high << 8 | b;
            } else {
                low = low << 8 | b;
            }
            // PostgreSQL takes one hyphen after every second byte but the last
            if (pos < end && text.charAt(pos) == '-' && i % 2 == 1 && i < BYTES - 1) {
                pos++;
            }
        }
        if (braces) {
            if (pos >= end || text.charAt(pos) != '}') {
                throw PgTextFormat.invalid("uuid", text);
            }
            pos++;
        }
        if (pos != end) {
            throw PgTextFormat.invalid("uuid", text);
        }
        return new UUID(high, low);
    }

    /** The value of ASCII hex digit {@code c}, -1 for any other character. */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /** The canonical lower-case text of {@code u}, as PostgreSQL's {@code uuid_out} prints it. */
    public static String format(UUID u) {
        return u.toString();
    }

    /**
     * PostgreSQL's order of uuids: their 16 bytes compared unsigned, which is also the order of the
     * canonical text ({@link UUID#compareTo} compares signed and would put {@code 8...} first).
     */
    public static int compare(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
