package io.tributary.meta.sink;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.TypeKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Everything a sink says to its target PostgreSQL: checking and creating the target table, the
 * status tables, the per-sink key marker table, and the statements of a delivery transaction
 * (staging by COPY, one merge, status rows). Holds no connection: each delivery thread passes its
 * own. Immutable; any thread.
 *
 * <p>Every delivery transaction first takes a transaction-scoped advisory lock keyed by the sink
 * id, so the head's and the backfill's transactions on one sink run one after the other; that is
 * what makes the backfill's "is this key newer in the target" check (the marker table) exact.
 */
final class TargetTable {
    /** The advisory lock space of sinks ("TRIB"); the second key is the sink id. */
    private static final int LOCK_SPACE = 0x54524942;

    static final String STAGE = "tributary_stage";

    private final SinkDef.Target target;
    private final int sinkId;
    private final String sinkName;
    /** The relation's visible columns, in order: what the target holds. */
    private final List<String> columns;

    private final int[] columnIndexes;
    private final List<String> key;
    private final String table;
    private final String markers;

    TargetTable(SinkDef sink, TableDef relation) {
        this.target = sink.target();
        this.sinkId = sink.id();
        this.sinkName = sink.name();
        List<String> names = new ArrayList<>();
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < relation.columns().size(); i++) {
            if (!relation.columns().get(i).hidden()) {
                names.add(relation.columns().get(i).name());
                idx.add(i);
            }
        }
        this.columns = names;
        this.columnIndexes = idx.stream().mapToInt(Integer::intValue).toArray();
        this.key = target.primaryKey();
        this.table = quote(target.schema()) + "." + quote(target.table());
        this.markers = quote(target.schema()) + "." + quote("tributary_sink_keys_" + sink.name());
    }

    /** The relation's column indexes the target holds, in target column order. */
    int[] columnIndexes() {
        return columnIndexes;
    }

    /** The relation's column indexes of the upsert key, in key order. */
    int[] keyIndexes(TableDef relation) {
        int[] out = new int[key.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = relation.columnIndex(key.get(i));
        }
        return out;
    }

    boolean upsert() {
        return target.upsert();
    }

    String alias() {
        return target.backfillAlias();
    }

    String processor() {
        return sinkName;
    }

    /**
     * Connects to the target, autocommit off.
     *
     * @throws TributaryException 08001 when it cannot be reached, PostgreSQL's own state (e.g.
     *     28P01, 3D000) when it refuses the login
     */
    static Connection connect(SinkDef.Target target) {
        Properties props = new Properties();
        if (target.user() != null) {
            props.setProperty("user", target.user());
        }
        if (target.password() != null) {
            props.setProperty("password", target.password());
        }
        props.setProperty("connectTimeout", "10");
        props.setProperty("tcpKeepAlive", "true");
        props.setProperty("ApplicationName", "tributary-sink");
        try {
            Connection c = DriverManager.getConnection(target.jdbcUrl(), props);
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            String state = e.getSQLState();
            if (state != null && (state.startsWith("28") || state.startsWith("3D"))) {
                throw new TributaryException(state, "sink target refused the connection: " + e.getMessage(), e);
            }
            throw new TributaryException(
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                    "could not connect to the sink target " + target.jdbcUrl() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Checks the target table against the relation (creating it first when it is missing and
     * {@code create} is set), then creates the status tables and the marker table when missing.
     * Called at CREATE SINK, before anything is stored.
     *
     * @throws TributaryException 42P01 for a missing table, 42804 naming a column the target
     *     lacks or types differently, 42P10 for an upsert key no unique index of the target matches
     */
    void prepare(Connection c, TableDef relation, boolean create) throws SQLException {
        Map<String, String> types = columnTypes(c);
        if (types.isEmpty()) {
            if (!create) {
                throw new TributaryException(
                        SqlState.UNDEFINED_TABLE,
                        "sink target table " + target.schema() + "." + target.table() + " does not exist; create it, "
                                + "or set create_table_if_not_exists = 'true'");
            }
            createTable(c, relation);
            types = columnTypes(c);
        }
        for (int i : columnIndexes) {
            ColumnDef col = relation.columns().get(i);
            String have = types.get(col.name());
            if (have == null) {
                throw new TributaryException(
                        SqlState.DATATYPE_MISMATCH,
                        "column \"" + col.name() + "\" of \"" + relation.name() + "\" is missing in sink target table "
                                + target.schema() + "." + target.table());
            }
            if (!compatible(col.type().kind(), have)) {
                throw new TributaryException(
                        SqlState.DATATYPE_MISMATCH,
                        "column \"" + col.name() + "\" is " + col.type().sqlName() + " in \"" + relation.name()
                                + "\" but " + have + " in sink target table " + target.schema() + "."
                                + target.table());
            }
        }
        if (target.upsert() && !hasUniqueKey(c)) {
            throw new TributaryException(
                    SqlState.INVALID_COLUMN_REFERENCE,
                    "sink target table " + target.schema() + "." + target.table()
                            + " has no primary key or unique index on (" + String.join(", ", key)
                            + "), which an upsert sink needs");
        }
        try (Statement s = c.createStatement()) {
            String schema = quote(target.schema());
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".processor_status ("
                    + "processor VARCHAR(100) PRIMARY KEY, last_success_version BIGINT NOT NULL, "
                    + "last_updated TIMESTAMP NOT NULL DEFAULT NOW(), last_transaction_timestamp TIMESTAMP NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".backfill_processor_status ("
                    + "backfill_alias VARCHAR(100) PRIMARY KEY, backfill_status VARCHAR(50) NOT NULL, "
                    + "last_success_version BIGINT NOT NULL, last_updated TIMESTAMP NOT NULL DEFAULT NOW(), "
                    + "last_transaction_timestamp TIMESTAMP NULL, backfill_start_version BIGINT NOT NULL, "
                    + "backfill_end_version BIGINT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".tributary_backfill_position ("
                    + "backfill_alias VARCHAR(100) PRIMARY KEY, snapshot_version BIGINT NOT NULL, "
                    + "vnode INT NOT NULL, last_key BYTEA NULL)");
            if (target.upsert()) {
                Map<String, String> formatted = formattedTypes(c);
                StringBuilder ddl = new StringBuilder("CREATE TABLE IF NOT EXISTS " + markers + " (");
                for (String k : key) {
                    ddl.append(quote(k)).append(' ').append(formatted.get(k)).append(", ");
                }
                ddl.append("version BIGINT NOT NULL, PRIMARY KEY (")
                        .append(quotedList(key))
                        .append("))");
                s.execute(ddl.toString());
            }
        }
        c.commit();
    }

    /** Drops the marker table, e.g. when the sink is dropped; the target table and status rows stay. */
    void dropMarkers(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + markers);
        }
        c.commit();
    }

    private void createTable(Connection c, TableDef relation) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (");
        for (int n = 0; n < columnIndexes.length; n++) {
            ColumnDef col = relation.columns().get(columnIndexes[n]);
            ddl.append(n == 0 ? "" : ", ")
                    .append(quote(col.name()))
                    .append(' ')
                    .append(col.type().sqlName());
            if (col.notNull()) {
                ddl.append(" NOT NULL");
            }
        }
        if (!key.isEmpty()) {
            ddl.append(", PRIMARY KEY (").append(quotedList(key)).append(')');
        }
        try (Statement s = c.createStatement()) {
            s.execute(ddl.append(')').toString());
        }
    }

    /** Column name to information_schema data_type; empty when the table does not exist. */
    private Map<String, String> columnTypes(Connection c) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
                + "WHERE table_schema = ? AND table_name = ?")) {
            ps.setString(1, target.schema());
            ps.setString(2, target.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        c.commit();
        return out;
    }

    /** Column name to its type as format_type prints it, for tables that copy the target's types. */
    private Map<String, String> formattedTypes(Connection c) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT attname, format_type(atttypid, atttypmod) "
                + "FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    private boolean hasUniqueKey(Connection c) throws SQLException {
        TreeSet<String> wanted = new TreeSet<>(key);
        try (PreparedStatement ps = c.prepareStatement("SELECT i.indexrelid, a.attname FROM pg_index i "
                + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) "
                + "WHERE i.indrelid = ?::regclass AND i.indisunique AND i.indpred IS NULL")) {
            ps.setString(1, table);
            Map<Long, TreeSet<String>> byIndex = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byIndex.computeIfAbsent(rs.getLong(1), k -> new TreeSet<>()).add(rs.getString(2));
                }
            }
            return byIndex.containsValue(wanted);
        }
    }

    private static boolean compatible(TypeKind kind, String targetType) {
        String t = targetType.toLowerCase(Locale.ROOT);
        if (kind.isString()) {
            return t.equals("text") || t.equals("character varying");
        }
        return t.equals(kind.pgName());
    }

    // ---- delivery transactions ----

    /**
     * Makes this connection's staging table: a temporary table with the target's columns (without
     * their constraints) and the change's operation, emptied at every commit.
     */
    void openSession(Connection c) throws SQLException {
        openSession(c, false);
    }

    /**
     * Like {@link #openSession(Connection)}; with {@code withKeys} the staging table also has the
     * column {@code tributary_pk bytea}, which a worker's snapshot pieces carry (see {@link
     * SnapshotChunk}) and the merges ignore.
     */
    void openSession(Connection c, boolean withKeys) throws SQLException {
        Map<String, String> formatted = formattedTypes(c);
        StringBuilder ddl = new StringBuilder("CREATE TEMP TABLE IF NOT EXISTS " + STAGE + " (");
        for (String col : columns) {
            ddl.append(quote(col)).append(' ').append(formatted.get(col)).append(", ");
        }
        ddl.append("tributary_op \"char\" NOT NULL")
                .append(withKeys ? ", tributary_pk bytea" : "")
                .append(") ON COMMIT DELETE ROWS");
        try (Statement s = c.createStatement()) {
            s.execute(ddl.toString());
        }
        c.commit();
    }

    /** Starts a delivery transaction: waits for the sink's other delivery thread to commit or roll back. */
    void lock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
            ps.setInt(1, LOCK_SPACE);
            ps.setInt(2, sinkId);
            ps.execute();
        }
    }

    /**
     * Starts a chunk transaction of a backfill copied in parallel key ranges: takes the sink's
     * advisory lock shared, so the ranges' chunks run side by side while the head's transactions
     * (which take it exclusively, {@link #lock}) still run alone, between them.
     */
    void lockShared(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock_shared(?, ?)")) {
            ps.setInt(1, LOCK_SPACE);
            ps.setInt(2, sinkId);
            ps.execute();
        }
    }

    /**
     * The ranged position of the backfill of {@code snapshotVersion}, its row locked until the
     * transaction ends, so the ranges' chunk transactions rewrite it one after another; null when
     * the target holds no ranged position of that snapshot.
     */
    RangedPosition rangedPositionForUpdate(Connection c, long snapshotVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT snapshot_version, vnode, last_key FROM "
                + quote(target.schema()) + ".tributary_backfill_position WHERE backfill_alias = ? FOR UPDATE")) {
            ps.setString(1, target.backfillAlias());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getLong(1) != snapshotVersion || rs.getInt(2) != RangedPosition.RANGED) {
                    return null;
                }
                return RangedPosition.decode(rs.getBytes(3));
            }
        }
    }

    /** COPYs a complete staged body (target columns, the operation last) into the staging table. */
    void copyIn(Connection c, CopyBody body) throws SQLException {
        try {
            c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn(
                            "COPY " + STAGE + " (" + quotedList(columns) + ", tributary_op) FROM STDIN"
                                    + body.options(),
                            new ByteArrayInputStream(body.bytes()));
        } catch (IOException e) {
            throw new SQLException("COPY to the sink target failed: " + e.getMessage(), "08006", e);
        }
    }

    /**
     * COPYs a worker's snapshot pieces (target columns, operation, primary key) into the staging
     * table: COPY text, or a complete binary COPY body when {@code binary}.
     */
    void copyInWithKeys(Connection c, byte[] data, boolean binary) throws SQLException {
        try {
            c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn(
                            "COPY " + STAGE + " (" + quotedList(columns) + ", tributary_op, tributary_pk) FROM STDIN"
                                    + (binary ? " (FORMAT binary)" : ""),
                            new ByteArrayInputStream(data));
        } catch (IOException e) {
            throw new SQLException("COPY to the sink target failed: " + e.getMessage(), "08006", e);
        }
    }

    /**
     * Starts a COPY straight into the target table (no staging, no merge), for snapshot rows whose
     * keys the target cannot hold yet; the caller writes a body of {@code format} (target columns,
     * no operation) to it in pieces (so the target ingests one piece while the next is encoded)
     * and ends it. Ending it fails with 23505 when the target held one of the keys.
     */
    CopyIn copyDirect(Connection c, CopyBody format) throws SQLException {
        return c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " (" + quotedList(columns) + ") FROM STDIN" + format.options());
    }

    /**
     * The head's merge of the staged net changes: deletes, then upserts ('D' and 'U' rows); for an
     * append-only sink, inserts the 'I' rows. With {@code markVersion} > 0 (a backfill is running)
     * it also records each staged key as written by the head at that version. A statement with
     * nothing to do is not sent ({@code deletes}, {@code upserts}: whether any are staged).
     */
    void mergeHead(Connection c, long markVersion, boolean deletes, boolean upserts) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!target.upsert()) {
                s.execute("INSERT INTO " + table + " (" + quotedList(columns) + ") SELECT " + quotedList(columns)
                        + " FROM " + STAGE);
                return;
            }
            if (deletes) {
                s.execute("DELETE FROM " + table + " t USING " + STAGE + " s WHERE s.tributary_op = 'D' AND "
                        + keyMatch("t", "s"));
            }
            if (upserts) {
                s.execute("INSERT INTO " + table + " (" + quotedList(columns) + ") SELECT " + quotedList(columns)
                        + " FROM " + STAGE + " WHERE tributary_op = 'U'" + onConflictUpdate());
            }
            if (markVersion > 0) {
                s.execute("INSERT INTO " + markers + " (" + quotedList(key) + ", version) SELECT " + quotedList(key)
                        + ", " + markVersion + " FROM " + STAGE + " ON CONFLICT (" + quotedList(key)
                        + ") DO UPDATE SET version = GREATEST(" + markers + ".version, EXCLUDED.version)");
            }
        }
    }

    /**
     * A backfill chunk's merge of the staged snapshot rows of {@code snapshotVersion}: a row is
     * written unless the head has written its key at a later version (the marker table); with
     * {@code resync}, each key is also marked as seen in this snapshot, so rows that vanished can
     * be removed at the end ({@link #removeVanished}).
     */
    void mergeSnapshot(Connection c, long snapshotVersion, boolean resync) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!target.upsert()) {
                s.execute("INSERT INTO " + table + " (" + quotedList(columns) + ") SELECT " + quotedList(columns)
                        + " FROM " + STAGE);
                return;
            }
            s.execute("INSERT INTO " + table + " (" + quotedList(columns) + ") SELECT " + quotedList(columns)
                    + " FROM " + STAGE + " s WHERE NOT EXISTS (SELECT 1 FROM " + markers + " m WHERE "
                    + keyMatch("m", "s") + " AND m.version > " + snapshotVersion + ")" + onConflictUpdate());
            if (resync) {
                s.execute("INSERT INTO " + markers + " (" + quotedList(key) + ", version) SELECT " + quotedList(key)
                        + ", " + snapshotVersion + " FROM " + STAGE + " ON CONFLICT (" + quotedList(key)
                        + ") DO UPDATE SET version = GREATEST(" + markers + ".version, EXCLUDED.version)");
            }
        }
    }

    /**
     * At the end of a RESYNC: removes target rows that neither the snapshot of {@code
     * snapshotVersion} held nor the head wrote since, then forgets the markers.
     */
    void removeVanished(Connection c, long snapshotVersion) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table + " t WHERE NOT EXISTS (SELECT 1 FROM " + markers + " m WHERE "
                    + keyMatch("m", "t") + " AND m.version >= " + snapshotVersion + ")");
        }
    }

    /** Forgets every key marker: once no backfill runs, the head alone decides every row. */
    void clearMarkers(Connection c) throws SQLException {
        if (target.upsert()) {
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM " + markers);
            }
        }
    }

    /**
     * Advances {@code processor_status} of this sink to {@code version}, monotonically.
     *
     * @return false when the target already holds {@code version} or later: the transaction
     *     repeats delivered changes and must be rolled back
     */
    boolean advanceHead(Connection c, long version, long commitMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + quote(target.schema())
                + ".processor_status AS p (processor, last_success_version, last_updated, "
                + "last_transaction_timestamp) VALUES (?, ?, NOW(), to_timestamp(?::float8 / 1000) AT TIME ZONE 'UTC') "
                + "ON CONFLICT (processor) DO UPDATE SET last_success_version = EXCLUDED.last_success_version, "
                + "last_updated = NOW(), last_transaction_timestamp = EXCLUDED.last_transaction_timestamp "
                + "WHERE p.last_success_version < EXCLUDED.last_success_version")) {
            ps.setString(1, sinkName);
            ps.setLong(2, version);
            ps.setLong(3, commitMillis);
            return ps.executeUpdate() == 1;
        }
    }

    /** The head's last delivered version, or -1 when the target has no row for this sink. */
    long headVersion(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT last_success_version FROM " + quote(target.schema())
                + ".processor_status WHERE processor = ?")) {
            ps.setString(1, sinkName);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    /** The backfill's state in the target: status row and resume position. */
    record BackfillState(String status, long startVersion, int vnode, byte[] lastKey) {
        /**
         * Whether {@code a} and {@code b} (either may be null: no state yet) are the same position:
         * the fence of every backfill transaction, local or remote, so that an attempt that is no
         * longer the only one writes nothing over what another committed.
         */
        static boolean same(BackfillState a, BackfillState b) {
            if (a == null || b == null) {
                return a == null && b == null;
            }
            return a.status.equals(b.status)
                    && a.startVersion == b.startVersion
                    && a.vnode == b.vnode
                    && java.util.Arrays.equals(a.lastKey, b.lastKey);
        }
    }

    /** The state of this sink's backfill alias, or null when the target has none. */
    BackfillState backfillState(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT b.backfill_status, b.backfill_start_version, p.vnode, "
                + "p.last_key, p.snapshot_version FROM " + quote(target.schema()) + ".backfill_processor_status b "
                + "LEFT JOIN " + quote(target.schema()) + ".tributary_backfill_position p "
                + "ON p.backfill_alias = b.backfill_alias WHERE b.backfill_alias = ?")) {
            ps.setString(1, target.backfillAlias());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long start = rs.getLong(2);
                boolean positioned = rs.getObject(3) != null && rs.getLong(5) == start;
                return new BackfillState(
                        rs.getString(1), start, positioned ? rs.getInt(3) : 0, positioned ? rs.getBytes(4) : null);
            }
        }
    }

    /**
     * Records the backfill's progress in the same transaction as its rows: {@code in_progress}
     * with the resume position, or {@code complete}. Versions: start = end = the snapshot's epoch;
     * last_success_version is the epoch before it while in progress and the epoch when complete.
     */
    void saveBackfill(Connection c, long snapshotVersion, boolean complete, int vnode, byte[] lastKey)
            throws SQLException {
        String schema = quote(target.schema());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".backfill_processor_status AS b "
                + "(backfill_alias, backfill_status, last_success_version, last_updated, last_transaction_timestamp, "
                + "backfill_start_version, backfill_end_version) VALUES (?, ?, ?, NOW(), "
                + "to_timestamp(?::float8 / 1000) AT TIME ZONE 'UTC', ?, ?) ON CONFLICT (backfill_alias) DO UPDATE SET "
                + "backfill_status = EXCLUDED.backfill_status, last_success_version = EXCLUDED.last_success_version, "
                + "last_updated = NOW(), last_transaction_timestamp = EXCLUDED.last_transaction_timestamp, "
                + "backfill_start_version = EXCLUDED.backfill_start_version, "
                + "backfill_end_version = EXCLUDED.backfill_end_version")) {
            ps.setString(1, target.backfillAlias());
            ps.setString(2, complete ? "complete" : "in_progress");
            ps.setLong(3, complete ? snapshotVersion : snapshotVersion - 1);
            ps.setLong(4, io.tributary.common.Epoch.millis(snapshotVersion));
            ps.setLong(5, snapshotVersion);
            ps.setLong(6, snapshotVersion);
            ps.executeUpdate();
        }
        if (complete) {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM " + schema + ".tributary_backfill_position WHERE backfill_alias = ?")) {
                ps.setString(1, target.backfillAlias());
                ps.executeUpdate();
            }
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".tributary_backfill_position "
                + "(backfill_alias, snapshot_version, vnode, last_key) VALUES (?, ?, ?, ?) ON CONFLICT (backfill_alias) "
                + "DO UPDATE SET snapshot_version = EXCLUDED.snapshot_version, vnode = EXCLUDED.vnode, "
                + "last_key = EXCLUDED.last_key")) {
            ps.setString(1, target.backfillAlias());
            ps.setLong(2, snapshotVersion);
            ps.setInt(3, vnode);
            ps.setBytes(4, lastKey);
            ps.executeUpdate();
        }
    }

    private String onConflictUpdate() {
        List<String> rest = new ArrayList<>();
        for (String col : columns) {
            if (!key.contains(col)) {
                rest.add(quote(col) + " = EXCLUDED." + quote(col));
            }
        }
        return " ON CONFLICT (" + quotedList(key) + ") DO "
                + (rest.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", rest));
    }

    private String keyMatch(String a, String b) {
        List<String> parts = new ArrayList<>();
        for (String k : key) {
            parts.add(a + "." + quote(k) + " = " + b + "." + quote(k));
        }
        return String.join(" AND ", parts);
    }

    private static String quotedList(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(quote(n));
        }
        return String.join(", ", out);
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
