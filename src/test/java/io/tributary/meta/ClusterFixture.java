package io.tributary.meta;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.WriteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** Opens clusters for tests in other packages, with databases whose commits fail on demand. */
public final class ClusterFixture {
    private ClusterFixture() {}

    /**
     * A cluster in {@code dataDir} where database {@code name}'s next epoch commit fails (as on a
     * broken disk) whenever {@code failNext} is above 0, which each failure counts down: each failure
     * discards that database's epoch and rebuilds its view jobs from committed state.
     */
    public static Cluster withFailingCommits(
            Path dataDir, long barrierIntervalMs, String failing, AtomicInteger failNext) {
        return Cluster.open(
                dataDir,
                barrierIntervalMs,
                CalciteViewPlanner::new,
                BuiltinConnectors.create(),
                JobPlacement.localOnly(),
                (name, namespace) -> new DelegatingStore(namespace) {
                    @Override
                    public void commit(long epoch, WriteBuffer buffer) {
                        if (name.equals(failing) && failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            throw new TributaryException(SqlState.INTERNAL_ERROR, "disk of " + name + " on fire");
                        }
                        super.commit(epoch, buffer);
                    }

                    @Override
                    public void close() {
                        namespace.close();
                    }
                });
    }
}
