package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} over a running server holding {@code dev}, {@code a} and {@code b}, wired as the
 * server's main wires it, through real HTTP: every per-database series carries
 * {@code database="NAME"} for every database, its figures agree with the same database's system
 * tables read over pgjdbc, statements and errors count in the database they ran in, a database
 * created while the server runs gets its series, and a dropped one leaves none behind.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MultiDatabaseMetricsTest {
    /** Families whose every series belongs to one database. */
    private static final Set<String> PER_DATABASE = Set.of(
            "tributary_epoch_commit_seconds",
            "tributary_barrier_interval_seconds",
            "tributary_barrier_interval_configured_seconds",
            "tributary_barrier_lag_seconds",
            "tributary_committed_epoch",
            "tributary_statement_seconds",
            "tributary_statement_errors_total",
            "tributary_source_rows_total",
            "tributary_view_state_bytes",
            "tributary_rocksdb_memtable_bytes",
            "tributary_rocksdb_compaction_pending_bytes");

    @TempDir
    static Path dataDir;

    private static ServedDatabasesOverHttp served;
    private static final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        served = new ServedDatabasesOverHttp(dataDir);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static Map<String, PrometheusTextParser.Family> scrape() throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + served.http.port() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return PrometheusTextParser.parse(r.body());
    }

    private static Map<String, PrometheusTextParser.Family> scrapeUntil(
            Predicate<Map<String, PrometheusTextParser.Family>> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<String, PrometheusTextParser.Family> m = scrape();
            if (ready.test(m)) {
                return m;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never ready: " + m.keySet());
            }
            Thread.sleep(100);
        }
    }

    /** Sample {@code sample}'s values by the value of {@code label}, for series in {@code database}. */
    private static Map<String, Double> byLabel(
            Map<String, PrometheusTextParser.Family> m, String family, String sample, String database, String label) {
        Map<String, Double> out = new TreeMap<>();
        PrometheusTextParser.Family f = m.get(family);
        if (f == null) {
            return out;
        }
        for (PrometheusTextParser.Sample s : f.samples) {
            if (s.name().equals(sample) && database.equals(s.labels().get(DatabaseMeters.LABEL))) {
                out.put(s.labels().getOrDefault(label, ""), s.value());
            }
        }
        return out;
    }

    /** The epoch commits {@code database}'s commit-time histogram counted, 0 when it has none yet. */
    private static double commitsCounted(Map<String, PrometheusTextParser.Family> m, String database) {
        return byLabel(m, "tributary_epoch_commit_seconds", "tributary_epoch_commit_seconds_count", database, "none")
                .getOrDefault("", 0.0);
    }

    /** The value of a series without further labels in {@code database}, or NaN when absent. */
    private static double of(Map<String, PrometheusTextParser.Family> m, String family, String database) {
        return byLabel(m, family, family, database, "none").getOrDefault("", Double.NaN);
    }

    /** The databases any series of the per-database families names; fails on a series without one. */
    private static Set<String> databasesIn(Map<String, PrometheusTextParser.Family> m) {
        Set<String> out = new TreeSet<>();
        for (String family : PER_DATABASE) {
            PrometheusTextParser.Family f = m.get(family);
            if (f == null) {
                continue;
            }
            for (PrometheusTextParser.Sample s : f.samples) {
                String db = s.labels().get(DatabaseMeters.LABEL);
                assertTrue(db != null && !db.isEmpty(), () -> family + " series without a database: " + s);
                out.add(db);
            }
        }
        return out;
    }

    @Test
    void everyDatabaseHasItsOwnSeries() throws Exception {
        served.exec("dev", "CREATE DATABASE a", "CREATE DATABASE b");
        served.exec(
                "a",
                "CREATE TABLE t (k int PRIMARY KEY, v int)",
                "INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 2000) g",
                "CREATE MATERIALIZED VIEW per_v AS SELECT v, count(*) AS n FROM t GROUP BY v",
                "CREATE TABLE gen (id bigint PRIMARY KEY) WITH (connector = 'datagen',"
                        + " fields.id.kind = 'sequence', datagen.rows.per.second = '2000', datagen.rows.total = '300')");
        served.exec(
                "b",
                "CREATE TABLE local (v int PRIMARY KEY, label text)",
                "INSERT INTO local VALUES (0, 'zero'), (1, 'one')",
                "CREATE MATERIALIZED VIEW joined AS SELECT l.label, count(*) AS n FROM a.public.t"
                        + " JOIN local l ON t.v = l.v GROUP BY l.label",
                "CREATE MATERIALIZED VIEW labels AS SELECT label FROM local");
        // statements and errors count in the database they ran in: three SELECTs in b, one error in b
        try (Connection c = served.connect("b");
                Statement st = c.createStatement()) {
            for (int i = 0; i < 3; i++) {
                st.execute("SELECT * FROM joined");
            }
            assertThrows(SQLException.class, () -> st.execute("SELECT * FROM missing"));
        }

        // the source finished its 300 rows: the counter and source_progress then agree exactly; and
        // every database committed an epoch since its series were bound (a database's meters are
        // bound when the exporter first sees it, so a scrape right after that may count none yet)
        Map<String, PrometheusTextParser.Family> m =
                scrapeUntil(x -> byLabel(x, "tributary_source_rows_total", "tributary_source_rows_total", "a", "table")
                                        .getOrDefault("gen", 0.0)
                                == 300.0
                        && Set.of("dev", "a", "b").stream().allMatch(db -> commitsCounted(x, db) > 0));
        assertEquals(
                Set.of("300"),
                new TreeSet<>(served.rows("a", "SELECT rows_ingested FROM tributary_catalog.source_progress")));
        assertEquals(
                Set.of(),
                new TreeSet<>(served.rows("b", "SELECT rows_ingested FROM tributary_catalog.source_progress")));
        assertEquals(Map.of(), byLabel(m, "tributary_source_rows_total", "tributary_source_rows_total", "b", "table"));

        assertEquals(Set.of("a", "b", "dev"), databasesIn(m));
        for (String db : Set.of("dev", "a", "b")) {
            assertTrue(of(m, "tributary_committed_epoch", db) > 0, db);
            assertEquals(0.02, of(m, "tributary_barrier_interval_configured_seconds", db), db);
            assertTrue(of(m, "tributary_barrier_lag_seconds", db) >= 0, db);
            assertTrue(commitsCounted(m, db) > 0, db);
            assertTrue(of(m, "tributary_rocksdb_memtable_bytes", db) >= 0, db);
            // each database's materialized views, as its relations table lists them, and no other's
            assertEquals(
                    new TreeSet<>(served.rows(
                            db, "SELECT name FROM tributary_catalog.relations WHERE kind = 'materialized view'")),
                    byLabel(m, "tributary_view_state_bytes", "tributary_view_state_bytes", db, "view")
                            .keySet(),
                    db);
        }
        assertEquals(
                Set.of("joined", "labels"),
                byLabel(m, "tributary_view_state_bytes", "tributary_view_state_bytes", "b", "view")
                        .keySet());
        // the three SELECTs, and the two CREATE MATERIALIZED VIEW ... AS: a populated one answers
        // PostgreSQL's command tag SELECT n, and statements count by their tag
        assertEquals(
                5.0,
                byLabel(m, "tributary_statement_seconds", "tributary_statement_seconds_count", "b", "kind")
                        .get("SELECT"));
        assertEquals(
                Map.of("42", 1.0),
                byLabel(
                        m,
                        "tributary_statement_errors_total",
                        "tributary_statement_errors_total",
                        "b",
                        "sqlstate_class"));
        assertEquals(
                Map.of(),
                byLabel(
                        m,
                        "tributary_statement_errors_total",
                        "tributary_statement_errors_total",
                        "a",
                        "sqlstate_class"));

        // a database created while the server runs gets its series; a dropped one keeps none
        served.exec("dev", "CREATE DATABASE c");
        m = scrape();
        assertEquals(Set.of("a", "b", "c", "dev"), databasesIn(m));
        served.exec("b", "DROP MATERIALIZED VIEW joined");
        served.exec("dev", "DROP DATABASE b");
        m = scrape();
        assertEquals(Set.of("a", "c", "dev"), databasesIn(m));
        // dropped and created again: a new database, whose counters start over
        served.exec("dev", "CREATE DATABASE b");
        served.exec("b", "SELECT 1");
        m = scrape();
        assertEquals(Set.of("a", "b", "c", "dev"), databasesIn(m));
        assertEquals(
                1.0,
                byLabel(m, "tributary_statement_seconds", "tributary_statement_seconds_count", "b", "kind")
                        .get("SELECT"));
        assertEquals(Map.of(), byLabel(m, "tributary_view_state_bytes", "tributary_view_state_bytes", "b", "view"));
    }
}
