package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SystemTable;
import io.tributary.common.types.DataType;
import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The system table SPI as a plug-in uses it: a table registered while sessions are open is queryable through
 * pgjdbc with parameters, its canonical values arrive as the right PostgreSQL types, each query sees the rows
 * of that moment, and an unregistered table is gone even for an already prepared statement.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SystemTableQueryTest {
    /** A job list as a plug-in would keep it: rows change under concurrent readers. */
    private static final class JobsTable implements SystemTable {
        final List<Object[]> jobs = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "jobs";
        }

        @Override
        public List<ColumnDef> columns() {
            return List.of(
                    new ColumnDef("job_id", DataType.BIGINT, true, false),
                    new ColumnDef("done", DataType.BOOLEAN, true, false),
                    new ColumnDef("progress", DataType.numeric(5, 2), false, false),
                    new ColumnDef("started_at", DataType.TIMESTAMPTZ, false, false));
        }

        @Override
        public List<Object[]> rows() {
            return new ArrayList<>(jobs);
        }
    }

    private Path dataDir;
    private Database db;
    private PgServer server;

    @BeforeEach
    void start() throws IOException {
        dataDir = Files.createTempDirectory("system-tables-");
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

    private Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("socketTimeout", "30");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    @Test
    void registeredTableIsQueryableWithTypedValuesAndFreshRows() throws SQLException {
        try (Connection c = connect()) {
            JobsTable jobs = new JobsTable();
            db.systemTables().register(jobs);
            long micros = 1_700_000_000_123_000L;
            jobs.jobs.add(new Object[] {7L, false, new BigDecimal("41.50"), micros});
            jobs.jobs.add(new Object[] {8L, true, null, null});
            String sql = "SELECT job_id, done, progress, started_at FROM tributary_catalog.jobs"
                    + " WHERE job_id >= ? ORDER BY job_id DESC";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setLong(1, 7);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(8L, rs.getLong(1));
                    assertTrue(rs.getBoolean(2));
                    assertNull(rs.getBigDecimal(3));
                    assertTrue(rs.next());
                    assertEquals(7L, rs.getLong(1));
                    assertFalse(rs.getBoolean(2));
                    assertEquals(new BigDecimal("41.50"), rs.getBigDecimal(3));
                    assertEquals(
                            Instant.parse("2023-11-14T22:13:20.123Z"),
                            rs.getTimestamp(4).toInstant());
                    assertFalse(rs.next());
                }

                jobs.jobs.add(new Object[] {9L, false, BigDecimal.ZERO, null});
                ps.setLong(1, 9);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(9L, rs.getLong(1));
                    assertFalse(rs.next());
                }

                db.systemTables().unregister("jobs");
                SQLException gone = assertThrows(SQLException.class, ps::executeQuery);
                assertEquals("42P01", gone.getSQLState());
            }
        }
    }
}
