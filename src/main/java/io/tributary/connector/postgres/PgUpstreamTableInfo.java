package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The upstream table as PostgreSQL's catalog describes it, and the check that a Tributary table
 * declared over it can be fed by change data capture. Immutable.
 *
 * @param columns the table's live columns in attribute order
 * @param primaryKey the primary-key column names in index order; empty when there is none
 * @param replicaIdentity {@code pg_class.relreplident}: d(efault), f(ull), i(ndex) or n(othing)
 */
record PgUpstreamTableInfo(List<Column> columns, List<String> primaryKey, char replicaIdentity) {
    /** @param typeName the type for casts, e.g. {@code character varying} */
    record Column(String name, int typeOid, String typeName) {}

    /**
     * Reads the table's description.
     *
     * @throws ConnectorException 42P01 when there is no such table, 42809 when it is not a plain table
     */
    static PgUpstreamTableInfo load(Connection connection, CdcOptions options) throws SQLException {
        String kindAndIdentity;
        long oid;
        try (PreparedStatement s = connection.prepareStatement("SELECT c.oid, c.relkind, c.relreplident FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            s.setString(1, options.schema());
            s.setString(2, options.table());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new ConnectorException(
                            SqlState.UNDEFINED_TABLE,
                            "postgres-cdc: table " + options.quotedTable() + " does not exist in database \""
                                    + options.database() + "\" at " + options.where());
                }
                oid = rs.getLong(1);
                kindAndIdentity = rs.getString(2) + rs.getString(3);
            }
        }
        if (kindAndIdentity.charAt(0) != 'r') {
            throw new ConnectorException(
                    SqlState.WRONG_OBJECT_TYPE,
                    "postgres-cdc: " + options.quotedTable()
                            + " is not a plain table (views, partitioned and foreign tables cannot be captured)");
        }
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT attname, atttypid, format_type(atttypid, NULL)"
                + " FROM pg_attribute WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    columns.add(new Column(rs.getString(1), rs.getInt(2), rs.getString(3)));
                }
            }
        }
        List<String> key = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT a.attname FROM pg_index i"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
                + " WHERE i.indrelid = ? AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)")) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    key.add(rs.getString(1));
                }
            }
        }
        return new PgUpstreamTableInfo(List.copyOf(columns), List.copyOf(key), kindAndIdentity.charAt(1));
    }

    /**
     * Checks that {@code context}'s table can be fed from this one: both have the same primary key
     * (by column names), every declared column exists upstream with a type that {@link TypeFit
     * fits}, and deletes carry the key (replica identity default or full).
     *
     * @throws ConnectorException naming the offending column or setting
     */
    void checkFeeds(SourceContext context, CdcOptions options) {
        String table = options.quotedTable();
        if (context.primaryKey().length == 0) {
            throw new ConnectorException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "postgres-cdc needs a primary key:"
                            + " declare table " + context.tableName() + " with PRIMARY KEY ("
                            + (primaryKey.isEmpty() ? "..." : String.join(", ", primaryKey)) + ")");
        }
        if (primaryKey.isEmpty()) {
            throw new ConnectorException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "postgres-cdc: upstream table " + table
                            + " has no primary key; change data capture needs one to apply updates and deletes");
        }
        Set<String> declaredKey = new HashSet<>();
        for (int i : context.primaryKey()) {
            declaredKey.add(context.columns().get(i).name());
        }
        if (!declaredKey.equals(new HashSet<>(primaryKey))) {
            throw new ConnectorException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "postgres-cdc: the primary key of "
                            + context.tableName() + " must be the upstream table's: PRIMARY KEY ("
                            + String.join(", ", primaryKey) + ")");
        }
        Map<String, Column> byName = new HashMap<>();
        for (Column c : columns) {
            byName.put(c.name(), c);
        }
        for (SourceColumn declared : context.columns()) {
            Column upstream = byName.get(declared.name());
            if (upstream == null) {
                throw new ConnectorException(
                        SqlState.UNDEFINED_COLUMN,
                        "postgres-cdc: upstream table " + table + " has no column \"" + declared.name()
                                + "\"; its columns are: " + columnNames());
            }
            if (!TypeFit.fits(declared.type(), upstream.typeOid())) {
                throw new ConnectorException(
                        SqlState.DATATYPE_MISMATCH,
                        "postgres-cdc: column \"" + declared.name() + "\" is declared "
                                + declared.type().sqlName() + " but upstream it is " + upstream.typeName());
            }
        }
        if (replicaIdentity != 'd' && replicaIdentity != 'f') {
            throw new ConnectorException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "postgres-cdc: upstream table " + table
                            + " must have REPLICA IDENTITY DEFAULT or FULL so that deletes carry the primary key");
        }
    }

    /** The upstream column named {@code name}; it exists once {@link #checkFeeds} passed. */
    Column column(String name) {
        for (Column c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException(name);
    }

    private String columnNames() {
        List<String> names = new ArrayList<>();
        for (Column c : columns) {
            names.add(c.name());
        }
        return String.join(", ", names);
    }
}
