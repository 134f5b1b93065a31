package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An INSERT's DEFAULT expressions are planned once, whether they take one value per statement
 * ({@code 7}, {@code now()}) or one per row ({@code gen_random_uuid()}, which was planned a
 * second time once the first plan showed it varies per row), and a table without DEFAULT
 * expressions plans none. Counts Calcite's plans (its {@link Hook#PLAN_BEFORE_IMPLEMENTATION},
 * run once per planned query, on any thread) while each statement runs; the values themselves are
 * compared with PostgreSQL's by {@code VolatileDefaultsDifferentialTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DefaultsPlanningTest {
    private Path dataDir;
    private Database db;
    private PgServer server;

    @BeforeEach
    void start() throws IOException {
        dataDir = Files.createTempDirectory("defaults-planning-");
        db = Database.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        try {
            server.close();
        } finally {
            db.close();
            try (Stream<Path> walk = Files.walk(dataDir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void defaultExpressionsArePlannedOncePerStatementText() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("socketTimeout", "30");
        props.setProperty("preferQueryMode", "simple");
        try (Connection c =
                        DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE plain (id int PRIMARY KEY, k int)");
            st.execute("CREATE TABLE constant (id int PRIMARY KEY, k int DEFAULT 7, t timestamptz DEFAULT now())");
            st.execute("CREATE TABLE perrow (id int PRIMARY KEY, g uuid DEFAULT gen_random_uuid(), k int DEFAULT 7)");
            assertEquals(0, plans(st, "INSERT INTO plain (id) VALUES (1), (2)"));
            assertEquals(1, plans(st, "INSERT INTO constant (id) VALUES (1), (2)"));
            assertEquals(1, plans(st, "INSERT INTO perrow (id) VALUES (1), (2)"));
            // the source query and the defaults
            assertEquals(2, plans(st, "INSERT INTO perrow (id) SELECT x FROM generate_series(3, 5) x"));
        }
    }

    /** How many queries Calcite planned while {@code sql} ran. */
    private static int plans(Statement st, String sql) throws SQLException {
        AtomicInteger planned = new AtomicInteger();
        try (Hook.Closeable counting = Hook.PLAN_BEFORE_IMPLEMENTATION.add((Object root) -> {
            planned.incrementAndGet();
        })) {
            st.execute(sql);
        }
        return planned.get();
    }
}
