package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_35_0.Metrics;
import io.tributary.connector.postgres.UpstreamPostgres;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code /metrics} parses as the Prometheus text format, carries the engine's meters with the
 * values the engine's state implies, and agrees with the protobuf exposition of the same registry
 * as the Prometheus client's own model reads it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MetricsEndpointTest {
    private static double value(
            Map<String, PrometheusTextParser.Family> families, String family, String sample, String... labels) {
        PrometheusTextParser.Family f = families.get(family);
        if (f == null) {
            throw new AssertionError("no family " + family + " in " + families.keySet());
        }
        Map<String, String> wanted = new HashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return f.samples.stream()
                .filter(s -> s.name().equals(sample) && s.labels().entrySet().containsAll(wanted.entrySet()))
                .mapToDouble(PrometheusTextParser.Sample::value)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + sample + " " + wanted + " in " + f.samples));
    }

    @Test
    void scrapeParsesAndCarriesTheEngineMeters() throws Exception {
        try (DashboardFixture f = new DashboardFixture(null)) {
            f.exec(
                    "CREATE TABLE t (a int PRIMARY KEY, b int)",
                    "INSERT INTO t SELECT g, g % 3 FROM generate_series(1, 5000) g",
                    "CREATE MATERIALIZED VIEW per_b AS SELECT b, count(*) AS n FROM t GROUP BY b",
                    "SELECT * FROM per_b",
                    "CREATE TABLE gen (id bigint PRIMARY KEY) WITH (connector = 'datagen',"
                            + " fields.id.kind = 'sequence', datagen.rows.per.second = '1000')");
            try (Connection c = f.connect();
                    Statement st = c.createStatement()) {
                assertThrows(SQLException.class, () -> st.execute("SELECT 1 / 0"));
                assertThrows(SQLException.class, () -> st.execute("SELECT * FROM missing"));
            }
            Thread.sleep(500); // the source commits some rows

            HttpResponse<String> r = f.get("/metrics");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("content-type").orElseThrow().startsWith("text/plain; version=0.0.4"));
            Map<String, PrometheusTextParser.Family> m = PrometheusTextParser.parse(r.body());

            // JVM and process
            assertEquals("gauge", m.get("jvm_memory_used_bytes").type);
            assertTrue(value(m, "process_uptime_seconds", "process_uptime_seconds") > 0);
            assertTrue(m.containsKey("jvm_threads_live_threads") && m.containsKey("process_cpu_usage"));
            // epochs: a histogram whose buckets the parser checked against its count
            assertEquals("histogram", m.get("tributary_epoch_commit_seconds").type);
            assertTrue(value(m, "tributary_epoch_commit_seconds", "tributary_epoch_commit_seconds_count") > 0);
            assertEquals("histogram", m.get("tributary_barrier_interval_seconds").type);
            assertEquals(
                    0.05,
                    value(
                            m,
                            "tributary_barrier_interval_configured_seconds",
                            "tributary_barrier_interval_configured_seconds"));
            assertTrue(m.containsKey("tributary_barrier_lag_seconds"));
            // statements by kind, errors by SQLSTATE class (22012 division by zero, 42P01)
            assertTrue(value(m, "tributary_statement_seconds", "tributary_statement_seconds_count", "kind", "SELECT")
                    >= 1);
            assertEquals(
                    1.0,
                    value(
                            m,
                            "tributary_statement_errors_total",
                            "tributary_statement_errors_total",
                            "sqlstate_class",
                            "22"));
            assertEquals(
                    1.0,
                    value(
                            m,
                            "tributary_statement_errors_total",
                            "tributary_statement_errors_total",
                            "sqlstate_class",
                            "42"));
            // sources, RocksDB, view state
            assertTrue(value(m, "tributary_source_rows_total", "tributary_source_rows_total", "table", "gen") >= 0);
            assertEquals("counter", m.get("tributary_source_rows_total").type);
            assertTrue(m.containsKey("tributary_rocksdb_memtable_bytes"));
            assertTrue(m.containsKey("tributary_rocksdb_compaction_pending_bytes"));
            assertTrue(m.containsKey("tributary_rocksdb_write_stall_seconds_total"));
            double ratio =
                    value(m, "tributary_rocksdb_block_cache_hit_ratio", "tributary_rocksdb_block_cache_hit_ratio");
            assertTrue(ratio >= 0 && ratio <= 1);
            assertTrue(value(m, "tributary_view_state_bytes", "tributary_view_state_bytes", "view", "per_b") >= 0);

            // the same registry as protobuf, read by the Prometheus client's generated model
            HttpResponse<byte[]> proto = f.client.send(
                    HttpRequest.newBuilder(URI.create(f.url("/metrics")))
                            .header("Accept", EngineMeters.PROTOBUF)
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertTrue(proto.headers()
                    .firstValue("content-type")
                    .orElseThrow()
                    .startsWith("application/vnd.google.protobuf"));
            Map<String, String> protoTypes = new HashMap<>();
            try (InputStream in = new ByteArrayInputStream(proto.body())) {
                Metrics.MetricFamily family;
                while ((family = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
                    protoTypes.put(family.getName(), family.getType().name().toLowerCase(Locale.ROOT));
                }
            }
            for (Map.Entry<String, String> e : protoTypes.entrySet()) {
                if (!e.getKey().startsWith("tributary_")) {
                    continue; // JVM meters may come and go between two scrapes
                }
                PrometheusTextParser.Family text = m.get(e.getKey());
                assertTrue(text != null, "text scrape lacks " + e.getKey());
                assertEquals(e.getValue(), text.type, e.getKey());
            }
            assertTrue(protoTypes.containsKey("tributary_epoch_commit_seconds"));
        }
    }

    /** Scrapes until {@code ready} holds for the parsed families, or fails after 60 s. */
    private static Map<String, PrometheusTextParser.Family> scrapeUntil(
            DashboardFixture f, java.util.function.Predicate<Map<String, PrometheusTextParser.Family>> ready)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<String, PrometheusTextParser.Family> m =
                    PrometheusTextParser.parse(f.get("/metrics").body());
            if (ready.test(m)) {
                return m;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never ready: " + m.keySet());
            }
            Thread.sleep(200);
        }
    }

    private static boolean has(
            Map<String, PrometheusTextParser.Family> m, String family, String sample, String... labels) {
        try {
            value(m, family, sample, labels);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    @Test
    void operatorAndSinkSeries() throws Exception {
        String schema = "metrics_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        try (DashboardFixture f = new DashboardFixture(null)) {
            f.exec(
                    "CREATE TABLE t (id bigint PRIMARY KEY, v int)",
                    "CREATE MATERIALIZED VIEW odd AS SELECT id, v FROM t WHERE v % 2 = 1",
                    "INSERT INTO t SELECT g, g % 4 FROM generate_series(1, 400) g",
                    "CREATE SINK k FROM t WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                            + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres',"
                            + " password = 'secret', schema.name = '" + schema + "', table.name = 'out',"
                            + " create_table_if_not_exists = 'true')");
            String rows = "tributary_operator_rows_total";
            Map<String, PrometheusTextParser.Family> m = scrapeUntil(
                    f,
                    s -> has(s, rows, rows, "view", "odd", "operator", "0:StreamMaterialize", "direction", "out")
                            && value(
                                            s,
                                            rows,
                                            rows,
                                            "view",
                                            "odd",
                                            "operator",
                                            "0:StreamMaterialize",
                                            "direction",
                                            "out")
                                    == 200
                            && has(
                                    s,
                                    "tributary_sink_delivered_epoch_seconds",
                                    "tributary_sink_delivered_epoch_seconds",
                                    "sink",
                                    "k",
                                    "part",
                                    "head"));
            assertEquals("counter", m.get(rows).type);
            // the fragment label is the plan graph's; the root is in fragment 0
            assertEquals(
                    200.0,
                    value(
                            m,
                            rows,
                            rows,
                            "view",
                            "odd",
                            "fragment",
                            "0",
                            "operator",
                            "0:StreamMaterialize",
                            "direction",
                            "in"));
            // sinks: the head's delivered epoch is a recent commit time, it is not failing, and has a lag
            double delivered = value(
                    m,
                    "tributary_sink_delivered_epoch_seconds",
                    "tributary_sink_delivered_epoch_seconds",
                    "sink",
                    "k",
                    "part",
                    "head");
            assertTrue(Math.abs(delivered - System.currentTimeMillis() / 1000.0) < 600, "delivered at " + delivered);
            assertEquals(
                    0.0, value(m, "tributary_sink_failing", "tributary_sink_failing", "sink", "k", "part", "head"));
            assertTrue(value(m, "tributary_sink_lag_seconds", "tributary_sink_lag_seconds", "sink", "k", "part", "head")
                    >= 0);
            assertEquals("counter", m.get("tributary_sink_rows_total").type);
            assertTrue(has(m, "tributary_sink_rows_total", "tributary_sink_rows_total", "sink", "k", "part", "head"));
            f.exec("DROP SINK k");
        }
    }

    @Test
    void parserRejectsMalformedScrapes() {
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("x{a=\"1} 1\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("x 1 2 3\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("x one\n"));
        assertThrows(
                IllegalArgumentException.class,
                () -> PrometheusTextParser.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                        + "h_count 1\nh_sum 0\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("a 1\nb 1\na 2\n"));
        assertEquals(
                "a\"b",
                PrometheusTextParser.parse("x{l=\"a\\\"b\"} NaN\n")
                        .get("x")
                        .samples
                        .get(0)
                        .labels()
                        .get("l"));
    }
}
