package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's API over a running server holding three databases ({@code dev}, {@code a},
 * {@code b}), wired as the server's main wires it, through real HTTP requests: the database list,
 * each endpoint answering for the database its {@code ?database=} names (checked against that
 * database's system tables over pgjdbc), a cancel in another database, the cross-database reader
 * with its lag seen from both sides, and a dropped database leaving the list.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MultiDatabaseDashboardTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + served.http.port() + path));
    }

    private static JsonNode json(String path) throws Exception {
        HttpResponse<String> r = send(at(path).GET());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static JsonNode waitFor(String path, Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            JsonNode n = json(path);
            if (ready.test(n)) {
                return n;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " never got ready: " + n);
            }
            Thread.sleep(100);
        }
    }

    private static List<String> names(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }

    @Test
    void everyDatabaseHasItsOwnBoard() throws Exception {
        served.exec("dev", "CREATE DATABASE a", "CREATE DATABASE b");
        served.exec(
                "a",
                "CREATE TABLE t (k int PRIMARY KEY, v int)",
                "INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 3000) g",
                "CREATE VIEW small AS SELECT k, v FROM t WHERE k < 10");
        served.exec(
                "b",
                "CREATE TABLE local (v int PRIMARY KEY, label text)",
                "INSERT INTO local VALUES (0, 'zero'), (1, 'one'), (2, 'two')",
                "CREATE MATERIALIZED VIEW joined AS SELECT l.label, count(*) AS n FROM a.public.t"
                        + " JOIN local l ON t.v = l.v GROUP BY l.label");

        JsonNode databases = json("/api/databases").get("databases");
        assertEquals(List.of("a", "b", "dev"), names(databases, "name"));
        JsonNode a = databases.get(0);
        assertEquals(1, a.get("views").asInt(), a::toString);
        assertEquals(0, a.get("materialized_views").asInt(), a::toString);
        JsonNode b = databases.get(1);
        assertEquals(1, b.get("materialized_views").asInt(), b::toString);
        assertEquals(1, b.get("cross_database_inputs").asInt(), b::toString);
        assertTrue(b.get("committed_epoch").asLong() > 0, b::toString);

        // each database's views, and none of another's
        JsonNode viewsA = json("/api/views?database=a");
        assertEquals(List.of(), names(viewsA.get("views"), "name"));
        assertEquals(List.of("small"), names(viewsA.get("plain_views"), "name"));
        JsonNode viewsB = json("/api/views?database=b");
        assertEquals(List.of("joined"), names(viewsB.get("views"), "name"));
        assertEquals(List.of(), names(viewsB.get("plain_views"), "name"));
        assertEquals(List.of(), names(json("/api/views").get("views"), "name"), "dev is the default");
        assertEquals(200, send(at("/api/views/joined?database=b").GET()).statusCode());
        HttpResponse<String> elsewhere = send(at("/api/views/joined?database=a").GET());
        assertEquals(404, elsewhere.statusCode(), elsewhere.body());

        // the cross-database reader, from the reading side and from the upstream's
        JsonNode inputs = waitFor(
                        "/api/consumers?database=b",
                        n -> n.get("inputs").size() == 1
                                && !n.get("inputs").get(0).get("lag_ms").isNull())
                .get("inputs");
        assertEquals("joined", inputs.get(0).get("view_name").asText());
        assertEquals("a", inputs.get(0).get("upstream_database").asText());
        assertEquals(
                served.rows(
                        "b",
                        "SELECT view_name, upstream_database, upstream_table FROM tributary_catalog.cross_database_inputs"),
                List.of("joined|a|" + inputs.get(0).get("upstream_table").asText()));
        JsonNode readers = json("/api/consumers?database=a").get("readers");
        assertEquals(1, readers.size(), readers::toString);
        assertEquals("b", readers.get(0).get("database").asText());
        assertEquals("joined", readers.get(0).get("view_name").asText());
        assertTrue(readers.get(0).has("lag_epochs") && readers.get(0).has("lag_ms"), readers::toString);
        assertEquals(0, json("/api/consumers?database=dev").get("readers").size());

        // each database's own epochs
        JsonNode epochsA =
                waitFor("/api/epochs?database=a", n -> n.get("commits").size() > 0);
        assertTrue(epochsA.get("committed_epoch").asLong() > 0, epochsA::toString);

        // a backfill in a: its job shows there with its rate history, not in b, and cancels there
        try (Connection c = served.connect("a");
                Statement st = c.createStatement()) {
            st.execute("SET background_ddl = true");
            st.execute("SET backfill_rate_limit = 100");
            st.execute("CREATE MATERIALIZED VIEW slow AS SELECT v, count(*) AS n FROM t GROUP BY v");
        }
        JsonNode job = waitFor("/api/jobs?database=a", n -> n.get("jobs").size() == 1)
                .get("jobs")
                .get(0);
        assertEquals("slow", job.get("view_name").asText());
        assertEquals(
                List.of(job.get("job_id").asText() + "|slow"),
                served.rows("a", "SELECT job_id, view_name FROM tributary_catalog.ddl_progress"));
        assertTrue(job.get("rate_history").isArray() && job.has("progress"), job::toString);
        assertEquals(0, json("/api/jobs?database=b").get("jobs").size());
        assertEquals(0, json("/api/jobs").get("jobs").size());
        int id = job.get("job_id").asInt();
        HttpResponse<String> wrongDb = send(at("/api/jobs/" + id + "/cancel?database=b")
                .header(HttpRoutes.ACTION_HEADER, "cancel")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(404, wrongDb.statusCode(), wrongDb.body());
        HttpResponse<String> cancelled = send(at("/api/jobs/" + id + "/cancel?database=a")
                .header(HttpRoutes.ACTION_HEADER, "cancel")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals(List.of(), served.rows("a", "SELECT job_id FROM tributary_catalog.ddl_progress"));

        // a database that does not exist, and one dropped while the dashboard watches
        HttpResponse<String> missing = send(at("/api/jobs?database=nope").GET());
        assertEquals(404, missing.statusCode());
        assertEquals("3D000", JSON.readTree(missing.body()).get("sqlstate").asText());
        served.exec("b", "DROP MATERIALIZED VIEW joined");
        served.exec("dev", "DROP DATABASE b");
        assertEquals(List.of("a", "dev"), names(json("/api/databases").get("databases"), "name"));
        assertEquals(404, send(at("/api/views?database=b").GET()).statusCode());
    }
}
