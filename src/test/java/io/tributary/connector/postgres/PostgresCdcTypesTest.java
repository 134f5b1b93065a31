package io.tributary.connector.postgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.connector.Source;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SplitReader;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every supported type, and NULL, arrives as its canonical value, through the snapshot and through the stream. */
class PostgresCdcTypesTest {
    private static final int TABLE_ID = 9201;
    private static final String TABLE = "types_" + TABLE_ID;
    private static final List<SourceColumn> COLUMNS = List.of(
            new SourceColumn("id", DataType.INTEGER),
            new SourceColumn("s", DataType.SMALLINT),
            new SourceColumn("i", DataType.INTEGER),
            new SourceColumn("b", DataType.BIGINT),
            new SourceColumn("n", DataType.numeric(12, 3)),
            new SourceColumn("t", DataType.TEXT),
            new SourceColumn("v", DataType.varchar(20)),
            new SourceColumn("bo", DataType.BOOLEAN),
            new SourceColumn("r", DataType.REAL),
            new SourceColumn("d", DataType.DOUBLE),
            new SourceColumn("dt", DataType.DATE),
            new SourceColumn("tm", DataType.TIME),
            new SourceColumn("ts", DataType.TIMESTAMP),
            new SourceColumn("tz", DataType.TIMESTAMPTZ),
            new SourceColumn("iv", DataType.INTERVAL),
            new SourceColumn("by", DataType.BYTEA),
            new SourceColumn("u", DataType.TEXT),
            new SourceColumn("wide", DataType.BIGINT));
    private static final String VALUES = "(%d, -32768, 2147483647, -9223372036854775808, 123456789.125, 'tab\tquote''"
            + " ünïcode', 'varchar', true, 1.5, -2.25e-300, '2024-02-29', '13:45:01.5', '2024-02-29 13:45:01.123456',"
            + " '2024-02-29 13:45:01.5+02', '1 year 2 mons 3 days 04:05:06', '\\x00ff10',"
            + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 7)";

    private static Source source;

    @BeforeAll
    static void create() throws Exception {
        UpstreamPostgres.execute(
                "DROP TABLE IF EXISTS " + TABLE,
                "CREATE TABLE " + TABLE + " (id int PRIMARY KEY,"
                        + " s smallint, i int, b bigint, n numeric(12,3), t text, v varchar(20), bo boolean, r real,"
                        + " d double precision, dt date, tm time, ts timestamp, tz timestamptz, iv interval, by bytea, u uuid,"
                        + " wide int, ignored text)",
                "INSERT INTO " + TABLE + " VALUES " + String.format(VALUES, 1).replace(", 7)", ", 7, 'x')"),
                "INSERT INTO " + TABLE + " (id) VALUES (2)");
        source = new PostgresCdcConnector()
                .open(UpstreamPostgres.context(
                        TABLE_ID, COLUMNS, new int[] {0}, UpstreamPostgres.options(TABLE), null));
    }

    @AfterAll
    static void drop() throws Exception {
        source.destroy();
        source.close();
        UpstreamPostgres.execute("DROP TABLE IF EXISTS " + TABLE);
    }

    @Test
    void snapshotAndStreamDeliverCanonicalValuesAndNulls() throws Exception {
        try (SplitReader reader = source.reader(source.splits().get(0), null)) {
            assertEquals("snapshotting", reader.phase());
            assertEquals(-1, reader.lagMillis());
            List<SourceChange> snapshot = Reading.atLeast(reader, 2);
            UpstreamPostgres.execute(
                    "INSERT INTO " + TABLE + " VALUES "
                            + String.format(VALUES, 3).replace(", 7)", ", 7, 'x')"),
                    "INSERT INTO " + TABLE + " (id) VALUES (4)");
            List<SourceChange> streamed = Reading.atLeast(reader, 2);
            assertEquals("streaming", reader.phase());
            assertTrue(reader.lagMillis() >= 0);

            assertEquals(2, snapshot.size());
            assertRow(1, snapshot.get(0));
            assertNulls(2, snapshot.get(1));
            assertEquals(2, streamed.size());
            assertRow(3, streamed.get(0));
            assertNulls(4, streamed.get(1));
        }
    }

    private static void assertRow(int id, SourceChange change) {
        assertEquals(SourceChange.Kind.INSERT, change.kind());
        Object[] expected = {
            id,
            (short) -32768,
            2147483647,
            Long.MIN_VALUE,
            new BigDecimal("123456789.125"),
            "tab\tquote' ünïcode",
            "varchar",
            true,
            1.5f,
            -2.25e-300,
            (int) LocalDate.of(2024, 2, 29).toEpochDay(),
            (13 * 3600L + 45 * 60 + 1) * 1_000_000 + 500_000,
            micros(LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_456_000).toInstant(ZoneOffset.UTC)),
            micros(OffsetDateTime.of(2024, 2, 29, 13, 45, 1, 500_000_000, ZoneOffset.ofHours(2))
                    .toInstant()),
            null,
            new byte[] {0, (byte) 0xff, 0x10},
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            7L
        };
        Object[] row = change.row();
        assertEquals(expected.length, row.length);
        Interval interval = (Interval) row[14];
        assertEquals(14, interval.months());
        assertEquals(3, interval.days());
        assertEquals((4 * 3600L + 5 * 60 + 6) * 1_000_000, interval.micros());
        row = row.clone();
        row[14] = null;
        assertTrue(
                Arrays.deepEquals(expected, row),
                () -> "expected " + Arrays.deepToString(expected) + " but was " + Arrays.deepToString(change.row()));
    }

    private static void assertNulls(int id, SourceChange change) {
        Object[] expected = new Object[COLUMNS.size()];
        expected[0] = id;
        assertArrayEquals(expected, change.row());
    }

    private static long micros(java.time.Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
    }
}
