package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * pgjdbc against a real in-process server backed by the real engine: prepared statements (server-prepared, binary
 * transfer), batches, cursor streaming, cancel, SQLSTATEs and concurrent group commit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JdbcEngineTest {
    private static Path dataDir;
    private static Database db;
    private static PgServer server;

    @BeforeAll
    static void start() throws IOException {
        dataDir = Files.createTempDirectory("jdbc-engine-");
        db = Database.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (db != null) {
                db.close();
            }
            deleteRecursively(dataDir);
        }
    }

    static Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "30");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static long queryLong(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            long v = rs.getLong(1);
            assertFalse(rs.next(), sql);
            return v;
        }
    }

    private static String sqlState(Connection c, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> exec(c, sql), sql);
        return e.getSQLState();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    // ---------------------------------------------------------------- 1. every type through PreparedStatement

    private static final int TYPED_ROWS = 12;
    private static final int NULL_ROW = 7;

    /** The values of row {@code id} (ids 1..TYPED_ROWS; NULL_ROW is all NULL except the key). */
    record TypedRow(
            long id,
            boolean b,
            short sm,
            int i,
            long l,
            float r,
            double d,
            BigDecimal n,
            String vc,
            String t,
            LocalDate dt,
            LocalTime tm,
            LocalDateTime ts,
            OffsetDateTime tz,
            byte[] by) {
        static TypedRow of(int id) {
            return new TypedRow(
                    id,
                    id % 2 == 0,
                    (short) (id == 1 ? Short.MIN_VALUE : id == 2 ? Short.MAX_VALUE : -id * 3),
                    id == 1 ? Integer.MIN_VALUE : id == 2 ? Integer.MAX_VALUE : id * 1_000_003,
                    id == 1 ? Long.MIN_VALUE : id == 2 ? Long.MAX_VALUE : id * 10_000_000_019L,
                    id == 3 ? Float.MAX_VALUE : id * 1.25f - 0.1f,
                    id == 3 ? Double.MIN_VALUE : id * -2.5e100 + 0.3,
                    new BigDecimal(id == 1 ? "-99999999.99" : id == 2 ? "99999999.99" : (id * 111) + "." + (10 + id)),
                    "vc-" + id + (id == 4 ? " 'quoted' ünï€" : ""),
                    "text " + id + (id == 5 ? "\nline\ttab\\back\"dq" : ""),
                    LocalDate.of(1990 + id, id, 28 - id),
                    LocalTime.of(id, 2 * id, 3 * id, id * 1_000_000), // milliseconds: java.sql.Time has no micros
                    LocalDateTime.of(2000 + id, id, id, id, id, id, id * 1_001_000), // microseconds
                    OffsetDateTime.of(2020, id, id, id, 30, 15, id * 123_000, ZoneOffset.ofHours(id - 6)),
                    id == 6 ? new byte[0] : new byte[] {0, (byte) id, (byte) 0xff, (byte) 0x80, 0x5c, 0x27});
        }
    }

    private static void createTypedTable(Connection c, String name) throws SQLException {
        exec(
                c,
                "CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, b BOOLEAN, sm SMALLINT, i INT, l BIGINT, r REAL,"
                        + " d DOUBLE PRECISION, n NUMERIC(10,2), vc VARCHAR(40), t TEXT, dt DATE, tm TIME, ts TIMESTAMP,"
                        + " tz TIMESTAMPTZ, bin BYTEA)");
    }

    /**
     * Inserts rows 1..TYPED_ROWS with typed setters. {@code typedTemporals}: DATE/TIME/TIMESTAMP/TIMESTAMPTZ through
     * setDate/setTime/setTimestamp/setObject(OffsetDateTime); otherwise through setString with PostgreSQL's
     * text format.
     */
    private static void insertTypedRows(Connection c, String table, boolean typedTemporals) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                + " (id, b, sm, i, l, r, d, n, vc, t, dt, tm, ts, tz, bin) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            for (int id = 1; id <= TYPED_ROWS; id++) {
                TypedRow v = TypedRow.of(id);
                ps.setLong(1, id);
                if (id == NULL_ROW) {
                    ps.setNull(2, Types.BOOLEAN);
                    ps.setNull(3, Types.SMALLINT);
                    ps.setNull(4, Types.INTEGER);
                    ps.setNull(5, Types.BIGINT);
                    ps.setNull(6, Types.REAL);
                    ps.setNull(7, Types.DOUBLE);
                    ps.setNull(8, Types.NUMERIC);
                    ps.setNull(9, Types.VARCHAR);
                    ps.setNull(10, Types.VARCHAR);
                    ps.setNull(11, Types.DATE);
                    ps.setNull(12, Types.TIME);
                    ps.setNull(13, Types.TIMESTAMP);
                    ps.setNull(14, Types.TIMESTAMP_WITH_TIMEZONE);
                    ps.setNull(15, Types.BINARY);
                } else {
                    ps.setBoolean(2, v.b());
                    ps.setShort(3, v.sm());
                    ps.setInt(4, v.i());
                    ps.setLong(5, v.l());
                    ps.setFloat(6, v.r());
                    ps.setDouble(7, v.d());
                    ps.setBigDecimal(8, v.n());
                    ps.setString(9, v.vc());
                    ps.setString(10, v.t());
                    if (typedTemporals) {
                        ps.setDate(11, Date.valueOf(v.dt()));
                        ps.setTime(
                                12,
                                new Time(Time.valueOf(v.tm().withNano(0)).getTime() + v.tm().getNano() / 1_000_000));
                        ps.setTimestamp(13, Timestamp.valueOf(v.ts()));
                        ps.setObject(14, v.tz());
                    } else {
                        ps.setString(11, v.dt().toString());
                        ps.setString(12, v.tm().toString());
                        ps.setString(13, v.ts().toString().replace('T', ' '));
                        ps.setString(14, v.tz().toLocalDateTime().toString().replace('T', ' ') + v.tz().getOffset());
                    }
                    ps.setBytes(15, v.by());
                }
                assertEquals(1, ps.executeUpdate(), "row " + id);
            }
        }
    }

    private static void checkTypedRow(ResultSet rs, int id) throws SQLException {
        TypedRow v = TypedRow.of(id);
        String row = "row " + id + ": ";
        assertEquals(id, rs.getLong("id"));
        if (id == NULL_ROW) {
            for (int col = 2; col <= 15; col++) {
                assertNull(rs.getObject(col), row + "column " + col);
            }
            assertFalse(rs.getBoolean("b"));
            assertTrue(rs.wasNull());
            assertEquals(0, rs.getInt("i"));
            assertTrue(rs.wasNull());
            return;
        }
        assertEquals(v.b(), rs.getBoolean("b"), row + "b");
        assertEquals(v.sm(), rs.getShort("sm"), row + "sm");
        assertEquals(v.i(), rs.getInt("i"), row + "i");
        assertEquals(v.l(), rs.getLong("l"), row + "l");
        assertEquals(v.r(), rs.getFloat("r"), row + "r");
        assertEquals(v.d(), rs.getDouble("d"), row + "d");
        assertEquals(v.n(), rs.getBigDecimal("n"), row + "n");
        assertEquals(v.vc(), rs.getString("vc"), row + "vc");
        assertEquals(v.t(), rs.getString("t"), row + "t");
        assertEquals(Date.valueOf(v.dt()), rs.getDate("dt"), row + "dt");
        assertEquals(v.dt(), rs.getObject("dt", LocalDate.class), row + "dt");
        assertEquals(v.tm(), rs.getObject("tm", LocalTime.class), row + "tm");
        assertEquals(v.tm().withNano(0), rs.getTime("tm").toLocalTime(), row + "tm");
        LocalDateTime expectedTs = v.ts();
        assertEquals(expectedTs, rs.getObject("ts", LocalDateTime.class), row + "ts");
        assertEquals(Timestamp.valueOf(expectedTs), rs.getTimestamp("ts"), row + "ts");
        OffsetDateTime expectedTz = v.tz();
        OffsetDateTime tz = rs.getObject("tz", OffsetDateTime.class);
        assertNotNull(tz, row + "tz");
        assertEquals(expectedTz.toInstant(), tz.toInstant(), row + "tz");
        assertEquals(expectedTz.toInstant(), rs.getTimestamp("tz").toInstant(), row + "tz");
        assertArrayEquals(v.by(), rs.getBytes("bin"), row + "bin");
    }

    @Test
    void everyTypeRoundTripsThroughServerPreparedBinaryStatements() throws Exception {
        try (Connection c = connect()) {
            createTypedTable(c, "typed");
            insertTypedRows(c, "typed", false);
            assertEquals(TYPED_ROWS, queryLong(c, "SELECT count(*) FROM typed"));

            // Simple-protocol/text read (first executions of an unnamed statement use text results).
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT * FROM typed ORDER BY id")) {
                for (int id = 1; id <= TYPED_ROWS; id++) {
                    assertTrue(rs.next());
                    checkTypedRow(rs, id);
                }
                assertFalse(rs.next());
            }

            // Server-prepared, binary results: pgjdbc switches after prepareThreshold (5) executions.
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM typed WHERE id = ?")) {
                for (int round = 0; round < 3; round++) {
                    for (int id = 1; id <= TYPED_ROWS; id++) {
                        ps.setLong(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next(), "row " + id);
                            checkTypedRow(rs, id);
                            assertFalse(rs.next());
                        }
                    }
                }
                assertTrue(
                        ps.unwrap(org.postgresql.PGStatement.class).isUseServerPrepare(),
                        "pgjdbc should have switched to a server-prepared statement");
            }
        }
    }

    /** Parameters passed in binary from the start: pgjdbc with prepareThreshold=-1 (always server-prepared, binary). */
    @Test
    void everyTypeRoundTripsWithForcedBinaryTransfer() throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("prepareThreshold", "-1");
        props.setProperty(
                "binaryTransferEnable",
                "BOOL,INT2,INT4,INT8,FLOAT4,FLOAT8,NUMERIC,DATE,TIME,TIMESTAMP," + "TIMESTAMPTZ,BYTEA");
        try (Connection c =
                DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props)) {
            createTypedTable(c, "typed_bin");
            insertTypedRows(c, "typed_bin", false);
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM typed_bin WHERE id >= ? ORDER BY id")) {
                ps.setLong(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    for (int id = 1; id <= TYPED_ROWS; id++) {
                        assertTrue(rs.next());
                        checkTypedRow(rs, id);
                    }
                    assertFalse(rs.next());
                }
            }
        }
    }

    /**
     * Timestamps and timestamptz read back with their microseconds, as PostgreSQL's; a TIME still
     * comes back at millisecond precision (README "Known limits").
     */
    @Test
    void temporalValuesReadBackWithMicrosecondTimestamps() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE ts_prec (id INT PRIMARY KEY, tm TIME, ts TIMESTAMP, tz TIMESTAMPTZ)");
            exec(
                    c,
                    "INSERT INTO ts_prec VALUES (1, '01:02:03.123456', '2021-03-04 05:06:07.123456',"
                            + " '2021-03-04 05:06:07.123456+00')");
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT tm, ts, tz, ts + INTERVAL '1' DAY FROM ts_prec")) {
                assertTrue(rs.next());
                assertEquals(LocalTime.of(1, 2, 3, 123_000_000), rs.getObject(1, LocalTime.class));
                assertEquals(LocalDateTime.of(2021, 3, 4, 5, 6, 7, 123_456_000), rs.getObject(2, LocalDateTime.class));
                assertEquals(
                        OffsetDateTime.of(2021, 3, 4, 5, 6, 7, 123_456_000, ZoneOffset.UTC)
                                .toInstant(),
                        rs.getObject(3, OffsetDateTime.class).toInstant());
                assertEquals(LocalDateTime.of(2021, 3, 5, 5, 6, 7, 123_456_000), rs.getObject(4, LocalDateTime.class));
            }
        }
    }

    @Test
    void temporalParametersIntoInsertValues() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE tparam (id INT PRIMARY KEY, dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMPTZ)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tparam (id, dt) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setDate(2, Date.valueOf("2020-02-29")); // sent as text, type unspecified
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tparam (id, ts) VALUES (?, ?)")) {
                ps.setInt(1, 2);
                ps.setTimestamp(2, Timestamp.valueOf("2021-03-04 05:06:07.123456")); // text, unspecified
                assertEquals(1, ps.executeUpdate());
                ps.setInt(1, 3);
                ps.setObject(2, LocalDateTime.of(2021, 3, 4, 5, 6, 7)); // text, declared timestamp
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tparam (id, tz) VALUES (?, ?)")) {
                ps.setInt(1, 4);
                ps.setObject(
                        2, OffsetDateTime.of(2021, 3, 4, 5, 6, 7, 0, ZoneOffset.ofHours(2))); // declared timestamptz
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tparam (id, tm) VALUES (?, ?)")) {
                ps.setInt(1, 5);
                ps.setObject(2, LocalTime.of(1, 2, 3)); // declared time
                assertEquals(1, ps.executeUpdate());
            }
            assertEquals(5, queryLong(c, "SELECT count(*) FROM tparam"));
        }
    }

    @Test
    void setTimeWithZoneSuffix() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE tparam2 (id INT PRIMARY KEY, tm TIME)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tparam2 (id, tm) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setTime(2, Time.valueOf("01:02:03"));
                assertEquals(1, ps.executeUpdate());
            }
            assertEquals(1, queryLong(c, "SELECT count(*) FROM tparam2 WHERE tm = TIME '01:02:03'"));
        }
    }

    /** Item 1 exactly as specified: the temporal columns bound with the typed JDBC setters. */
    @Test
    void everyTypeWithTypedTemporalSetters() throws Exception {
        try (Connection c = connect()) {
            createTypedTable(c, "typed_temporal");
            insertTypedRows(c, "typed_temporal", true);
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM typed_temporal WHERE id = ?")) {
                for (int round = 0; round < 2; round++) {
                    for (int id = 1; id <= TYPED_ROWS; id++) {
                        ps.setLong(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next());
                            checkTypedRow(rs, id);
                        }
                    }
                }
            }
        }
    }

    @Test
    void bareParameterOutsidePlainInsertValues() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE bare (id INT PRIMARY KEY, v INT, s TEXT)");
            exec(c, "INSERT INTO bare VALUES (1, 1, 'a')");
            try (PreparedStatement ps = c.prepareStatement("UPDATE bare SET v = ? WHERE id = ?")) {
                ps.setInt(1, 5);
                ps.setInt(2, 1);
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE bare SET s = ? WHERE id = ?")) {
                ps.setString(1, "b");
                ps.setInt(2, 1);
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO bare (id, v) SELECT ?, ?")) {
                ps.setInt(1, 2);
                ps.setInt(2, 2);
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO bare VALUES (?, CAST(? AS INT), 'c')")) {
                ps.setInt(1, 3);
                ps.setInt(2, 3);
                assertEquals(1, ps.executeUpdate());
            }
            assertEquals(3, queryLong(c, "SELECT count(*) FROM bare"));
        }
    }

    @Test
    @Disabled("bug: CREATE TABLE t (by BYTEA) succeeds, but every query naming the column unquoted fails with 42601"
            + " 'syntax error at or near \"by FROM\"' (SELECT by FROM t; INSERT INTO t (id, by) ...). BY is a"
            + " non-reserved keyword in PostgreSQL; the DDL parser and Calcite disagree on what is reserved")
    void columnNamedBy() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE kw (id INT PRIMARY KEY, by BYTEA)");
            exec(c, "INSERT INTO kw (id, by) VALUES (1, NULL)");
            assertEquals(1, queryLong(c, "SELECT count(*) FROM kw WHERE by IS NULL"));
        }
    }

    @Test
    void timestamptzLiterals() throws Exception {
        Instant expected = OffsetDateTime.of(2021, 3, 4, 5, 6, 7, 123_000_000, ZoneOffset.UTC)
                .toInstant();
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT CAST('2021-03-04 05:06:07.123+00' AS TIMESTAMPTZ)")) {
                assertTrue(rs.next());
                assertEquals(expected, rs.getObject(1, OffsetDateTime.class).toInstant());
            }
            try (ResultSet rs = st.executeQuery("SELECT TIMESTAMPTZ '2021-03-04 05:06:07.123+00'")) {
                assertTrue(rs.next());
                assertEquals(expected, rs.getObject(1, OffsetDateTime.class).toInstant());
            }
        }
    }

    // ---------------------------------------------------------------- 2. parameterized SELECT / UPDATE / DELETE

    @Test
    void parameterizedSelectUpdateDelete() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE kv (id INT PRIMARY KEY, v INT NOT NULL, s TEXT)");
            exec(c, "INSERT INTO kv SELECT x, x * 10, 'name-' || x FROM generate_series(1, 200) AS g(x)");
            try (PreparedStatement byId = c.prepareStatement("SELECT v, s FROM kv WHERE id = ?")) {
                for (int round = 0; round < 2; round++) {
                    for (int id = 1; id <= 200; id += 7) {
                        byId.setInt(1, id);
                        try (ResultSet rs = byId.executeQuery()) {
                            assertTrue(rs.next());
                            assertEquals(id * 10, rs.getInt(1));
                            assertEquals("name-" + id, rs.getString(2));
                            assertFalse(rs.next());
                        }
                    }
                }
                byId.setInt(1, 999);
                try (ResultSet rs = byId.executeQuery()) {
                    assertFalse(rs.next());
                }
            }
            try (PreparedStatement like = c.prepareStatement("SELECT count(*), min(id) FROM kv WHERE s LIKE ?")) {
                for (int i = 0; i < 10; i++) {
                    like.setString(1, "name-1%");
                    try (ResultSet rs = like.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(1 + 10 + 100, rs.getLong(1)); // 1, 10-19, 100-199
                        assertEquals(1, rs.getInt(2));
                    }
                    like.setString(1, "%-2_");
                    try (ResultSet rs = like.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(10, rs.getLong(1));
                        assertEquals(20, rs.getInt(2));
                    }
                }
            }
            try (PreparedStatement in = c.prepareStatement("SELECT id FROM kv WHERE id IN (?, ?) ORDER BY id")) {
                for (int i = 1; i <= 20; i++) {
                    in.setInt(1, i + 100);
                    in.setInt(2, i);
                    try (ResultSet rs = in.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(i, rs.getInt(1));
                        assertTrue(rs.next());
                        assertEquals(i + 100, rs.getInt(1));
                        assertFalse(rs.next());
                    }
                }
            }
            try (PreparedStatement upd =
                    c.prepareStatement("UPDATE kv SET v = v + ?, s = CAST(? AS TEXT) WHERE id BETWEEN ? AND ?")) {
                for (int i = 0; i < 10; i++) {
                    upd.setInt(1, 1);
                    upd.setString(2, "upd");
                    upd.setInt(3, i * 10 + 1);
                    upd.setInt(4, i * 10 + 5);
                    assertEquals(5, upd.executeUpdate());
                }
                upd.setInt(1, 1);
                upd.setString(2, "none");
                upd.setInt(3, 1000);
                upd.setInt(4, 2000);
                assertEquals(0, upd.executeUpdate());
            }
            assertEquals(50, queryLong(c, "SELECT count(*) FROM kv WHERE s = 'upd'"));
            assertEquals(11, queryLong(c, "SELECT v FROM kv WHERE id = 1"));
            assertEquals(60, queryLong(c, "SELECT v FROM kv WHERE id = 6"));
            try (PreparedStatement del = c.prepareStatement("DELETE FROM kv WHERE id > ? AND s <> ?")) {
                for (int i = 0; i < 8; i++) {
                    del.setInt(1, 200 - (i + 1) * 10);
                    del.setString(2, "upd");
                    assertEquals(10, del.executeUpdate());
                }
                del.setInt(1, 0);
                del.setString(2, "nothing-matches-this");
                // remaining: 200 - 80 = 120 rows, all of them deleted now
                assertEquals(120, del.executeUpdate());
                assertEquals(0, del.executeUpdate());
            }
            assertEquals(0, queryLong(c, "SELECT count(*) FROM kv"));
        }
    }

    // ---------------------------------------------------------------- 3. batches

    @Test
    void batchOfThousandInserts() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE batch1 (id INT PRIMARY KEY, s TEXT)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO batch1 VALUES (?, ?)")) {
                for (int i = 0; i < 1000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "s" + i);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertEquals(1000, counts.length);
                for (int n : counts) {
                    assertEquals(1, n);
                }
            }
            assertEquals(1000, queryLong(c, "SELECT count(*) FROM batch1"));
            assertEquals(999L * 1000 / 2, queryLong(c, "SELECT sum(id) FROM batch1"));
        }
    }

    /**
     * A duplicate key in the middle of a batch fails with 23505. Unlike PostgreSQL (where the batch's statements share
     * the implicit transaction of one Sync and all roll back), every Tributary statement commits on its own: the rows
     * before the duplicate survive; the server skips the statements after the failure until Sync, so those do not run.
     */
    @Test
    void duplicateKeyInsideBatch() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE batch2 (id INT PRIMARY KEY, s TEXT)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO batch2 VALUES (?, ?)")) {
                for (int i = 0; i < 100; i++) {
                    ps.setInt(1, i == 60 ? 10 : i); // statement 60 repeats key 10
                    ps.setString(2, "s" + i);
                    ps.addBatch();
                }
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                SQLException cause = e.getNextException() != null ? e.getNextException() : e;
                assertEquals("23505", cause.getSQLState(), String.valueOf(cause));
                int[] counts = e.getUpdateCounts();
                assertNotNull(counts);
            }
            long survived = queryLong(c, "SELECT count(*) FROM batch2");
            assertEquals(60, survived, "statements 0..59 committed on their own; 61..99 skipped");
            assertEquals(59, queryLong(c, "SELECT max(id) FROM batch2"));
            // The connection is usable after the failed batch.
            assertEquals(1, c.createStatement().executeUpdate("INSERT INTO batch2 VALUES (1000, 'after')"));
        }
    }

    // ---------------------------------------------------------------- 4. cursor streaming with setFetchSize

    @Test
    void fetchSizeStreamsWithStatementSnapshot() throws Exception {
        final int rows = 50_000;
        try (Connection c = connect();
                Connection other = connect()) {
            exec(c, "CREATE TABLE big (id INT PRIMARY KEY, v BIGINT NOT NULL)");
            exec(c, "INSERT INTO big SELECT x, x * 3 FROM generate_series(1, " + rows + ") AS g(x)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM big ORDER BY id")) {
                ps.setFetchSize(100);
                try (ResultSet rs = ps.executeQuery()) {
                    long count = 0;
                    long sum = 0;
                    int expected = 1;
                    while (rs.next()) {
                        int id = rs.getInt(1);
                        assertEquals(expected, id, "rows in order");
                        assertEquals(3L * id, rs.getLong(2));
                        count++;
                        sum += rs.getLong(2);
                        expected++;
                        if (count == 250) {
                            // Cursor open (only the first fetches done): a committed insert on another connection.
                            try (Statement st = other.createStatement()) {
                                assertEquals(1, st.executeUpdate("INSERT INTO big VALUES (" + (rows + 1) + ", 0)"));
                                assertEquals(1, st.executeUpdate("DELETE FROM big WHERE id = 49999"));
                                try (ResultSet check = st.executeQuery("SELECT count(*) FROM big")) {
                                    assertTrue(check.next());
                                    assertEquals(rows, check.getLong(1), "other connection sees its own commits");
                                }
                            }
                        }
                    }
                    assertEquals(rows, count, "the open cursor keeps the snapshot of its statement");
                    assertEquals(3L * rows * (rows + 1) / 2, sum);
                }
            }
            c.commit();
            c.setAutoCommit(true);
            assertEquals(rows, queryLong(c, "SELECT count(*) FROM big"));
            assertEquals(rows + 1, queryLong(c, "SELECT max(id) FROM big"));
        }
    }

    // ---------------------------------------------------------------- 5. cancel

    private static void createCrossJoinTables(Connection c) throws SQLException {
        exec(c, "CREATE TABLE IF NOT EXISTS cx_a (x INT PRIMARY KEY)");
        exec(c, "CREATE TABLE IF NOT EXISTS cx_b (y INT PRIMARY KEY)");
        if (queryLong(c, "SELECT count(*) FROM cx_a") == 0) {
            exec(c, "INSERT INTO cx_a SELECT x FROM generate_series(1, 3000) AS g(x)");
            exec(c, "INSERT INTO cx_b SELECT x FROM generate_series(1, 3000) AS g(x)");
        }
    }

    /**
     * 900M joined rows: about 30 s uncancelled, so a cancel sent after 300 ms must be what ends it
     * (the 9M rows of two tables alone took under 0.3 s once the nested loop's inner side was
     * spooled, finishing before the first cancel).
     */
    private static final String LONG_QUERY = "SELECT count(*) FROM cx_a, cx_b, (SELECT x FROM cx_a WHERE x <= 100) c";

    /**
     * Statement.cancel() while the query executes. The canceller repeats the cancel every 200 ms until the query ends,
     * because a cancel that arrives while the server is still planning is lost (see cancelDuringPlanning).
     */
    @Test
    void cancelLongQuery() throws Exception {
        try (Connection c = connect()) {
            createCrossJoinTables(c);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (Statement st = c.createStatement()) {
                CountDownLatch done = new CountDownLatch(1);
                Future<Integer> canceller = pool.submit(() -> {
                    int sent = 0;
                    while (!done.await(sent == 0 ? 300 : 200, TimeUnit.MILLISECONDS)) {
                        st.cancel();
                        sent++;
                    }
                    return sent;
                });
                long t0 = System.nanoTime();
                SQLException e;
                try {
                    e = assertThrows(SQLException.class, () -> st.executeQuery(LONG_QUERY));
                } finally {
                    done.countDown();
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                int sent = canceller.get(10, TimeUnit.SECONDS);
                System.out.printf("JdbcEngineTest: query cancelled after %d ms (%d cancel request(s))%n", ms, sent);
                assertEquals("57014", e.getSQLState(), e.toString());
                assertTrue(ms < 10_000, "cancel took effect after " + ms + " ms");
            } finally {
                pool.shutdownNow();
            }
            assertEquals(3000, queryLong(c, "SELECT count(*) FROM cx_a"));
            try (PreparedStatement ps = c.prepareStatement("SELECT y FROM cx_b WHERE y = ?")) {
                ps.setInt(1, 42);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(42, rs.getInt(1));
                }
            }
        }
    }

    @Test
    void cancelDuringPlanning() throws Exception {
        try (Connection c = connect()) {
            createCrossJoinTables(c);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (Statement st = c.createStatement()) {
                Future<?> canceller = pool.submit(() -> {
                    Thread.sleep(20);
                    st.cancel();
                    return null;
                });
                SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(LONG_QUERY));
                canceller.get(10, TimeUnit.SECONDS);
                assertEquals("57014", e.getSQLState());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ---------------------------------------------------------------- 6. SQLSTATEs

    @Test
    void errorSqlStates() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE err (id INT PRIMARY KEY, name TEXT NOT NULL, v INT)");
            exec(c, "INSERT INTO err VALUES (1, 'one', 10)");
            assertEquals("42P01", sqlState(c, "SELECT * FROM no_such_table"));
            assertEquals("42703", sqlState(c, "SELECT no_such_column FROM err"));
            assertEquals("42601", sqlState(c, "SELEC 1"));
            assertEquals("23505", sqlState(c, "INSERT INTO err VALUES (1, 'dup', 0)"));
            assertEquals("23502", sqlState(c, "INSERT INTO err VALUES (2, NULL, 0)"));
            assertEquals("22P02", sqlState(c, "INSERT INTO err VALUES (2, 'two', 'abc')"));
            assertEquals("22P02", sqlState(c, "SELECT 'abc'::int"));
            assertEquals("22012", sqlState(c, "SELECT v / 0 FROM err"));
            assertEquals("0A000", sqlState(c, "CREATE TABLE ch (a CHAR(3)[])"));

            // The same through server-prepared statements with parameters.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO err VALUES (?, ?, ?)")) {
                for (int i = 0; i < 6; i++) {
                    ps.setInt(1, 1);
                    ps.setString(2, "dup");
                    ps.setInt(3, 0);
                    assertEquals(
                            "23505",
                            assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
                    ps.setInt(1, 100 + i);
                    ps.setNull(2, Types.VARCHAR);
                    assertEquals(
                            "23502",
                            assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT v / ? FROM err")) {
                for (int i = 0; i < 6; i++) {
                    ps.setInt(1, 0);
                    assertEquals(
                            "22012",
                            assertThrows(SQLException.class, ps::executeQuery).getSQLState());
                    ps.setInt(1, 5);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(2, rs.getInt(1));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM err WHERE id = ?")) {
                ps.setString(1, "not-a-number");
                assertEquals(
                        "22P02",
                        assertThrows(SQLException.class, ps::executeQuery).getSQLState());
            }
            assertEquals(1, queryLong(c, "SELECT count(*) FROM err"));
            assertNotNull(c.getMetaData().getDatabaseProductVersion());
        }
    }

    // ---------------------------------------------------------------- 8. concurrent single-row inserts

    @Test
    void concurrentSingleRowInsertsGroupCommit() throws Exception {
        final int threads = 8;
        final int perThread = 200;
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE conc (t INT, i INT, PRIMARY KEY (t, i))");
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Connection> connections = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                connections.add(connect());
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Long>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int thread = t;
                final Connection conn = connections.get(t);
                results.add(pool.submit(() -> {
                    go.await();
                    try (PreparedStatement ps = conn.prepareStatement("INSERT INTO conc VALUES (?, ?)")) {
                        for (int i = 0; i < perThread; i++) {
                            ps.setInt(1, thread);
                            ps.setInt(2, i);
                            assertEquals(1, ps.executeUpdate());
                        }
                    }
                    return (long) perThread;
                }));
            }
            long t0 = System.nanoTime();
            go.countDown();
            long inserted = 0;
            for (Future<Long> f : results) {
                inserted += f.get(40, TimeUnit.SECONDS);
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf(
                    "JdbcEngineTest: %d threads x %d single-row INSERTs (implicit_flush, barrier 20 ms): %d ms"
                            + " (%.2f ms/insert/thread; serial barriers would take >= %d ms)%n",
                    threads, perThread, ms, (double) ms / perThread, threads * perThread * 20L);
            assertEquals(threads * perThread, inserted);
            try (Connection c = connect()) {
                assertEquals(threads * perThread, queryLong(c, "SELECT count(*) FROM conc"));
                assertEquals(threads, queryLong(c, "SELECT count(DISTINCT t) FROM conc"));
                assertEquals(perThread, queryLong(c, "SELECT count(DISTINCT i) FROM conc"));
            }
            assertTrue(ms < threads * perThread * 20L, "group commit: " + ms + " ms");
        } finally {
            pool.shutdownNow();
            for (Connection conn : connections) {
                conn.close();
            }
        }
    }
}
