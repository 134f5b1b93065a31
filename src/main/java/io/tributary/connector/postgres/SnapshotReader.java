package io.tributary.connector.postgres;

import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the upstream table in primary-key order, a chunk per call, inside one REPEATABLE READ
 * transaction (so every chunk sees the same snapshot), continuing after a given key. Keys travel as
 * their text forms and are cast back to the upstream key types in the query, so the comparison is
 * PostgreSQL's own. Used by one reader thread; owns its connection.
 */
final class SnapshotReader implements AutoCloseable {
    private final Connection connection;
    private final String firstChunk;
    private final String nextChunk;
    /** The declared column of each upstream key column, in the key's order. */
    private final int[] keyColumns;

    private final ColumnParser parser;
    private List<String> lastKey;

    /**
     * @param connection a connection inside a REPEATABLE READ transaction that has not read yet
     *     (possibly with an imported snapshot); closed by {@link #close}
     * @param lastKey the key to continue after, or null to start at the beginning
     */
    SnapshotReader(
            Connection connection,
            CdcOptions options,
            PgUpstreamTableInfo upstream,
            List<SourceColumn> columns,
            List<String> lastKey) {
        this.connection = connection;
        this.parser = new ColumnParser(columns, options.quotedTable());
        this.lastKey = lastKey;
        List<String> select = new ArrayList<>();
        for (SourceColumn c : columns) {
            // aliased: an output column named like a key column would make ORDER BY sort its text
            select.add(CdcOptions.quote(c.name()) + "::text AS c" + select.size());
        }
        keyColumns = new int[upstream.primaryKey().size()];
        List<String> key = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (int k = 0; k < keyColumns.length; k++) {
            String name = upstream.primaryKey().get(k);
            keyColumns[k] = indexOf(columns, name);
            key.add(CdcOptions.quote(name));
            params.add("?::" + upstream.column(name).typeName());
        }
        String from = "SELECT " + String.join(", ", select) + " FROM " + options.quotedTable();
        String order = " ORDER BY " + String.join(", ", key) + " LIMIT ?";
        firstChunk = from + order;
        nextChunk = from + " WHERE (" + String.join(", ", key) + ") > (" + String.join(", ", params) + ")" + order;
    }

    /**
     * Opens a connection in a REPEATABLE READ transaction; with {@code exportedSnapshot} it sees
     * exactly that snapshot, else a new one taken at its first read.
     */
    static Connection beginTransaction(Connection connection, String exportedSnapshot) throws SQLException {
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        connection.setAutoCommit(false);
        if (exportedSnapshot != null) {
            try (PreparedStatement s = connection.prepareStatement(
                    "SET TRANSACTION SNAPSHOT '" + exportedSnapshot.replace("'", "''") + "'")) {
                s.execute();
            }
        }
        return connection;
    }

    /** The next at most {@code limit} rows as inserts; empty once the table is read to its end. */
    List<SourceChange> next(int limit) throws SQLException {
        List<SourceChange> rows = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement(lastKey == null ? firstChunk : nextChunk)) {
            int p = 1;
            if (lastKey != null) {
                for (String value : lastKey) {
                    s.setString(p++, value);
                }
            }
            s.setInt(p, limit);
            String[] texts = null;
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    texts = new String[parser.width()];
                    Object[] row = new Object[texts.length];
                    for (int j = 0; j < texts.length; j++) {
                        texts[j] = rs.getString(j + 1);
                        row[j] = parser.parse(j, texts[j]);
                    }
                    rows.add(SourceChange.insert(row));
                }
            }
            if (texts != null) {
                List<String> key = new ArrayList<>(keyColumns.length);
                for (int j : keyColumns) {
                    key.add(texts[j]);
                }
                lastKey = List.copyOf(key);
            }
        }
        return rows;
    }

    /** The key of the last row returned, or the key this reader started after. */
    List<String> lastKey() {
        return lastKey;
    }

    /** Ends the transaction and closes the connection; errors are irrelevant by then. */
    @Override
    public void close() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // the connection may be broken already; closing it below ends the transaction anyway
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // nothing more to release
        }
    }

    private static int indexOf(List<SourceColumn> columns, String name) {
        for (int j = 0; j < columns.size(); j++) {
            if (columns.get(j).name().equals(name)) {
                return j;
            }
        }
        throw new IllegalArgumentException("key column " + name + " is not declared");
    }
}
