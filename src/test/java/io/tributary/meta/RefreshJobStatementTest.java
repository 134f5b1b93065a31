package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The job REFRESH starts for a view created WITH NO DATA shows as that REFRESH in SHOW JOBS and
 * {@code ddl_progress}, not as the CREATE ... WITH NO DATA that made the view (which started no job).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RefreshJobStatementTest {
    private static final String QUERY = "SELECT g, count(*) AS n FROM t GROUP BY g";

    @Test
    void refreshJobShowsTheRefresh() throws Exception {
        try (BackfillFixture f = new BackfillFixture(1_000);
                Connection c = f.connect();
                Connection refresher = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT)");
            exec(c, "INSERT INTO t SELECT x, x % 10 FROM generate_series(1, 20000) AS s(x)");
            exec(c, "CREATE MATERIALIZED VIEW m AS " + QUERY + " WITH NO DATA");
            exec(refresher, "SET streaming_parallelism = 1");
            exec(refresher, "SET backfill_rate_limit = 500");
            CompletableFuture<Void> refresh = CompletableFuture.runAsync(() -> {
                try {
                    exec(refresher, "REFRESH MATERIALIZED VIEW m");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            List<String> statements = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (statements.isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "REFRESH's job never showed in SHOW JOBS");
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SHOW JOBS")) {
                    while (rs.next()) {
                        statements.add(rs.getString(2));
                    }
                }
                Thread.sleep(50);
            }
            assertEquals(List.of("REFRESH MATERIALIZED VIEW m"), statements);
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT statement FROM tributary_catalog.ddl_progress")) {
                assertTrue(rs.next(), "ddl_progress lists the job");
                assertEquals("REFRESH MATERIALIZED VIEW m", rs.getString(1));
            }
            exec(c, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT");
            refresh.get(60, TimeUnit.SECONDS);
            assertViewEqualsQuery(c, "m", QUERY);
        }
    }
}
