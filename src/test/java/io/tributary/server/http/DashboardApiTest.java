package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.connector.postgres.UpstreamPostgres;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every endpoint of the HTTP side over a real engine: the JSON API shows what the system tables
 * show (checked against the same tables over pgjdbc), cancel runs CANCEL JOBS, the dashboard's
 * files are served, unknown paths and methods get JSON errors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DashboardApiTest {
    private static DashboardFixture f;

    @BeforeAll
    static void start() throws Exception {
        f = new DashboardFixture(null);
    }

    @AfterAll
    static void stop() throws Exception {
        f.close();
    }

    private static List<String> sql(String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = f.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    private static JsonNode waitFor(String path, java.util.function.Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            JsonNode n = f.json(path);
            if (ready.test(n)) {
                return n;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " never got ready: " + n);
            }
            Thread.sleep(100);
        }
    }

    @Test
    void jobsShowDdlProgressAndCancelRunsCancelJobs() throws Exception {
        f.exec(
                "CREATE TABLE big (a int PRIMARY KEY, b int)",
                "INSERT INTO big SELECT g, g % 10 FROM generate_series(1, 20000) g");
        try (Connection c = f.connect();
                Statement st = c.createStatement()) {
            st.execute("SET background_ddl = true");
            st.execute("SET backfill_rate_limit = 100");
            st.execute("CREATE MATERIALIZED VIEW slow AS SELECT b, count(*) AS n FROM big GROUP BY b");
        }
        JsonNode jobs = waitFor("/api/jobs", n -> n.get("jobs").size() == 1);
        JsonNode job = jobs.get("jobs").get(0);
        List<String> rows = sql("SELECT job_id, view_name, statement, background FROM tributary_catalog.ddl_progress");
        assertEquals(
                List.of(job.get("job_id").asText() + "|" + job.get("view_name").asText() + "|"
                        + job.get("statement").asText() + "|"
                        + (job.get("background").asBoolean() ? "t" : "f")),
                rows);
        assertEquals("slow", job.get("view_name").asText());
        assertTrue(job.has("phase") && job.has("progress") && job.has("rows_done") && job.has("eta"), job::toString);
        assertTrue(job.get("rate_history").isArray());
        int id = job.get("job_id").asInt();

        HttpResponse<String> unmarked = f.post("/api/jobs/" + id + "/cancel");
        assertEquals(403, unmarked.statusCode(), "a POST without the action header is refused");
        assertEquals(1, sql("SELECT job_id FROM tributary_catalog.ddl_progress").size());

        HttpResponse<String> cancelled = f.post("/api/jobs/" + id + "/cancel", HttpRoutes.ACTION_HEADER, "cancel");
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals(
                id,
                DashboardFixture.parse(cancelled.body()).get("cancelled").get(0).asInt());
        assertEquals(List.of(), sql("SELECT job_id FROM tributary_catalog.ddl_progress"));
        assertEquals(0, f.json("/api/jobs").get("jobs").size());
        assertEquals(List.of(), sql("SELECT name FROM tributary_catalog.relations WHERE name = 'slow'"));

        HttpResponse<String> again = f.post("/api/jobs/" + id + "/cancel", HttpRoutes.ACTION_HEADER, "cancel");
        assertEquals(404, again.statusCode(), again.body());
    }

    @Test
    void sourcesShowSourceProgressWithRates() throws Exception {
        f.exec("CREATE TABLE gen (id bigint PRIMARY KEY, g int) WITH (connector = 'datagen',"
                + " fields.id.kind = 'sequence', datagen.rows.per.second = '500', datagen.split.num = '2')");
        JsonNode sources = waitFor("/api/sources", n -> {
            int withRate = 0;
            for (JsonNode s : n.get("splits")) {
                if (s.get("table_name").asText().equals("gen")
                        && s.get("recent_rows_per_second").asDouble() > 0) {
                    withRate++;
                }
            }
            return withRate == 2;
        });
        Set<String> apiSplits = new HashSet<>();
        for (JsonNode s : sources.get("splits")) {
            if (s.get("table_name").asText().equals("gen")) {
                apiSplits.add(s.get("split").asText() + "|" + s.get("connector").asText());
                assertTrue(s.get("rate_history").size() > 0);
                assertTrue(s.has("lag_ms") && s.has("skipped_inputs") && s.has("last_error"), s::toString);
            }
        }
        assertEquals(
                new HashSet<>(
                        sql("SELECT split, connector FROM tributary_catalog.source_progress WHERE table_name = 'gen'")),
                apiSplits);
        assertTrue(sources.get("errors").isArray());
        JsonNode history = f.json("/api/metrics/history");
        assertEquals(RateHistory.WINDOW_SECONDS, history.get("window_seconds").asInt());
        assertTrue(history.get("series").fieldNames().hasNext());
        f.exec("DROP TABLE gen");
    }

    @Test
    void sinksShowSinkProgress() throws Exception {
        JsonNode none = f.json("/api/sinks");
        assertTrue(none.get("available").asBoolean(), "the engine always has sink_progress");
        String schema = "dash_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        f.exec(
                "CREATE TABLE to_sink (id bigint PRIMARY KEY, v int)",
                "INSERT INTO to_sink SELECT g, g FROM generate_series(1, 100) g",
                "CREATE SINK to_pg FROM to_sink WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                        + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', password = 'secret',"
                        + " schema.name = '" + schema + "', table.name = 'out', create_table_if_not_exists = 'true')");
        try {
            JsonNode some = waitFor("/api/sinks", n -> {
                for (JsonNode s1 : n.get("sinks")) {
                    if (s1.get("sink_name").asText().equals("to_pg")
                            && s1.get("part").asText().equals("head")
                            && s1.get("epoch").asLong() > 0) {
                        return true;
                    }
                }
                return false;
            });
            // the API's rows are sink_progress's rows, as SQL shows them (heads: a backfill row may come and go)
            Set<String> api = new HashSet<>();
            for (JsonNode s1 : some.get("sinks")) {
                if (s1.get("part").asText().equals("head")) {
                    api.add(s1.get("sink_name").asText() + "|"
                            + s1.get("relation").asText());
                }
            }
            assertEquals(
                    new HashSet<>(
                            sql("SELECT sink_name, relation FROM tributary_catalog.sink_progress WHERE part = 'head'")),
                    api);
        } finally {
            f.exec("DROP SINK to_pg");
        }
    }

    @Test
    void aSinkBackfillIsAJobWithItsVnodeProgress() throws Exception {
        String schema = "dash_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        f.exec(
                "CREATE TABLE slow_src (id bigint PRIMARY KEY, v int)",
                "INSERT INTO slow_src SELECT g, g FROM generate_series(1, 400) g",
                // a slow backfill, so it is seen while it runs
                "SET sink_rate_limit = 40",
                "CREATE SINK slow_pg FROM slow_src WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                        + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', password = 'secret',"
                        + " schema.name = '" + schema + "', table.name = 'out', create_table_if_not_exists = 'true')");
        try {
            JsonNode jobs = waitFor(
                    "/api/jobs",
                    n -> sinkJob(n) != null && sinkJob(n).get("rows_done").asLong() > 0);
            JsonNode job = sinkJob(jobs);
            assertEquals("sink backfill", job.get("kind").asText());
            assertEquals("snapshotting", job.get("phase").asText());
            double progress = job.get("progress").asDouble();
            assertTrue(progress >= 0 && progress < 100, "progress " + progress);
            // the progress is sink_progress's vnodes, as SQL shows them
            List<String> vnodes = sql(
                    "SELECT vnodes_total FROM tributary_catalog.sink_progress WHERE sink_name = 'slow_pg' AND part = 'backfill'");
            assertEquals(List.of("256"), vnodes);
            assertTrue(job.has("rate_history") && job.has("eta"));
        } finally {
            f.exec("DROP SINK slow_pg");
        }
        waitFor("/api/jobs", n -> sinkJob(n) == null);
    }

    private static JsonNode sinkJob(JsonNode jobs) {
        for (JsonNode j : jobs.get("jobs")) {
            if (j.get("job_id").asText().equals("sink:slow_pg")) {
                return j;
            }
        }
        return null;
    }

    @Test
    void viewsListAndPlanGraph() throws Exception {
        f.exec(
                "CREATE TABLE small (a int PRIMARY KEY, b int)",
                "INSERT INTO small SELECT g, g % 7 FROM generate_series(1, 1000) g",
                "CREATE MATERIALIZED VIEW per_b AS SELECT b, count(*) AS n FROM small GROUP BY b");
        JsonNode views = f.json("/api/views");
        JsonNode perB = null;
        for (JsonNode v : views.get("views")) {
            if (v.get("name").asText().equals("per_b")) {
                perB = v;
            }
        }
        assertTrue(perB != null, views::toString);
        assertEquals("ready", perB.get("status").asText());
        assertTrue(perB.get("state_bytes").asLong() >= 0);

        JsonNode detail = f.json("/api/views/per_b");
        JsonNode plan = detail.get("plan");
        JsonNode nodes = plan.get("nodes");
        assertEquals("StreamMaterialize", nodes.get(0).get("operator").asText());
        assertEquals(nodes.size() - 1, plan.get("edges").size(), "a tree: one edge per input");
        List<String> operators = new ArrayList<>();
        List<Integer> stateTables = new ArrayList<>();
        for (JsonNode n : nodes) {
            operators.add(n.get("operator").asText());
            n.get("stateTables").forEach(t -> stateTables.add(t.asInt()));
        }
        assertTrue(operators.contains("StreamHashAgg") && operators.contains("StreamSource"), operators::toString);
        // the graph's operators and state tables are EXPLAIN's
        String explain = String.join(
                "\n", sql("EXPLAIN CREATE MATERIALIZED VIEW per_b2 AS SELECT b, count(*) AS n FROM small GROUP BY b"));
        for (String op : operators) {
            assertTrue(explain.contains(op), explain);
        }
        assertFalse(stateTables.isEmpty());
        for (int t : stateTables) {
            assertTrue(detail.get("table_bytes").has(Integer.toString(t)), detail::toString);
        }
        assertTrue(plan.get("fragmentCount").asInt() >= 1);

        HttpResponse<String> missing = f.get("/api/views/nope");
        assertEquals(404, missing.statusCode());
        assertEquals(
                "42P01", DashboardFixture.parse(missing.body()).get("sqlstate").asText());
    }

    /** The operators of {@code view} from its API detail, by operator name (each appears once here). */
    private static java.util.Map<String, JsonNode> operatorsOf(JsonNode detail) {
        java.util.Map<String, JsonNode> out = new java.util.HashMap<>();
        for (JsonNode op : detail.get("operators")) {
            assertTrue(out.put(op.get("operator").asText(), op) == null, detail::toString);
        }
        return out;
    }

    @Test
    void operatorRowsAndRatesAddUp() throws Exception {
        f.exec(
                "CREATE TABLE flow (id bigint PRIMARY KEY, v int)",
                "CREATE MATERIALIZED VIEW odd_flow AS SELECT id, v FROM flow WHERE v % 2 = 1",
                "INSERT INTO flow SELECT g, g % 5 FROM generate_series(1, 3000) g");
        long expected = Long.parseLong(sql("SELECT count(*) FROM odd_flow").get(0));
        assertEquals(1200, expected);
        // the plan graph and the counts number operators alike: node ids match and so do the names
        JsonNode detail = waitFor("/api/views/odd_flow", d -> {
            java.util.Map<String, JsonNode> ops = operatorsOf(d);
            return ops.containsKey("StreamMaterialize")
                    && ops.get("StreamMaterialize").get("rows_out").asLong() == expected;
        });
        JsonNode nodes = detail.get("plan").get("nodes");
        assertEquals(nodes.size(), detail.get("operators").size(), detail::toString);
        for (JsonNode op : detail.get("operators")) {
            JsonNode node = nodes.get(op.get("node").asInt());
            assertEquals(node.get("operator").asText(), op.get("operator").asText());
            assertEquals(node.get("fragment").asInt(), op.get("fragment").asInt());
        }
        java.util.Map<String, JsonNode> ops = operatorsOf(detail);
        JsonNode source = ops.get("StreamSource");
        JsonNode filter = ops.get("StreamFilter");
        JsonNode materialize = ops.get("StreamMaterialize");
        assertEquals(3000, source.get("rows_out").asLong(), detail::toString);
        assertEquals(3000, filter.get("rows_in").asLong(), detail::toString);
        assertTrue(filter.get("rows_out").asLong() <= filter.get("rows_in").asLong());
        assertEquals(expected, filter.get("rows_out").asLong(), "only odd v passes the filter");
        // the view's last operator gives out exactly the view's changes: one insert per row
        assertEquals(expected, materialize.get("rows_in").asLong());
        assertEquals(expected, materialize.get("rows_out").asLong());

        // while rows flow the sampled rates become positive, then the history holds the series
        f.exec("CREATE TABLE ticks (id bigint PRIMARY KEY) WITH (connector = 'datagen',"
                + " fields.id.kind = 'sequence', datagen.rows.per.second = '2000')");
        f.exec("CREATE MATERIALIZED VIEW tick_view AS SELECT id FROM ticks WHERE id % 2 = 0");
        JsonNode flowing = waitFor("/api/views/tick_view", d -> {
            JsonNode m = operatorsOf(d).get("StreamMaterialize");
            return m != null && m.get("rows_out_per_second").asDouble() > 0;
        });
        java.util.Map<String, JsonNode> tickOps = operatorsOf(flowing);
        assertTrue(tickOps.get("StreamSource").get("rows_out").asLong() > 0, flowing::toString);
        assertTrue(tickOps.get("StreamFilter").get("rows_out").asLong()
                <= tickOps.get("StreamFilter").get("rows_in").asLong());
        assertTrue(tickOps.get("StreamMaterialize").get("rate_history").size() > 0);
        assertTrue(f.json("/api/metrics/history").get("series").has("operator:tick_view/0/out"));
        f.exec("DROP TABLE ticks CASCADE");
    }

    @Test
    void epochsShowCommitLatencies() throws Exception {
        JsonNode epochs = waitFor("/api/epochs", n -> n.get("commits").size() > 2);
        assertEquals(50, epochs.get("barrier_interval_ms").asLong());
        assertTrue(epochs.get("committed_epoch").asLong() > 0);
        JsonNode last = epochs.get("commits").get(epochs.get("commits").size() - 1);
        assertTrue(last.get(0).asLong() <= epochs.get("committed_epoch").asLong());
        assertTrue(last.get(2).asDouble() >= 0);
    }

    @Test
    void dashboardFilesAndErrors() throws Exception {
        HttpResponse<String> index = f.get("/");
        assertEquals(200, index.statusCode());
        assertTrue(index.headers().firstValue("content-type").orElseThrow().startsWith("text/html"));
        assertTrue(index.body().contains("<script src=\"/app.js\">"));
        assertEquals(200, f.get("/app.js").statusCode());
        assertEquals(200, f.get("/style.css").statusCode());
        HttpResponse<String> missing = f.get("/nope");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
        HttpResponse<String> put = f.client.send(
                HttpRequest.newBuilder(URI.create(f.url("/api/jobs")))
                        .PUT(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, put.statusCode());
    }
}
