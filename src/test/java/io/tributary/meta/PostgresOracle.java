package io.tributary.meta;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The embedded PostgreSQL a state-cleaning or crash test compares a served Tributary with: a test
 * class registers it as a static field with {@code @RegisterExtension}, JUnit starts it before the
 * class's tests and stops it after them. The test creates the tables, loads them with the rows
 * Tributary kept ({@link #replaceRows}) and reads PostgreSQL's answer ({@link #rows}); all from the
 * test thread.
 */
public final class PostgresOracle implements BeforeAllCallback, AfterAllCallback {
    /** Rows per INSERT when loading a table, so a statement stays a few hundred kilobytes. */
    private static final int ROWS_PER_INSERT = 1_000;

    private EmbeddedPostgres postgres;
    private Connection connection;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        connection = postgres.getPostgresDatabase().getConnection();
        connection.setAutoCommit(true);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (connection != null) {
                connection.close();
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    /** Runs {@code sql} (DDL or DML) in PostgreSQL. */
    public void execute(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    /** PostgreSQL's rows of {@code sql}, as {@link ServedDatabase#rows} gives Tributary's, so they compare. */
    public List<String> rows(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            return ServedDatabase.rows(st, sql);
        }
    }

    /**
     * Empties {@code table} and inserts {@code rows}, each as {@link ServedDatabase#rows} reads them
     * from Tributary ({@code a|b|c}, {@code null} for NULL): every other field goes in as a quoted
     * literal, which PostgreSQL converts to its column's type, so the table holds Tributary's rows.
     */
    public void replaceRows(String table, List<String> rows) throws SQLException {
        execute("TRUNCATE " + table);
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            StringJoiner insert = new StringJoiner(", ", "INSERT INTO " + table + " VALUES ", "");
            for (String row : rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT))) {
                StringJoiner values = new StringJoiner(", ", "(", ")");
                for (String field : row.split("\\|", -1)) {
                    values.add(field.equals("null") ? "NULL" : "'" + field.replace("'", "''") + "'");
                }
                insert.add(values.toString());
            }
            execute(insert.toString());
        }
    }
}
