package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE and DROP DATABASE under {@code kill -9}: a client creates databases, writes a row into each
 * and drops every other one, until the server is killed. After the restart the list holds every
 * acknowledged CREATE not followed by an acknowledged DROP, none acknowledged as dropped, and at most
 * the one statement in flight differs; every database's acknowledged row is there exactly once, and
 * each database still takes writes.
 */
class DatabasesCrashTest {
    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    private static String url(ServerProcess server, String database) {
        return server.jdbcUrl().replace("/dev?", "/" + database + "?");
    }

    @Test
    void databaseListAndContentsSurviveKill9() throws Exception {
        Path dataDir = tempDir.resolve("dbs");
        ServerProcess server = servers.start(dataDir, 20);
        // name -> rows acknowledged in it; present while its CREATE is acknowledged and no DROP is
        Set<String> live = ConcurrentHashMap.newKeySet();
        Set<String> dropped = ConcurrentHashMap.newKeySet();
        Set<String> withRow = ConcurrentHashMap.newKeySet();
        AtomicReference<String> inFlight = new AtomicReference<>();
        ServerProcess running = server;
        Thread client = new Thread(() -> {
            try (Connection dev = DriverManager.getConnection(url(running, "dev"));
                    Statement st = dev.createStatement()) {
                for (int i = 0; ; i++) {
                    String name = "d" + i;
                    inFlight.set(name);
                    st.execute("CREATE DATABASE " + name);
                    live.add(name);
                    try (Connection c = DriverManager.getConnection(url(running, name));
                            Statement s = c.createStatement()) {
                        s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
                        s.execute("INSERT INTO t VALUES (" + i + ")");
                    }
                    withRow.add(name);
                    if (i % 2 == 1) {
                        String doomed = "d" + (i - 1);
                        inFlight.set(doomed);
                        st.execute("DROP DATABASE " + doomed);
                        live.remove(doomed);
                        dropped.add(doomed);
                    }
                    inFlight.set(null);
                }
            } catch (SQLException e) {
                // the kill
            }
        });
        client.start();
        while (live.size() + dropped.size() < 12 && client.isAlive()) {
            Thread.sleep(20);
        }
        server.kill9();
        client.join(30_000);

        server = servers.start(dataDir, 20);
        Set<String> listed = new TreeSet<>();
        try (Connection dev = DriverManager.getConnection(url(server, "dev"));
                Statement st = dev.createStatement();
                ResultSet rs = st.executeQuery("SELECT datname FROM pg_database")) {
            while (rs.next()) {
                listed.add(rs.getString(1));
            }
        }
        listed.remove("dev");
        Set<String> expected = new TreeSet<>(live);
        String pending = inFlight.get();
        if (pending != null) {
            // the statement in flight at the kill may or may not have committed
            listed.remove(pending);
            expected.remove(pending);
        }
        assertEquals(expected, listed, "databases after the restart");
        assertTrue(listed.size() >= 3, "too few databases to say anything: " + listed);
        for (String name : listed) {
            try (Connection c = DriverManager.getConnection(url(server, name));
                    Statement s = c.createStatement()) {
                int id = Integer.parseInt(name.substring(1));
                List<Integer> ids = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT id FROM t")) {
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                } catch (SQLException e) {
                    // killed between the CREATE DATABASE's and the CREATE TABLE's acknowledgements
                    assertEquals("42P01", e.getSQLState(), name + ": " + e.getMessage());
                    assertTrue(!withRow.contains(name), name + " lost its table");
                    continue;
                }
                if (withRow.contains(name)) {
                    assertEquals(List.of(id), ids, "rows of " + name);
                } else {
                    assertTrue(ids.isEmpty() || ids.equals(List.of(id)), "rows of " + name + ": " + ids);
                }
                s.execute("INSERT INTO t VALUES (-1)");
            }
        }
    }

    /**
     * CREATE and DROP SCHEMA under {@code kill -9}: a client creates schemas in database {@code x},
     * dropping every other one, until the kill. After the restart {@code x}'s schemas are the
     * acknowledged ones (the statement in flight either way), and {@code dev}, whose schemas are its
     * own, has none of them.
     */
    @Test
    void schemasSurviveKill9() throws Exception {
        Path dataDir = tempDir.resolve("schemas");
        ServerProcess server = servers.start(dataDir, 20);
        try (Connection dev = DriverManager.getConnection(url(server, "dev"));
                Statement st = dev.createStatement()) {
            st.execute("CREATE DATABASE x");
        }
        Set<String> live = ConcurrentHashMap.newKeySet();
        AtomicReference<String> inFlight = new AtomicReference<>();
        ServerProcess running = server;
        Thread client = new Thread(() -> {
            try (Connection x = DriverManager.getConnection(url(running, "x"));
                    Statement st = x.createStatement()) {
                for (int i = 0; ; i++) {
                    String name = "s" + i;
                    inFlight.set(name);
                    st.execute("CREATE SCHEMA " + name);
                    live.add(name);
                    if (i % 2 == 1) {
                        String doomed = "s" + (i - 1);
                        inFlight.set(doomed);
                        st.execute("DROP SCHEMA " + doomed);
                        live.remove(doomed);
                    }
                    inFlight.set(null);
                }
            } catch (SQLException e) {
                // the kill
            }
        });
        client.start();
        while (live.size() < 10 && client.isAlive()) {
            Thread.sleep(10);
        }
        server.kill9();
        client.join(30_000);

        server = servers.start(dataDir, 20);
        Set<String> listed = schemas(url(server, "x"));
        Set<String> expected = new TreeSet<>(live);
        String pending = inFlight.get();
        if (pending != null) {
            listed.remove(pending);
            expected.remove(pending);
        }
        assertEquals(expected, listed, "schemas of x after the restart");
        assertTrue(listed.size() >= 5, "too few schemas to say anything: " + listed);
        assertEquals(Set.of(), schemas(url(server, "dev")), "schemas of dev");
    }

    /**
     * Tables of one name in two schemas, written until {@code kill -9}: after the restart each holds
     * exactly its acknowledged rows (plus at most the one in flight), the search path still chooses
     * between them, and DROP SCHEMA still sees what the schema holds.
     */
    @Test
    void tablesInSchemasSurviveKill9() throws Exception {
        Path dataDir = tempDir.resolve("schema-tables");
        ServerProcess server = servers.start(dataDir, 20);
        try (Connection dev = DriverManager.getConnection(url(server, "dev"));
                Statement st = dev.createStatement()) {
            st.execute("CREATE SCHEMA sa");
            st.execute("CREATE SCHEMA sb");
            st.execute("CREATE TABLE sa.t (k INT PRIMARY KEY)");
            st.execute("CREATE TABLE sb.t (k INT PRIMARY KEY)");
        }
        Map<String, Set<Integer>> acked =
                Map.of("sa", ConcurrentHashMap.newKeySet(), "sb", ConcurrentHashMap.newKeySet());
        AtomicReference<String> inFlight = new AtomicReference<>();
        ServerProcess running = server;
        Thread client = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url(running, "dev"));
                    Statement st = c.createStatement()) {
                for (int i = 0; ; i++) {
                    String schema = i % 2 == 0 ? "sa" : "sb";
                    inFlight.set(schema + ":" + i);
                    st.execute("SET search_path = " + schema);
                    st.execute("INSERT INTO t VALUES (" + i + ")");
                    acked.get(schema).add(i);
                    inFlight.set(null);
                }
            } catch (SQLException e) {
                // the kill
            }
        });
        client.start();
        while (acked.get("sb").size() < 20 && client.isAlive()) {
            Thread.sleep(10);
        }
        server.kill9();
        client.join(30_000);

        server = servers.start(dataDir, 20);
        String pending = inFlight.get();
        try (Connection dev = DriverManager.getConnection(url(server, "dev"));
                Statement st = dev.createStatement()) {
            for (String schema : List.of("sa", "sb")) {
                Set<Integer> rows = new TreeSet<>();
                try (ResultSet rs = st.executeQuery("SELECT k FROM " + schema + ".t")) {
                    while (rs.next()) {
                        rows.add(rs.getInt(1));
                    }
                }
                if (pending != null && pending.startsWith(schema + ":")) {
                    rows.remove(Integer.parseInt(pending.substring(3)));
                }
                assertEquals(new TreeSet<>(acked.get(schema)), rows, "rows of " + schema + ".t after the restart");
            }
            st.execute("SET search_path = sb, sa");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM t WHERE k % 2 = 0")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1), "unqualified t reaches sb.t, which holds odd keys only");
            }
            SQLException refused = assertThrows(SQLException.class, () -> st.execute("DROP SCHEMA sa"));
            assertEquals("2BP01", refused.getSQLState());
            st.execute("DROP SCHEMA sa CASCADE");
            SQLException gone = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM sa.t"));
            assertEquals("42P01", gone.getSQLState());
        }
    }

    /** The names of the database's schemas made by CREATE SCHEMA (those named s and digits). */
    private static Set<String> schemas(String url) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT nspname FROM pg_catalog.pg_namespace")) {
            while (rs.next()) {
                if (rs.getString(1).matches("s[0-9]+")) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
