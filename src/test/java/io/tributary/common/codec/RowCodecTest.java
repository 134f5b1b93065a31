package io.tributary.common.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowCodecTest {
    private static final List<DataType> ALL = List.of(
            DataType.BOOLEAN,
            DataType.SMALLINT,
            DataType.INTEGER,
            DataType.BIGINT,
            DataType.REAL,
            DataType.DOUBLE,
            DataType.NUMERIC,
            DataType.VARCHAR,
            DataType.TEXT,
            DataType.DATE,
            DataType.TIME,
            DataType.TIMESTAMP,
            DataType.TIMESTAMPTZ,
            DataType.INTERVAL,
            DataType.BYTEA,
            DataType.numeric(10, 2),
            DataType.varchar(5));

    private static Object[] sampleRow() {
        return new Object[] {
            true,
            (short) -7,
            Integer.MIN_VALUE,
            Long.MAX_VALUE,
            -0.0f,
            Double.NaN,
            new BigDecimal("-123456789012345678901234567890.123456789"),
            "",
            "héllo \0 wörld \ud83d\ude00",
            -719528,
            86_399_999_999L,
            Long.MIN_VALUE,
            1_700_000_000_123_456L,
            new Interval(-14, 3, -1_500_000L),
            new byte[] {0, (byte) 0xff, 0},
            new BigDecimal("1.50"),
            "abc"
        };
    }

    private static void assertRowEquals(Object[] expected, Object[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            Object e = expected[i];
            Object a = actual[i];
            if (e instanceof byte[] eb) {
                assertArrayEquals(eb, (byte[]) a, "column " + i);
            } else {
                // equals(): BigDecimal compares scale, Float/Double compare bits (-0.0 and NaN preserved)
                assertEquals(e, a, "column " + i);
                if (e != null) {
                    assertEquals(e.getClass(), a.getClass(), "column " + i + " Java class");
                }
            }
        }
    }

    private static Object[] roundTrip(List<DataType> types, Object[] row) {
        RowCodec codec = new RowCodec(types);
        return codec.decode(codec.encode(row));
    }

    @Test
    void allTypesRoundTrip() {
        Object[] row = sampleRow();
        assertRowEquals(row, roundTrip(ALL, row));
    }

    @Test
    void allNullRow() {
        Object[] row = new Object[ALL.size()];
        Object[] back = roundTrip(ALL, row);
        for (Object v : back) {
            assertNull(v);
        }
    }

    @Test
    void everySingleNullAcrossBitmapBytes() {
        // 17 columns: the null bitmap spans three bytes
        for (int n = 0; n < ALL.size(); n++) {
            Object[] row = sampleRow();
            row[n] = null;
            assertRowEquals(row, roundTrip(ALL, row));
            Object[] onlyOne = new Object[ALL.size()];
            onlyOne[n] = sampleRow()[n];
            assertRowEquals(onlyOne, roundTrip(ALL, onlyOne));
        }
    }

    @Test
    void randomNullPatterns() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int k = 0; k < 500; k++) {
            Object[] row = sampleRow();
            for (int i = 0; i < row.length; i++) {
                if (r.nextBoolean()) {
                    row[i] = null;
                }
            }
            Object[] back = roundTrip(ALL, row);
            try {
                assertRowEquals(row, back);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Decoding only some columns gives each read column the value a full decode gives, and null to
     * the others: skipping a value of any type (arrays of nullable elements, long numerics, JSON,
     * uuid and bpchar included) leaves the reader at the next one.
     */
    @Test
    void decodingSomeColumnsSkipsTheOthersExactly() {
        List<DataType> types = new ArrayList<>(ALL);
        types.addAll(List.of(
                DataType.UUID,
                DataType.JSON,
                DataType.JSONB,
                DataType.bpchar(3),
                DataType.array(DataType.TEXT),
                DataType.array(DataType.NUMERIC),
                DataType.array(DataType.INTEGER)));
        RowCodec codec = new RowCodec(types);
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int k = 0; k < 500; k++) {
            Object[] row = new ArrayList<>(Arrays.asList(sampleRow())).toArray(new Object[types.size()]);
            row[ALL.size()] = new java.util.UUID(r.nextLong(), r.nextLong());
            row[ALL.size() + 1] = new io.tributary.common.types.PgJson("{\"a\": [1, 2]}");
            row[ALL.size() + 2] = new io.tributary.common.types.PgJsonb("{\"b\": null}");
            row[ALL.size() + 3] = "ab ";
            row[ALL.size() + 4] = Arrays.asList("x", null, "yz");
            row[ALL.size() + 5] = Arrays.asList(new BigDecimal("-123456789012345678901234.5"), null);
            row[ALL.size() + 6] = Arrays.asList(null, 7, -8);
            boolean[] read = new boolean[types.size()];
            for (int i = 0; i < row.length; i++) {
                if (r.nextInt(3) == 0) {
                    row[i] = null;
                }
                read[i] = r.nextBoolean();
            }
            byte[] bytes = codec.encode(row);
            Object[] all = codec.decode(bytes);
            Object[] some = codec.decode(bytes, read);
            for (int i = 0; i < row.length; i++) {
                String where = "seed " + seed + ", column " + i + " (" + types.get(i) + ")";
                if (read[i]) {
                    assertEquals(
                            String.valueOf(Arrays.deepToString(new Object[] {all[i]})),
                            String.valueOf(Arrays.deepToString(new Object[] {some[i]})),
                            where);
                } else {
                    assertNull(some[i], where);
                }
            }
        }
    }

    @Test
    void numericScaleIsPreserved() {
        List<DataType> types = List.of(DataType.NUMERIC);
        for (String s : new String[] {
            "1.50",
            "1.5",
            "0.000",
            "0",
            "-0.10",
            "1E+3",
            "1000",
            "12345678901234567890.0",
            "1E-40",
            "-9.99999999999999999999999999999E+50",
            "127",
            "128",
            "-128",
            "255",
            "256"
        }) {
            BigDecimal d = new BigDecimal(s);
            BigDecimal back = (BigDecimal) roundTrip(types, new Object[] {d})[0];
            assertEquals(d, back, s);
            assertEquals(d.scale(), back.scale(), s + " scale");
            assertEquals(d.toPlainString(), back.toPlainString(), s);
        }
    }

    @Test
    void largeAndEmptyStringsAndBytes() {
        List<DataType> types = List.of(DataType.TEXT, DataType.BYTEA, DataType.TEXT, DataType.BYTEA, DataType.INTEGER);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            sb.appendCodePoint(i % 3 == 0 ? 'a' + i % 26 : i % 3 == 1 ? 0x4e00 + i % 1000 : 0x1f600 + i % 50);
        }
        byte[] big = new byte[300_000];
        new Random(1).nextBytes(big);
        Object[] row = {sb.toString(), big, "", new byte[0], 42};
        assertRowEquals(row, roundTrip(types, row));
    }

    @Test
    void textIsItsUtf8BytesAfterTheirCountWhetherAsciiOrNot() {
        String longAscii = "x".repeat(200);
        for (String s : new String[] {
            "", "shipped", longAscii, longAscii + "é", "é" + longAscii, "\u007f\u0080", "a\ud83d\ude00", "\0"
        }) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            ByteWriter expected =
                    new ByteWriter(8).put(0).putVarInt(utf8.length).putBytes(utf8);
            assertArrayEquals(expected.toByteArray(), new RowCodec(List.of(DataType.TEXT)).encode(new Object[] {s}), s);
        }
    }

    @Test
    void extremeNumbers() {
        List<DataType> types = List.of(
                DataType.SMALLINT,
                DataType.SMALLINT,
                DataType.INTEGER,
                DataType.BIGINT,
                DataType.REAL,
                DataType.REAL,
                DataType.DOUBLE,
                DataType.DOUBLE,
                DataType.DOUBLE);
        Object[] row = {
            Short.MIN_VALUE,
            Short.MAX_VALUE,
            -1,
            Long.MIN_VALUE,
            Float.NaN,
            Float.NEGATIVE_INFINITY,
            -0.0,
            Double.MIN_VALUE,
            Double.POSITIVE_INFINITY
        };
        assertRowEquals(row, roundTrip(types, row));
    }

    @Test
    void manyColumns() {
        List<DataType> types = new ArrayList<>();
        Object[] row = new Object[70];
        for (int i = 0; i < row.length; i++) {
            types.add(i % 2 == 0 ? DataType.INTEGER : DataType.TEXT);
            row[i] = i % 3 == 0 ? null : i % 2 == 0 ? (Object) i : "c" + i;
        }
        assertRowEquals(row, roundTrip(types, row));
        assertEquals(70, new RowCodec(types).columnCount());
    }

    @Test
    void zeroColumns() {
        RowCodec codec = new RowCodec(List.of());
        assertEquals(0, codec.decode(codec.encode(new Object[0])).length);
    }

    @Test
    void encodingIsDeterministic() {
        RowCodec codec = new RowCodec(ALL);
        assertArrayEquals(codec.encode(sampleRow()), codec.encode(sampleRow()));
        assertEquals(Arrays.asList(ALL.toArray()).size(), codec.columnCount());
    }
}
