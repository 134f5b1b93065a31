package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.Cluster;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several databases over pgjdbc: CREATE, DROP and SHOW DATABASES, connecting by name, names per
 * database, PostgreSQL's SQLSTATEs (3D000, 42P04, 55006, 25001), the catalog's view of them, and the
 * list surviving a reopen of the cluster.
 */
class DatabasesTest {
    @TempDir
    Path dataDir;

    private Cluster cluster;
    private PgServer server;

    private void start() {
        cluster = Cluster.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(cluster, QueryLimits.defaults()), null);
        server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            cluster.close();
            server = null;
        }
    }

    private Connection connect(String database) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "30");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database, props);
    }

    private static String sqlState(Connection c, String sql) {
        return assertThrows(SQLException.class, () -> {
                    try (Statement st = c.createStatement()) {
                        st.execute(sql);
                    }
                })
                .getSQLState();
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void databasesAreSeparateAndDurable() throws Exception {
        start();
        try (Connection dev = connect("dev")) {
            assertEquals(List.of("dev"), column(dev, "SHOW DATABASES"));
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE \"B b\"");
            assertEquals("42P04", sqlState(dev, "CREATE DATABASE a"));
            assertEquals(List.of("B b", "a", "dev"), column(dev, "SHOW DATABASES"));
            assertEquals(
                    List.of("B b", "a", "dev"), column(dev, "SELECT datname FROM pg_catalog.pg_database ORDER BY 1"));
            assertEquals(List.of("dev"), column(dev, "SELECT current_database()"));
            exec(dev, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)");
            exec(dev, "INSERT INTO t VALUES (1, 'dev')");
        }
        try (Connection a = connect("a");
                Connection b = connect("B b")) {
            assertEquals(List.of("a"), column(a, "SELECT current_database()"));
            assertEquals(List.of("B b"), column(b, "SELECT current_catalog"));
            // names are per database: t in a is not t in dev
            assertEquals("42P01", sqlState(a, "SELECT * FROM t"));
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)");
            exec(a, "INSERT INTO t VALUES (1, 'a'), (2, 'a')");
            exec(a, "CREATE MATERIALIZED VIEW n AS SELECT count(*) AS c FROM t");
            exec(b, "CREATE TABLE t (id BIGINT PRIMARY KEY)");
            exec(b, "INSERT INTO t VALUES (7)");
            assertEquals(List.of("2"), column(a, "SELECT c FROM n"));
            assertEquals(List.of("7"), column(b, "SELECT id FROM t"));
            assertEquals("55006", sqlState(a, "DROP DATABASE a"));
            // b is connected to by another session
            assertEquals("55006", sqlState(a, "DROP DATABASE \"B b\""));
            exec(a, "BEGIN");
            assertEquals("25001", sqlState(a, "CREATE DATABASE c"));
            exec(a, "ROLLBACK");
        }
        assertEquals(
                "3D000", assertThrows(SQLException.class, () -> connect("nope")).getSQLState());

        stop();
        start();
        try (Connection dev = connect("dev");
                Connection a = connect("a")) {
            assertEquals(List.of("B b", "a", "dev"), column(dev, "SHOW DATABASES"));
            assertEquals(List.of("1 dev"), column(dev, "SELECT id || ' ' || v FROM t"));
            assertEquals(List.of("1 a", "2 a"), column(a, "SELECT id || ' ' || v FROM t ORDER BY id"));
            exec(a, "INSERT INTO t VALUES (3, 'a')");
            assertEquals(List.of("3"), column(a, "SELECT c FROM n"));
        }
        try (Connection dev = connect("dev")) {
            exec(dev, "DROP DATABASE a");
            assertEquals("3D000", sqlState(dev, "DROP DATABASE a"));
            try (Statement st = dev.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS a");
                SQLWarning w = st.getWarnings();
                assertTrue(w != null && w.getMessage().contains("does not exist, skipping"), String.valueOf(w));
            }
            assertEquals("0A000", sqlState(dev, "DROP DATABASE dev WITH (FORCE)"));
            assertEquals(List.of("B b", "dev"), column(dev, "SHOW DATABASES"));
            // a new database of the old name starts empty
            exec(dev, "CREATE DATABASE a");
        }
        try (Connection a = connect("a")) {
            assertEquals("42P01", sqlState(a, "SELECT * FROM t"));
        }
        stop();
        start();
        try (Connection dev = connect("dev")) {
            assertEquals(List.of("B b", "a", "dev"), column(dev, "SHOW DATABASES"));
        }
    }
}
