package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * COPY FROM STDIN in the text format, which Tributary splits and parses from bytes: the same input
 * sent to Tributary and to an embedded PostgreSQL must leave the same rows (as {@code getString}
 * texts) or fail with the same SQLSTATE. Escapes, NULL strings, padded and signed numbers, numbers
 * at and past their types' limits, CRLF line ends and multi-byte text are covered.
 */
class CopyDifferentialTest {
    private static final String COLUMNS = "(id BIGINT PRIMARY KEY, i INT, s SMALLINT, d DOUBLE PRECISION, t TEXT)";

    /** A COPY statement's options and its input; each case loads a fresh table. */
    private record Case(String options, String input) {}

    private static final List<Case> CASES = List.of(
            new Case("", "1\t2\t3\t4.5\tfive\n2\t-7\t-8\t-0.25\tsix\n"),
            new Case("", "1\t\\N\t\\N\t\\N\t\\N\n2\t007\t-0\t1e3\t\\\\N\n"),
            new Case("", "1\t 42 \t+5\t  3.5\tpadded \n"),
            new Case("", "1\t2147483647\t32767\tInfinity\tmax\n2\t-2147483648\t-32768\t-inf\tmin\n3\t0\t0\tNaN\tnan\n"),
            new Case("", "9223372036854775807\t1\t1\t1\tbig\n-9223372036854775808\t1\t1\t1\tsmall\n"),
            new Case("", "1\t2147483648\t1\t1\tover\n"),
            new Case("", "1\t1\t32768\t1\tover\n"),
            new Case("", "92233720368547758070\t1\t1\t1\tover\n"),
            new Case("", "1\t12x\t1\t1\tbad\n"),
            new Case("", "1\t-\t1\t1\tbad\n"),
            new Case("", "1\t\t1\t1\tempty\n"),
            new Case("", "1\t1\t1\tabc\tbad\n"),
            new Case("", "1\t1\t1\t1\ta\\tb\\nc\\\\d\\re\\x\n"),
            new Case("", "1\t1\t1\t1\tcrlf\r\n2\t2\t2\t2\tend\r\n"),
            new Case("", "1\t1\t1\t1\tgrüße – 東京\n"),
            new Case("", "1\t1\t1\t1\n"),
            new Case("", "1\t1\t1\t1\tx\textra\n"),
            new Case("", "1\t1\t1\t1\tlast line without newline"),
            new Case("", "1\t1\t1\t1\tbefore end\n\\.\n"),
            new Case("", "1\t1\t1\t1\tdup\n1\t2\t2\t2\tdup\n"),
            new Case("(DELIMITER '|', NULL 'none')", "1|none|2|none|none\n2|3|\\N|4|\\none\n"),
            new Case("(DELIMITER ',', NULL '')", "1,,2,,\n2,3,4,5,x\\,y\n"));

    private static Connection pg;
    private static InProcessTributary tributary;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("copy-diff-", 20, "postgres", "", 60);
        trib = tributary.connection;
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void textCopyLoadsLikePostgres() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            String expected = outcome(pg, "c" + i, c);
            String actual = outcome(trib, "c" + i, c);
            if (!expected.equals(actual)) {
                mismatches.add(c + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /** The COPY's row count and the table's rows as texts, or {@code ERROR <sqlstate>}. */
    private static String outcome(Connection c, String table, Case copy) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " " + COLUMNS);
        }
        long count;
        try {
            count = c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn(
                            "COPY " + table + " FROM STDIN " + copy.options(),
                            new ByteArrayInputStream(copy.input().getBytes(StandardCharsets.UTF_8)));
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= 5; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return count + " " + rows;
    }
}
