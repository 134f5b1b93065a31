package io.tributary.meta.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.connector.postgres.UpstreamPostgres;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * A binary COPY body written from stored rows gives PostgreSQL the same rows as the text body of
 * the same rows (PostgreSQL parses both; its text output of the two tables is compared): every
 * type, NULLs, dates and timestamps before and after both epochs and infinite ones, non-ASCII text, deletions that
 * keep only the key, and a NUMERIC column that is stored but not written.
 */
class CopyBinaryTest {
    private static final List<DataType> TYPES = List.of(
            DataType.BIGINT,
            DataType.BOOLEAN,
            DataType.SMALLINT,
            DataType.INTEGER,
            DataType.NUMERIC,
            DataType.REAL,
            DataType.DOUBLE,
            DataType.VARCHAR,
            DataType.TEXT,
            DataType.BYTEA,
            DataType.DATE,
            DataType.TIME,
            DataType.TIMESTAMP,
            DataType.TIMESTAMPTZ,
            DataType.INTERVAL);
    /** Every column but the NUMERIC one (index 4). */
    private static final int[] WRITTEN = {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};

    private static final String COLUMNS = "id bigint, b boolean, s smallint, i integer, r real, d double precision, "
            + "v varchar, t text, y bytea, dt date, tm time, ts timestamp, tz timestamptz, iv interval, "
            + "tributary_op \"char\"";

    @Test
    void binaryRowsAreTheTextRows() throws Exception {
        RowCodec codec = new RowCodec(TYPES);
        List<byte[]> rows = new ArrayList<>();
        long day = 86_400_000_000L;
        rows.add(codec.encode(new Object[] {
            1L,
            true,
            (short) -7,
            Integer.MIN_VALUE,
            new BigDecimal("12.50"),
            1.5f,
            -2.25e300,
            "plain",
            "tab\there\nnewline \\ backslash",
            new byte[] {0, 1, (byte) 0xff},
            0,
            0L,
            0L,
            0L,
            new Interval(0, 0, 0)
        }));
        rows.add(codec.encode(new Object[] {
            2L,
            false,
            Short.MAX_VALUE,
            42,
            null,
            Float.NaN,
            Double.NEGATIVE_INFINITY,
            "żółw ✓",
            "日本",
            new byte[0],
            -730_000,
            86_399_999_999L,
            -40_000L * day + 123_456L,
            11_000L * day + 999_999L,
            new Interval(-14, 3, -1_500_000L)
        }));
        rows.add(codec.encode(new Object[] {
            Long.MIN_VALUE, null, null, null, null, null, null, null, null, null, null, null, null, null, null
        }));
        rows.add(codec.encode(new Object[] {
            Long.MAX_VALUE,
            true,
            (short) 0,
            0,
            new BigDecimal("-1"),
            -0.0f,
            0.1,
            "",
            "",
            new byte[] {'\\'},
            10_957,
            1L,
            946_684_800_000_000L,
            -1L,
            new Interval(1, -1, 123_456_789_012L)
        }));
        // PostgreSQL's infinities, the ends of the counts in both encodings
        rows.add(codec.encode(new Object[] {
            3L,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            Integer.MAX_VALUE,
            null,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            null
        }));
        rows.add(codec.encode(new Object[] {
            4L,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            Integer.MIN_VALUE,
            null,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            null
        }));
        int[] key = {0};
        CopyBody binary = new CopyBinary(TYPES, WRITTEN, key, true);
        CopyBody text = new CopyText(TYPES, WRITTEN, key, true);
        assertFalse(CopyBinary.supports(TYPES, new int[] {0, 4}));
        for (CopyBody body : List.of(binary, text)) {
            body.start();
            for (byte[] row : rows) {
                body.add(row, 'U');
            }
            body.addDelete(rows.get(1));
            body.finish();
            assertEquals(rows.size() + 1, body.rows());
        }
        try (Connection c = UpstreamPostgres.connect();
                Statement s = c.createStatement()) {
            String suffix = Long.toHexString(System.nanoTime());
            String fromBinary = "copy_binary_" + suffix;
            String fromText = "copy_text_" + suffix;
            s.execute("SET TimeZone = 'UTC'");
            s.execute("CREATE TABLE " + fromBinary + " (" + COLUMNS + ")");
            s.execute("CREATE TABLE " + fromText + " (" + COLUMNS + ")");
            copy(c, fromBinary, binary);
            copy(c, fromText, text);
            assertEquals(dump(s, fromText), dump(s, fromBinary));
            assertEquals(rows.size() + 1, dump(s, fromBinary).size());
            s.execute("DROP TABLE " + fromBinary + ", " + fromText);
        }
    }

    private static void copy(Connection c, String table, CopyBody body) throws Exception {
        c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " FROM STDIN" + body.options(), new ByteArrayInputStream(body.bytes()));
    }

    private static List<String> dump(Statement s, String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT t::text FROM " + table + " t ORDER BY id, tributary_op")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
