package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.meta.ddl.JobInfo;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.backfill.BackfillProgress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A view's job stays listed (in {@code ddl_progress} and SHOW JOBS) from the epoch that joins it to
 * the live flow until that epoch commits, but from then on its runtime reports no backfill: its rows
 * done must stay at what they showed, not drop to 0. Epoch commits are slowed down here (a slow
 * disk's sync) so that moment lasts long enough for every poll to see it; on a loaded machine it
 * was the last {@code ddl_progress} sample of {@code RemoteViewJobTest}'s fallback that read 0.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JoiningJobProgressTest {
    private static final int ROWS = 20_000;
    private static final long COMMIT_MS = 300;
    private static final String QUERY = "SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g";

    @TempDir
    Path dir;

    @Test
    void rowsDoneDoNotDropWhileTheJoiningEpochCommits() throws Exception {
        AtomicLong commitDelayMs = new AtomicLong();
        try (StateStore rocks = RocksStateStore.open(dir.resolve("state"))) {
            StateStore slowDisk = new DelegatingStore(rocks) {
                @Override
                public void commit(long epoch, WriteBuffer buffer) {
                    try {
                        Thread.sleep(commitDelayMs.get());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.commit(epoch, buffer);
                }
            };
            Database db = Database.open(
                    Catalog.DATABASE,
                    () -> List.of(new DatabaseEntry(Catalog.DATABASE, 0)),
                    slowDisk,
                    20,
                    CalciteViewPlanner::new,
                    BuiltinConnectors.create(),
                    JobPlacement.localOnly());
            PgServer server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
            server.start();
            try (Connection c = DriverManager.getConnection(
                    "jdbc:postgresql://127.0.0.1:" + server.port() + "/dev?user=root&socketTimeout=120")) {
                exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
                exec(c, "INSERT INTO t SELECT x, x % 10, x FROM generate_series(1, " + ROWS + ") AS s(x)");
                exec(c, "SET background_ddl = true");
                exec(c, "SET streaming_parallelism = 1");
                // a few checkpoints' worth of progress before the job joins
                exec(c, "SET backfill_rate_limit = 10000");
                commitDelayMs.set(COMMIT_MS);
                exec(c, "CREATE MATERIALIZED VIEW m AS " + QUERY);
                int job = db.catalog().table("m").orElseThrow().id();
                List<Long> samples = new ArrayList<>();
                for (BackfillProgress p = progress(db, job, true); p != null; p = progress(db, job, false)) {
                    samples.add(p.rowsDone());
                    Thread.sleep(1);
                }
                commitDelayMs.set(0);
                long most = 0;
                for (int i = 0; i < samples.size(); i++) {
                    long done = samples.get(i);
                    assertTrue(
                            done >= most,
                            "rows done went back from " + most + " to " + done + " (sample " + i + " of "
                                    + samples.size() + ")");
                    most = done;
                }
                assertTrue(most > 0, "the job showed rows done before it joined: " + most);
                assertViewEqualsQuery(c, "m", QUERY);
            } finally {
                server.close();
                db.close();
            }
        }
    }

    /**
     * Job {@code job}'s progress as {@code ddl_progress} gives it (a listed job without one reads 0
     * rows done there), or null once the job is no longer listed; {@code first}: the job is listed.
     */
    private static BackfillProgress progress(Database db, int job, boolean first) {
        for (JobInfo info : db.ddl().jobs()) {
            if (info.id() == job) {
                return info.progress() == null
                        ? new BackfillProgress(0, 0, -1, false, 0, java.util.Map.of(), List.of())
                        : info.progress();
            }
        }
        assertTrue(!first, "job " + job + " is listed once CREATE returned");
        return null;
    }
}
