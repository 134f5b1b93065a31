package io.tributary.meta.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sinks through SQL on a real server, delivering to an embedded PostgreSQL: the checks at CREATE
 * and their SQLSTATEs, the head and backfill together with a change on every key while the
 * snapshot is copied, restart, RESYNC, rate limit and DROP. The target equals the relation row for
 * row (compared as PostgreSQL's text of each row) and the status rows say how far it is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SinkEngineTest {
    /** The database's directory; JUnit removes it after each test, whether it passed or not. */
    @TempDir
    Path dataDir;

    /** Two key ranges whatever the machine's cores, so the contract test covers ranged snapshots. */
    @BeforeAll
    static void twoRanges() {
        System.setProperty(SnapshotDelivery.RANGES_PROPERTY, "2");
    }

    @AfterAll
    static void defaultRanges() {
        System.clearProperty(SnapshotDelivery.RANGES_PROPERTY);
    }

    private Database db;
    private PgServer server;
    private Connection connection;
    private String schema;

    @BeforeEach
    void start() throws Exception {
        schema = "sink_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        open();
    }

    private void open() throws SQLException {
        db = Database.open(dataDir, 50, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("socketTimeout", "60");
        connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    private void close() throws SQLException {
        connection.close();
        server.close();
        db.close();
    }

    @AfterEach
    void stop() throws Exception {
        close();
    }

    private void exec(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    private String with(String table, String extra) throws Exception {
        return " WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', password = 'secret', "
                + "schema.name = '" + schema + "', table.name = '" + table + "'" + extra + ")";
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private List<String> target(String sql) throws Exception {
        try (Connection c = UpstreamPostgres.connect()) {
            return rows(c, sql);
        }
    }

    /** Waits until the target table holds exactly the relation's rows. */
    private void awaitEqual(String relation, String targetTable, String columns) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        List<String> want = rows(connection, "SELECT " + columns + " FROM " + relation + " ORDER BY 1");
        while (true) {
            List<String> have = target("SELECT " + columns + " FROM " + schema + "." + targetTable + " ORDER BY 1");
            if (have.equals(want)) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                assertEquals(want, have, "target " + targetTable + " vs " + relation);
            }
            Thread.sleep(50);
            want = rows(connection, "SELECT " + columns + " FROM " + relation + " ORDER BY 1");
        }
    }

    private void awaitBackfill(String alias) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!List.of("complete")
                .equals(target("SELECT backfill_status FROM " + schema
                        + ".backfill_processor_status WHERE backfill_alias = '" + alias + "'"))) {
            assertTrue(System.currentTimeMillis() < deadline, "backfill " + alias + " did not complete");
            Thread.sleep(50);
        }
    }

    private String state(ThrowingSql sql) {
        SQLException e = assertThrows(SQLException.class, sql::run);
        return e.getSQLState() + " " + e.getMessage();
    }

    private interface ThrowingSql {
        void run() throws Exception;
    }

    @Test
    void createChecksTheTargetBeforeStoringAnything() throws Exception {
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, s VARCHAR)");
        exec("CREATE TABLE nokey (a INT)");
        UpstreamPostgres.execute(
                "CREATE TABLE " + schema + ".wrong_type (id BIGINT PRIMARY KEY, v TEXT, s VARCHAR)",
                "CREATE TABLE " + schema + ".no_unique (id BIGINT, v INT, s VARCHAR)",
                "CREATE TABLE " + schema + ".missing_col (id BIGINT PRIMARY KEY, v INT)");
        String unreachable =
                " WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://127.0.0.1:1/x', table.name = 'x')";
        assertTrue(state(() -> exec("CREATE SINK k FROM t" + unreachable)).startsWith("08001"));
        assertTrue(
                state(() -> exec("CREATE SINK k FROM t" + with("absent", ""))).startsWith("42P01"));
        String mismatch = state(() -> exec("CREATE SINK k FROM t" + with("wrong_type", "")));
        assertTrue(mismatch.startsWith("42804") && mismatch.contains("\"v\""), mismatch);
        String missing = state(() -> exec("CREATE SINK k FROM t" + with("missing_col", "")));
        assertTrue(missing.startsWith("42804") && missing.contains("\"s\""), missing);
        assertTrue(state(() -> exec("CREATE SINK k FROM t" + with("no_unique", "")))
                .startsWith("42P10"));
        assertTrue(state(() -> exec("CREATE SINK k FROM nokey" + with("x", ""))).startsWith("42P10"));
        String unknown = state(() -> exec("CREATE SINK k FROM t" + with("x", ", colour = 'red'")));
        assertTrue(unknown.startsWith("42601") && unknown.contains("jdbc.url"), unknown);
        assertTrue(
                state(() -> exec("CREATE SINK k FROM absent" + with("x", ""))).startsWith("42P01"));
        assertTrue(
                state(() -> exec("CREATE SINK k AS SELECT 1" + with("x", ""))).startsWith("0A000"));
        assertEquals(List.of(), rows(connection, "SHOW SINKS"));

        exec("CREATE SINK k FROM t" + with("made", ", create_table_if_not_exists = 'true'"));
        assertEquals(
                List.of("id|bigint|NO", "v|integer|YES", "s|character varying|YES"),
                target(
                        "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = '"
                                + schema + "' AND table_name = 'made' ORDER BY ordinal_position"));
        assertEquals(List.of("k|t|" + schema + ".made|upsert"), rows(connection, "SHOW SINKS"));
        assertTrue(state(() -> exec("CREATE SINK k FROM t" + with("made", ""))).startsWith("42710"));
        exec("CREATE SINK IF NOT EXISTS k FROM t" + with("made", ""));
        assertTrue(state(() -> exec("DROP TABLE t")).startsWith("2BP01"));
        exec("INSERT INTO t VALUES (1, 1, 'a\\tb\nc'), (2, NULL, 'h\u00e9llo \u20ac\\'), (3, 3, NULL)");
        awaitEqual("t", "made", "id, v, s");
        exec("DROP SINK k");
        assertTrue(state(() -> exec("DROP SINK k")).startsWith("42704"));
        exec("DROP SINK IF EXISTS k");
        exec("DROP TABLE t");
    }

    @Test
    void headAndBackfillRunTogetherWithAChangeOnEveryKey() throws Exception {
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, s VARCHAR)");
        exec("INSERT INTO t SELECT x, x, 'r' || x FROM generate_series(1, 60000) AS g(x)");
        exec("SET sink_rate_limit = 2000");
        exec("CREATE SINK k FROM t" + with("t_out", ", create_table_if_not_exists = 'true'"));
        exec("RESET sink_rate_limit");
        // the delivery runs at background priority: on a busy machine it may not have begun before the
        // changes below finish, so they start once it has (at 2,000 rows/s it then takes about 30 s)
        long startBy = System.currentTimeMillis() + 60_000;
        while (!target("SELECT backfill_status FROM " + schema + ".backfill_processor_status")
                .contains("in_progress")) {
            assertTrue(System.currentTimeMillis() < startBy, "the backfill did not start within 60 s");
            Thread.sleep(20);
        }
        // every key changes while the snapshot is copied: updates, deletes, and new keys
        exec("UPDATE t SET v = v + 1000000 WHERE id % 3 = 0");
        exec("DELETE FROM t WHERE id % 3 = 1");
        exec("UPDATE t SET s = 'changed' WHERE id % 3 = 2");
        exec("INSERT INTO t SELECT x, x, 'new' FROM generate_series(60001, 61000) AS g(x)");
        List<String> during = target("SELECT backfill_status FROM " + schema + ".backfill_processor_status");
        exec("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
        awaitBackfill("k_backfill");
        awaitEqual("t", "t_out", "id, v, s");
        assertEquals(List.of("in_progress"), during, "the changes did not overlap the backfill");
        List<String> status = target("SELECT b.backfill_start_version = b.backfill_end_version, "
                + "b.last_success_version = b.backfill_start_version, p.last_success_version > b.backfill_start_version "
                + "FROM " + schema + ".backfill_processor_status b, " + schema + ".processor_status p "
                + "WHERE p.processor = 'k'");
        assertEquals(List.of("t|t|t"), status);
        // the backfill's last transaction deletes the markers; a head transaction just after it may
        // mark keys once more, and the head deletes those as soon as it hears the backfill is done
        long deadline = System.currentTimeMillis() + 60_000;
        long markers;
        while ((markers = Long.parseLong(target("SELECT count(*) FROM " + schema + ".tributary_sink_keys_k")
                        .get(0)))
                > 0) {
            assertTrue(System.currentTimeMillis() < deadline, markers + " key markers stayed after the backfill");
            Thread.sleep(20);
        }

        // restart: the head resumes from the target's position
        close();
        open();
        exec("UPDATE t SET v = -v WHERE id % 5 = 0");
        awaitEqual("t", "t_out", "id, v, s");

        // RESYNC repairs a target that drifted: extra, missing and wrong rows
        UpstreamPostgres.execute(
                "DELETE FROM " + schema + ".t_out WHERE id < 100",
                "INSERT INTO " + schema + ".t_out VALUES (-5, 0, 'stray')",
                "UPDATE " + schema + ".t_out SET s = 'wrong' WHERE id > 60500");
        exec("ALTER SINK k RESYNC");
        exec("INSERT INTO t VALUES (70000, 7, 'during resync')");
        awaitBackfill("k_backfill");
        awaitEqual("t", "t_out", "id, v, s");

        List<String> progress = rows(
                connection,
                "SELECT part, phase, last_error IS NULL, rows_done > 0 FROM tributary_catalog.sink_progress ORDER BY part");
        assertEquals(List.of("backfill|complete|t|t", "head|streaming|t|t"), progress);
    }

    /**
     * DROP SINK right as the backfill completes (the backfill thread then commits an epoch that
     * unpins the snapshot, while DROP stops it): no pinned snapshot may be left on disk, and the
     * server keeps serving. Each round polls the target's status row on one open connection and
     * drops the sink the moment it says {@code complete}, or a few milliseconds later, to land in
     * the short time the backfill thread spends committing its end.
     */
    @Test
    void droppingASinkAsItsBackfillCompletesLeavesNoPin() throws Exception {
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT)");
        exec("INSERT INTO t SELECT x, x FROM generate_series(1, 2000) AS g(x)");
        try (Connection pg = UpstreamPostgres.connect()) {
            for (int i = 0; i < 12; i++) {
                exec("CREATE SINK k FROM t" + with("drop_" + i, ", create_table_if_not_exists = 'true'"));
                long deadline = System.currentTimeMillis() + 60_000;
                while (!List.of("complete")
                        .equals(rows(
                                pg,
                                "SELECT backfill_status FROM " + schema
                                        + ".backfill_processor_status WHERE backfill_alias = 'k_backfill'"))) {
                    assertTrue(System.currentTimeMillis() < deadline, "backfill did not complete");
                }
                Thread.sleep(i % 4);
                exec("DROP SINK k");
                UpstreamPostgres.execute(
                        "DELETE FROM " + schema + ".backfill_processor_status",
                        "DELETE FROM " + schema + ".processor_status");
                awaitNoPin();
            }
        }
        assertEquals(List.of("2000"), rows(connection, "SELECT count(*) FROM t"));
    }

    /** Waits (briefly: a reader still closing deletes the pin as it closes) until no sink pin is on disk. */
    private void awaitNoPin() throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        while (true) {
            List<Path> pins;
            try (Stream<Path> walk = Files.walk(dataDir)) {
                pins = walk.filter(p -> p.getParent() != null
                                && p.getParent().getFileName().toString().endsWith(".pins")
                                && p.getFileName().toString().startsWith("sink-"))
                        .toList();
            }
            if (pins.isEmpty()) {
                return;
            }
            assertTrue(System.currentTimeMillis() < deadline, "pins left on disk: " + pins);
            Thread.sleep(50);
        }
    }

    @Test
    void rateLimitZeroPausesAndATargetOutageIsRetried() throws Exception {
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT)");
        exec("CREATE SINK k FROM t" + with("paused", ", create_table_if_not_exists = 'true', snapshot = 'false'"));
        exec("ALTER SINK k SET SINK_RATE_LIMIT = 0");
        exec("INSERT INTO t VALUES (1, 1)");
        Thread.sleep(500);
        assertEquals(List.of(), target("SELECT id FROM " + schema + ".paused"));
        assertEquals(
                List.of("paused|0"), rows(connection, "SELECT phase, rate_limit FROM tributary_catalog.sink_progress"));
        close();
        open(); // the pause is durable
        exec("INSERT INTO t VALUES (2, 2)");
        Thread.sleep(300);
        assertEquals(List.of(), target("SELECT id FROM " + schema + ".paused"));
        exec("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
        awaitEqual("t", "paused", "id, v");

        // the sink's connections are killed: it retries, and nothing is lost or doubled
        UpstreamPostgres.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                + "WHERE application_name = 'tributary-sink' AND pid <> pg_backend_pid()");
        exec("INSERT INTO t SELECT x, x FROM generate_series(3, 2000) AS g(x)");
        awaitEqual("t", "paused", "id, v");
    }

    /**
     * An append-only sink stops at its relation's first UPDATE unless {@code force_append_only}
     * is set; then it appends each row version and drops deletions. The expected rows come from
     * PostgreSQL running the same statements with a trigger that appends every new row version.
     */
    @Test
    void forceAppendOnlyAppendsUpdatedRowsAndDropsDeletes() throws Exception {
        String log = schema + ".versions";
        UpstreamPostgres.execute(
                "CREATE TABLE " + schema + ".e (id BIGINT PRIMARY KEY, v INT)",
                "CREATE TABLE " + log + " (id BIGINT, v INT)",
                "CREATE FUNCTION " + schema + ".keep() RETURNS trigger LANGUAGE plpgsql AS" + " $$ BEGIN INSERT INTO "
                        + log + " VALUES (NEW.id, NEW.v); RETURN NEW; END $$",
                "CREATE TRIGGER keep AFTER INSERT OR UPDATE ON " + schema + ".e FOR EACH ROW EXECUTE FUNCTION " + schema
                        + ".keep()");
        List<String> statements = List.of(
                "UPDATE e SET v = v + 10 WHERE id = 2",
                "DELETE FROM e WHERE id = 3",
                "INSERT INTO e VALUES (4, 4)",
                "UPDATE e SET v = v * 3 WHERE id >= 2");
        exec("CREATE TABLE e (id BIGINT PRIMARY KEY, v INT)");
        exec("INSERT INTO e VALUES (1, 1), (2, 2), (3, 3)");
        UpstreamPostgres.execute("INSERT INTO " + schema + ".e VALUES (1, 1), (2, 2), (3, 3)");
        exec("CREATE SINK forced FROM e"
                + with(
                        "forced_out",
                        ", type = 'append-only', force_append_only = 'true', create_table_if_not_exists = 'true'"));
        exec("CREATE SINK strict FROM e"
                + with("strict_out", ", type = 'append-only', create_table_if_not_exists = 'true'"));
        awaitBackfill("forced_backfill");
        for (String statement : statements) {
            exec(statement);
            UpstreamPostgres.execute(statement.replace(" e ", " " + schema + ".e "));
        }
        List<String> want = target("SELECT id, v FROM " + log + " ORDER BY 1, 2");
        String forced = "SELECT id, v FROM " + schema + ".forced_out ORDER BY 1, 2";
        long deadline = System.currentTimeMillis() + 60_000;
        while (!want.equals(target(forced)) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(want, target(forced));
        List<String> strict = rows(
                connection,
                "SELECT phase, last_error LIKE '%force_append_only%' FROM tributary_catalog.sink_progress"
                        + " WHERE sink_name = 'strict' AND part = 'head'");
        assertEquals(List.of("failed|t"), strict);
    }

    @Test
    void aSinkFromAMaterializedViewFollowsTheViewAcrossRestarts() throws Exception {
        exec("CREATE TABLE o (id BIGINT PRIMARY KEY, g INT, amount INT)");
        exec("INSERT INTO o SELECT x, x % 7, x FROM generate_series(1, 500) AS s(x)");
        exec("CREATE MATERIALIZED VIEW totals AS SELECT g, count(*) AS n, sum(amount) AS total FROM o GROUP BY g");
        exec("CREATE SINK k FROM totals" + with("totals_out", ", create_table_if_not_exists = 'true'"));
        exec("INSERT INTO o VALUES (1000, 100, 1)");
        exec("UPDATE o SET amount = amount * 2 WHERE g = 3");
        exec("DELETE FROM o WHERE g = 5");
        awaitBackfill("k_backfill");
        awaitEqual("totals", "totals_out", "g, n, total");
        assertTrue(state(() -> exec("DROP MATERIALIZED VIEW totals")).startsWith("2BP01"));
        close();
        open();
        exec("INSERT INTO o VALUES (1001, 101, 1)");
        exec("DELETE FROM o WHERE g = 100");
        awaitEqual("totals", "totals_out", "g, n, total");
        exec("DROP TABLE o CASCADE");
        assertEquals(List.of(), rows(connection, "SHOW SINKS"));
    }

    @Test
    void aSinkOverAGroupByQueryKeepsItsHiddenViewAndDropsItWithTheSink() throws Exception {
        exec("CREATE TABLE o (id BIGINT PRIMARY KEY, g INT, amount INT)");
        exec("INSERT INTO o SELECT x, x % 7, x FROM generate_series(1, 700) AS s(x)");
        String query = "SELECT g, count(*) AS n, sum(amount) AS total FROM o GROUP BY g";
        String same = "(" + query + ") AS q";
        // the key is hidden when the relation's key is not selected: 42P10, and nothing is left behind
        assertTrue(state(() -> exec("CREATE SINK bad AS SELECT amount FROM o"
                        + with("bad_out", ", create_table_if_not_exists = 'true'")))
                .startsWith("42P10"));
        assertEquals(List.of(), rows(connection, "SHOW SINKS"));
        assertTrue(state(() -> exec("SELECT * FROM __sink_bad")).startsWith("42P01"));
        exec("CREATE SINK q AS " + query + with("q_out", ", create_table_if_not_exists = 'true'"));
        exec("CREATE SINK p AS SELECT id, amount FROM o WHERE g = 2"
                + with("p_out", ", create_table_if_not_exists = 'true'"));
        for (int g = 0; g < 7; g++) {
            exec("UPDATE o SET amount = amount + " + (g + 1) + " WHERE g = " + g + " AND id % 3 = 0");
            exec("DELETE FROM o WHERE g = " + g + " AND id % 11 = 0");
        }
        exec("INSERT INTO o VALUES (5000, 42, 1)");
        awaitBackfill("q_backfill");
        awaitEqual(same, "q_out", "g, n, total");
        awaitEqual("(SELECT id, amount FROM o WHERE g = 2) AS p", "p_out", "id, amount");
        assertEquals(
                List.of(
                        "p|SELECT id, amount FROM o WHERE g = 2|" + schema + ".p_out|upsert",
                        "q|" + query + "|" + schema + ".q_out|upsert"),
                rows(connection, "SHOW SINKS"));
        assertEquals(List.of(), rows(connection, "SHOW MATERIALIZED VIEWS"));
        assertEquals(List.of("0"), rows(connection, "SELECT count(*) FROM pg_class WHERE relname LIKE '\\_\\_sink%'"));
        close();
        open();
        exec("UPDATE o SET amount = amount * 2");
        exec("DELETE FROM o WHERE g = 42");
        awaitEqual(same, "q_out", "g, n, total");
        exec("DROP SINK q");
        assertTrue(state(() -> exec("SELECT * FROM __sink_q")).startsWith("42P01"));
        exec("DROP TABLE o CASCADE");
        assertEquals(List.of(), rows(connection, "SHOW SINKS"));
        assertTrue(state(() -> exec("SELECT * FROM __sink_p")).startsWith("42P01"));
    }
}
