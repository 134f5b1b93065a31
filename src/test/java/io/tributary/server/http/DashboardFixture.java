package io.tributary.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.pgwire.ScramCredentials;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A database with its pgwire server and HTTP listener wired as the server's main wires them
 * (shared credentials, statements reported to the meters), on free ports and a fresh directory,
 * which closing deletes. HTTP through the JDK's client, SQL through pgjdbc.
 */
final class DashboardFixture implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path dataDir;
    final Database db;
    final EngineMeters meters;
    final PgServer pg;
    final DashboardServer http;
    private final String password;
    final HttpClient client = HttpClient.newHttpClient();

    /** @param password the server's password, or null for a loopback-only, trusting server */
    DashboardFixture(String password) throws IOException {
        this.password = password;
        dataDir = Files.createTempDirectory("dashboard-");
        db = Database.open(dataDir, 50, CalciteViewPlanner::new);
        ScramCredentials credentials = password == null ? null : ScramCredentials.derive(password, new SecureRandom());
        EngineSessionFactory sessions = new EngineSessionFactory(db);
        meters = EngineMeters.bind(() -> java.util.List.of(db));
        pg = new PgServer("127.0.0.1", 0, sessions, credentials, meters);
        pg.start();
        http = new DashboardServer("127.0.0.1", 0, () -> java.util.List.of(db), sessions, credentials, meters);
        http.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + http.port() + path;
    }

    Connection connect() throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/dev?user=root";
        return password == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, "root", password);
    }

    void exec(String... sqls) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String sql : sqls) {
                st.execute(sql);
            }
        }
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).POST(HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GET that must answer 200 with JSON. */
    JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) {
            throw new AssertionError(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    static JsonNode parse(String body) throws IOException {
        return JSON.readTree(body);
    }

    @Override
    public void close() throws IOException {
        http.close();
        meters.close();
        pg.close();
        db.close();
        try (Stream<Path> paths = Files.walk(dataDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
