package io.tributary.common.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The memcomparable property: for values of one type, unsigned lexicographic order of encodings is
 * SQL order (NULL first), and two values encode equal exactly when SQL considers them equal.
 */
class KeyCodecTest {
    private static final long SEED = Long.getLong("keycodec.seed", System.nanoTime());
    private static final int RANDOM = 150;

    private final Random random = new Random(SEED);

    static byte[] enc(DataType type, Object value) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, type, value);
        return w.toByteArray();
    }

    /** Checks every pair: sign of SQL comparison equals sign of unsigned byte comparison. */
    private <T> void checkOrder(DataType type, List<T> values, Comparator<T> sqlOrder) {
        List<T> all = new ArrayList<>(values);
        all.add(null);
        Comparator<T> order = Comparator.nullsFirst(sqlOrder);
        List<byte[]> encoded = new ArrayList<>();
        for (T v : all) {
            encoded.add(enc(type, v));
        }
        for (int i = 0; i < all.size(); i++) {
            for (int j = 0; j < all.size(); j++) {
                int expected = Integer.signum(order.compare(all.get(i), all.get(j)));
                int actual = Integer.signum(Arrays.compareUnsigned(encoded.get(i), encoded.get(j)));
                if (expected != actual) {
                    fail(type + ": SQL order " + expected + " but encoded order " + actual + " for "
                            + show(all.get(i)) + " vs " + show(all.get(j)) + " (seed " + SEED
                            + ", rerun with -Dkeycodec.seed=" + SEED + ")");
                }
            }
        }
    }

    private static String show(Object v) {
        if (v instanceof byte[] b) {
            return "bytes" + Arrays.toString(b);
        }
        if (v instanceof String s) {
            return "'"
                    + s.codePoints()
                            .mapToObj(
                                    c -> c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c))
                            .reduce("", String::concat)
                    + "'";
        }
        return String.valueOf(v);
    }

    private <T> List<T> withRandom(List<T> fixed, Function<Random, T> gen) {
        List<T> out = new ArrayList<>(fixed);
        for (int i = 0; i < RANDOM; i++) {
            out.add(gen.apply(random));
        }
        return out;
    }

    @Test
    void nullSortsFirstForEveryType() {
        Object[][] samples = {
            {DataType.BOOLEAN, false},
            {DataType.SMALLINT, Short.MIN_VALUE},
            {DataType.INTEGER, Integer.MIN_VALUE},
            {DataType.BIGINT, Long.MIN_VALUE},
            {DataType.REAL, Float.NEGATIVE_INFINITY},
            {DataType.DOUBLE, Double.NEGATIVE_INFINITY},
            {DataType.NUMERIC, new BigDecimal("-1e100")},
            {DataType.TEXT, ""},
            {DataType.VARCHAR, ""},
            {DataType.DATE, Integer.MIN_VALUE},
            {DataType.TIME, 0L},
            {DataType.TIMESTAMP, Long.MIN_VALUE},
            {DataType.TIMESTAMPTZ, Long.MIN_VALUE},
            {DataType.INTERVAL, new Interval(-1000, -1000, -1000)},
            {DataType.BYTEA, new byte[0]},
        };
        for (Object[] s : samples) {
            DataType t = (DataType) s[0];
            assertTrue(Arrays.compareUnsigned(enc(t, null), enc(t, s[1])) < 0, "NULL must sort first for " + t);
        }
    }

    @Test
    void characterKeysIgnoreTrailingSpacesButNotOtherTrailingWhitespace() {
        DataType c = DataType.bpchar(3);
        assertArrayEquals(enc(c, "a"), enc(c, "a  "));
        assertTrue(!Arrays.equals(enc(c, "a"), enc(c, "a\t")), "a trailing tab counts, as in PostgreSQL");
        assertTrue(!Arrays.equals(enc(c, "a"), enc(c, "a\n ")), "a trailing newline counts");
    }

    @Test
    void booleanOrder() {
        checkOrder(DataType.BOOLEAN, List.of(true, false, true), Boolean::compare);
    }

    @Test
    void smallintOrder() {
        checkOrder(
                DataType.SMALLINT,
                withRandom(
                        List.of(
                                Short.MIN_VALUE,
                                (short) -256,
                                (short) -1,
                                (short) 0,
                                (short) 1,
                                (short) 255,
                                (short) 256,
                                Short.MAX_VALUE),
                        r -> (short) r.nextInt()),
                Short::compare);
    }

    @Test
    void integerOrder() {
        checkOrder(
                DataType.INTEGER,
                withRandom(
                        List.of(Integer.MIN_VALUE, -65536, -1, 0, 1, 255, 65536, Integer.MAX_VALUE),
                        r -> r.nextBoolean() ? r.nextInt() : r.nextInt(2001) - 1000),
                Integer::compare);
    }

    @Test
    void bigintOrder() {
        checkOrder(
                DataType.BIGINT,
                withRandom(
                        List.of(Long.MIN_VALUE, -1L << 32, -1L, 0L, 1L, 1L << 32, Long.MAX_VALUE),
                        r -> r.nextBoolean() ? r.nextLong() : (long) r.nextInt(2001) - 1000),
                Long::compare);
    }

    @Test
    void realOrder() {
        List<Float> fixed = List.of(
                Float.NEGATIVE_INFINITY,
                -Float.MAX_VALUE,
                -1.5f,
                -1f,
                -Float.MIN_NORMAL,
                -Float.MIN_VALUE,
                0f,
                Float.MIN_VALUE,
                Float.MIN_NORMAL,
                1e-30f,
                0.1f,
                1f,
                1.5f,
                1e30f,
                Float.MAX_VALUE,
                Float.POSITIVE_INFINITY,
                Float.NaN);
        checkOrder(
                DataType.REAL,
                withRandom(
                        fixed,
                        r -> r.nextBoolean() ? Float.intBitsToFloat(r.nextInt()) : (r.nextFloat() - 0.5f) * 1000),
                Float::compare);
    }

    @Test
    void doubleOrder() {
        List<Double> fixed = List.of(
                Double.NEGATIVE_INFINITY,
                -Double.MAX_VALUE,
                -1e300,
                -1.5,
                -1.0,
                -Double.MIN_NORMAL,
                -Double.MIN_VALUE,
                0.0,
                Double.MIN_VALUE,
                Double.MIN_NORMAL,
                1e-300,
                0.1,
                1.0,
                1.5,
                1e300,
                Double.MAX_VALUE,
                Double.POSITIVE_INFINITY,
                Double.NaN);
        // Double.compare puts NaN above +Infinity, as PostgreSQL does.
        checkOrder(
                DataType.DOUBLE,
                withRandom(
                        fixed,
                        r -> r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : (r.nextDouble() - 0.5) * 1e6),
                Double::compare);
    }

    @Test
    void negativeZeroSortsBelowEverythingPositiveAndAboveEverythingNegative() {
        byte[] negZero = enc(DataType.DOUBLE, -0.0);
        assertTrue(Arrays.compareUnsigned(enc(DataType.DOUBLE, -Double.MIN_VALUE), negZero) < 0);
        assertTrue(Arrays.compareUnsigned(negZero, enc(DataType.DOUBLE, Double.MIN_VALUE)) < 0);
        byte[] negZeroF = enc(DataType.REAL, -0.0f);
        assertTrue(Arrays.compareUnsigned(enc(DataType.REAL, -Float.MIN_VALUE), negZeroF) < 0);
        assertTrue(Arrays.compareUnsigned(negZeroF, enc(DataType.REAL, Float.MIN_VALUE)) < 0);
    }

    @Test
    void nanEncodesCanonically() {
        assertArrayEquals(
                enc(DataType.DOUBLE, Double.NaN), enc(DataType.DOUBLE, Double.longBitsToDouble(0x7ff0000000000001L)));
        assertArrayEquals(enc(DataType.REAL, Float.NaN), enc(DataType.REAL, Float.intBitsToFloat(0x7f800001)));
    }

    @Test
    void negativeZeroEqualsZero() {
        assertArrayEquals(enc(DataType.DOUBLE, 0.0), enc(DataType.DOUBLE, -0.0));
        assertArrayEquals(enc(DataType.REAL, 0.0f), enc(DataType.REAL, -0.0f));
    }

    @Test
    void numericOrderAndEquality() {
        List<BigDecimal> fixed = new ArrayList<>();
        for (String s : new String[] {
            "-1e100",
            "-123.456e10",
            "-1000",
            "-999.999",
            "-10",
            "-1.5",
            "-1.25",
            "-1.2",
            "-1",
            "-1.0",
            "-0.1",
            "-0.01",
            "-0.001",
            "-1e-100",
            "0",
            "0.000",
            "-0",
            "1e-100",
            "0.001",
            "0.01",
            "0.1",
            "0.10",
            "1",
            "1.0",
            "1.00",
            "1.2",
            "1.25",
            "1.5",
            "9",
            "9.99",
            "10",
            "10.0",
            "11",
            "99",
            "100",
            "1e2",
            "999.999",
            "1000",
            "123.456e10",
            "1234560000000",
            "1e100"
        }) {
            fixed.add(new BigDecimal(s));
        }
        checkOrder(
                DataType.NUMERIC,
                withRandom(fixed, r -> {
                    BigInteger unscaled = new BigInteger(1 + r.nextInt(80), r);
                    if (r.nextBoolean()) {
                        unscaled = unscaled.negate();
                    }
                    return new BigDecimal(unscaled, r.nextInt(41) - 20);
                }),
                BigDecimal::compareTo);
    }

    @Test
    void numericTrailingZerosEncodeEqual() {
        assertArrayEquals(enc(DataType.NUMERIC, new BigDecimal("1.0")), enc(DataType.NUMERIC, new BigDecimal("1.00")));
        assertArrayEquals(enc(DataType.NUMERIC, new BigDecimal("100")), enc(DataType.NUMERIC, new BigDecimal("1E+2")));
        assertArrayEquals(enc(DataType.NUMERIC, new BigDecimal("0")), enc(DataType.NUMERIC, new BigDecimal("0.000")));
        assertArrayEquals(
                enc(DataType.NUMERIC, new BigDecimal("-2.50")), enc(DataType.NUMERIC, new BigDecimal("-2.5")));
    }

    /** SQL order of text under the C collation is code point order (what UTF-8 byte order gives). */
    private static int compareCodePoints(String a, String b) {
        return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    @Test
    void textOrder() {
        List<String> fixed = List.of(
                "",
                "\0",
                "\0\0",
                "\0a",
                "a",
                "a\0",
                "a\0\0",
                "a\0b",
                "a\u0001",
                "ab",
                "abc",
                "abd",
                "b",
                "z",
                "\u007f",
                "\u0080",
                "é",
                "\u07ff",
                "\u0800",
                "\uffee",
                "\ud83d\ude00",
                "\ud83d\ude00a",
                "aa\u00ff",
                "\u00ff");
        Function<Random, String> gen = r -> {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(6);
            for (int i = 0; i < n; i++) {
                int kind = r.nextInt(5);
                int cp = switch (kind) {
                    case 0 -> r.nextInt(3); // \0, \1, \2
                    case 1 -> 'a' + r.nextInt(3);
                    case 2 -> 0x80 + r.nextInt(0x780);
                    case 3 -> 0xe000 + r.nextInt(0x1ff0); // above the surrogate range in UTF-16
                    default -> 0x10000 + r.nextInt(0x1000); // supplementary: surrogate pair in UTF-16
                };
                sb.appendCodePoint(cp);
            }
            return sb.toString();
        };
        checkOrder(DataType.TEXT, withRandom(fixed, gen), KeyCodecTest::compareCodePoints);
        checkOrder(DataType.VARCHAR, withRandom(fixed, gen), KeyCodecTest::compareCodePoints);
    }

    @Test
    void byteaOrder() {
        List<byte[]> fixed = List.of(
                new byte[0],
                new byte[] {0},
                new byte[] {0, 0},
                new byte[] {0, 1},
                new byte[] {0, (byte) 0xff},
                new byte[] {1},
                new byte[] {1, 0},
                new byte[] {1, 0, 0},
                new byte[] {1, 1},
                new byte[] {(byte) 0x7f},
                new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xff},
                new byte[] {(byte) 0xff, 0},
                new byte[] {(byte) 0xff, (byte) 0xff});
        checkOrder(
                DataType.BYTEA,
                withRandom(fixed, r -> {
                    byte[] b = new byte[r.nextInt(6)];
                    for (int i = 0; i < b.length; i++) {
                        int k = r.nextInt(4);
                        b[i] = (byte) (k == 0 ? 0 : k == 1 ? 0xff : k == 2 ? 1 : r.nextInt(256));
                    }
                    return b;
                }),
                Arrays::compareUnsigned);
    }

    @Test
    void dateOrder() {
        checkOrder(
                DataType.DATE,
                withRandom(List.of(-719528, -1, 0, 1, 19000, 2932896), r -> r.nextInt(4_000_000) - 2_000_000),
                Integer::compare);
    }

    @Test
    void timeOrder() {
        checkOrder(
                DataType.TIME,
                withRandom(List.of(0L, 1L, 999_999L, 1_000_000L, 86_399_999_999L, 86_400_000_000L), r ->
                        (long) (r.nextDouble() * 86_400_000_000L)),
                Long::compare);
    }

    @Test
    void timestampOrder() {
        List<Long> fixed = List.of(
                Long.MIN_VALUE,
                -210866803200000000L,
                -1L,
                0L,
                1L,
                1_700_000_000_000_000L,
                9214646400000000000L,
                Long.MAX_VALUE);
        checkOrder(DataType.TIMESTAMP, withRandom(fixed, r -> r.nextLong() / 4), Long::compare);
        checkOrder(DataType.TIMESTAMPTZ, withRandom(fixed, r -> r.nextLong() / 4), Long::compare);
    }

    @Test
    void intervalOrder() {
        List<Interval> fixed = List.of(
                new Interval(0, 0, 0),
                new Interval(0, 0, 1),
                new Interval(0, 0, -1),
                new Interval(1, 0, 0),
                new Interval(0, 30, 0),
                new Interval(0, 29, 86_400_000_000L),
                new Interval(0, 1, 0),
                new Interval(0, 0, 86_400_000_000L),
                new Interval(-1, 0, 0),
                new Interval(12, 3, 4_000_000L),
                new Interval(0, -1, 3_600_000_000L),
                new Interval(-2, 40, 0),
                new Interval(1200, 0, 0),
                new Interval(0, 36500, 0));
        checkOrder(
                DataType.INTERVAL,
                withRandom(
                        fixed,
                        r -> new Interval(
                                r.nextInt(2001) - 1000,
                                r.nextInt(20001) - 10000,
                                (r.nextLong() % 1_000_000_000_000_000L))),
                // SQL order: '1 mon' = '30 days' = '24:00:00' (interval_cmp), and equal intervals encode equal
                Comparator.<Interval>naturalOrder());
    }

    @Test
    void equalIntervalsEncodeEqual() {
        assertEquals(0, new Interval(1, 0, 0).compareTo(new Interval(0, 30, 0)));
        assertArrayEquals(
                enc(DataType.INTERVAL, new Interval(1, 0, 0)), enc(DataType.INTERVAL, new Interval(0, 30, 0)));
        assertArrayEquals(
                enc(DataType.INTERVAL, new Interval(0, 1, 0)),
                enc(DataType.INTERVAL, new Interval(0, 0, 86_400_000_000L)));
    }

    @Test
    void largeIntervalsOrderCorrectly() {
        Interval huge = new Interval(1_200_000_000, 0, 0); // '100000000 years', valid in PostgreSQL
        Interval tiny = new Interval(0, 0, 1);
        assertTrue(huge.compareTo(tiny) > 0, "compareTo");
        assertTrue(Arrays.compareUnsigned(enc(DataType.INTERVAL, huge), enc(DataType.INTERVAL, tiny)) > 0, "encoding");
    }

    private static byte[] encRow(List<DataType> types, Object[] row, int[] cols) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encode(w, types, row, cols);
        return w.toByteArray();
    }

    @Test
    void compositeKeysOrderByFirstColumnThenSecond() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        int[] cols = {2, 0}; // key columns are row[2] (text) then row[0] (integer)
        List<Object[]> rows = new ArrayList<>();
        String[] texts = {null, "", "\0", "a", "a\0", "ab", "b"};
        Integer[] ints = {null, Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
        for (String t : texts) {
            for (Integer i : ints) {
                rows.add(new Object[] {i, "ignored", t});
            }
        }
        for (int k = 0; k < RANDOM; k++) {
            rows.add(new Object[] {
                random.nextInt(5) - 2,
                "x",
                random.nextInt(4) == 0
                        ? null
                        : texts[1 + random.nextInt(texts.length - 1)] + (random.nextBoolean() ? "\0" : "")
            });
        }
        Comparator<Object[]> order = Comparator.<Object[], String>comparing(
                        r -> (String) r[2], Comparator.nullsFirst(KeyCodecTest::compareCodePoints))
                .thenComparing(r -> (Integer) r[0], Comparator.nullsFirst(Integer::compare));
        for (Object[] a : rows) {
            for (Object[] b : rows) {
                int expected = Integer.signum(order.compare(a, b));
                int actual = Integer.signum(Arrays.compareUnsigned(encRow(types, a, cols), encRow(types, b, cols)));
                assertEquals(
                        expected,
                        actual,
                        () -> "composite " + Arrays.toString(a) + " vs " + Arrays.toString(b) + " (seed " + SEED + ")");
            }
        }
    }

    @Test
    void compositeEncodingIsConcatenationOfColumnEncodings() {
        List<DataType> types = List.of(DataType.BIGINT, DataType.BYTEA);
        Object[] row = {7L, new byte[] {0, 1}};
        byte[] a = enc(DataType.BIGINT, 7L);
        byte[] b = enc(DataType.BYTEA, new byte[] {0, 1});
        byte[] expected = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, expected, a.length, b.length);
        assertArrayEquals(expected, encRow(types, row, new int[] {0, 1}));
    }
}
