package io.tributary.slt;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;

/**
 * Executes sqllogictest records over one JDBC connection and fails with an {@link AssertionError} naming the file,
 * line, SQL, and expected versus actual outcome at the first record that does not behave as written.
 *
 * <h2>File format</h2>
 * Records are separated by blank lines. Lines starting with {@code #} between records are comments.
 * <pre>
 * statement ok
 * CREATE TABLE t (a INT PRIMARY KEY, b TEXT)
 *
 * statement error SQLSTATE 23505 duplicate key
 * INSERT INTO t VALUES (1, 'x')
 *
 * query IT rowsort
 * SELECT a, b FROM t
 * ----
 * 1 x
 * 2 NULL
 * </pre>
 * <ul>
 * <li>{@code statement ok}: the SQL (all lines up to the next blank line) must succeed.</li>
 * <li>{@code statement error [SQLSTATE <code>] [<text>]}: the SQL must fail; when given, the SQLSTATE must be
 * exactly {@code <code>} and the server's message must contain {@code <text>} (plain substring, not a regex).</li>
 * <li>{@code query <types> [nosort|rowsort|valuesort]}: the SQL up to the {@code ----} line must return the rows that
 * follow it, up to the next blank line. {@code <types>} has one letter per column ({@code I} integer, {@code R}
 * real, {@code T} text, ...); only its length, the column count, is checked. Each value is the text the server sent
 * ({@code ResultSet.getString}), {@code NULL} for SQL null and {@code (empty)} for the empty string; the values of a
 * row are joined by single spaces. {@code rowsort} sorts rows before comparing, {@code valuesort} expects one value
 * per line and sorts all values. A query with no {@code ----} section must return no rows.</li>
 * <li>{@code query <types> [sort] retry <n> backoff <duration>}: as {@code query}, but run again up to {@code n}
 * times, {@code duration} ({@code 200ms}, {@code 1s}) apart, until the rows match: for results that arrive
 * asynchronously, such as rows from a connector.</li>
 * <li>{@code query error ...}: as {@code statement error}.</li>
 * <li>{@code skipif <engine>} / {@code onlyif <engine>} on the line before a record drop or keep it for the engine
 * under test ({@code tributary}); {@code halt} ends the file.</li>
 * <li>A statement whose first line is {@code COPY ... FROM STDIN} sends its remaining lines as the COPY data through
 * the PostgreSQL copy protocol; the first line is the command.</li>
 * </ul>
 */
final class SltRunner {
    /** The name {@code skipif}/{@code onlyif} compare against. */
    static final String ENGINE = "tributary";

    private static final Pattern COPY_FROM_STDIN = Pattern.compile("(?is)\\s*copy\\s.*\\sfrom\\s+stdin\\b.*");

    private final Connection connection;
    private final String file;

    SltRunner(Connection connection, String file) {
        this.connection = connection;
        this.file = file;
    }

    void run(List<SltRecord> records) throws SQLException {
        for (SltRecord record : records) {
            if (record instanceof SltRecord.Statement s) {
                statement(s);
            } else {
                query((SltRecord.Query) record);
            }
        }
    }

    private void statement(SltRecord.Statement s) throws SQLException {
        try (Statement st = connection.createStatement()) {
            execute(st, s.sql());
        } catch (SQLException e) {
            if (s.error() == null) {
                throw failure(s, "statement ok", "error [" + e.getSQLState() + "] " + e.getMessage());
            }
            checkError(s, s.error(), e);
            return;
        }
        if (s.error() != null) {
            throw failure(s, "error with " + s.error(), "success");
        }
    }

    private void execute(Statement st, String sql) throws SQLException {
        Matcher copy = COPY_FROM_STDIN.matcher(sql.lines().findFirst().orElse(""));
        if (!copy.matches()) {
            st.execute(sql);
            return;
        }
        int newline = sql.indexOf('\n');
        String data = newline < 0 ? "" : sql.substring(newline + 1) + "\n";
        try {
            connection
                    .unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn(sql.substring(0, newline < 0 ? sql.length() : newline), new StringReader(data));
        } catch (IOException e) {
            throw new SQLException("COPY data could not be sent", e);
        }
    }

    private void query(SltRecord.Query q) throws SQLException {
        for (int attempt = 0; attempt < q.retry().attempts(); attempt++) {
            try {
                queryOnce(q);
                return;
            } catch (AssertionError notYet) {
                try {
                    Thread.sleep(q.retry().backoffMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw notYet;
                }
            }
        }
        queryOnce(q);
    }

    private void queryOnce(SltRecord.Query q) throws SQLException {
        List<String> actual;
        try (Statement st = connection.createStatement()) {
            if (!st.execute(q.sql())) {
                throw failure(q, "a result set", "no result set (update count " + st.getUpdateCount() + ")");
            }
            try (ResultSet rs = st.getResultSet()) {
                int columns = rs.getMetaData().getColumnCount();
                if (q.error() == null && columns != q.columnCount()) {
                    throw failure(q, q.columnCount() + " columns", columns + " columns");
                }
                actual = rows(rs, columns, q.sort());
            }
        } catch (SQLException e) {
            if (q.error() == null) {
                throw failure(q, String.join("\n", q.expected()), "error [" + e.getSQLState() + "] " + e.getMessage());
            }
            checkError(q, q.error(), e);
            return;
        }
        if (q.error() != null) {
            throw failure(q, "error with " + q.error(), String.join("\n", actual));
        }
        List<String> expected = new ArrayList<>(q.expected());
        if (q.sort() != SltRecord.SortMode.NOSORT) {
            expected.sort(null);
        }
        if (!expected.equals(actual)) {
            throw failure(q, String.join("\n", expected), String.join("\n", actual));
        }
    }

    private static List<String> rows(ResultSet rs, int columns, SltRecord.SortMode sort) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns; i++) {
                String value = render(rs.getString(i));
                if (sort == SltRecord.SortMode.VALUESORT) {
                    out.add(value);
                } else {
                    row.append(i > 1 ? " " : "").append(value);
                }
            }
            if (sort != SltRecord.SortMode.VALUESORT) {
                out.add(row.toString());
            }
        }
        if (sort != SltRecord.SortMode.NOSORT) {
            out.sort(null);
        }
        return out;
    }

    private static String render(String value) {
        if (value == null) {
            return "NULL";
        }
        return value.isEmpty() ? "(empty)" : value;
    }

    private void checkError(SltRecord record, SltError expected, SQLException e) {
        String mismatch = expected.mismatch(e);
        if (mismatch != null) {
            throw failure(record, "error with " + expected, mismatch);
        }
    }

    private AssertionError failure(SltRecord record, String expected, String actual) {
        return new AssertionError(file + ":" + record.line() + "\nSQL:\n" + record.sql() + "\nexpected:\n" + expected
                + "\nactual:\n" + actual);
    }
}
