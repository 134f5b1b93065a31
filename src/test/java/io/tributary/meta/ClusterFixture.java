package io.tributary.meta;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.WriteBuffer;
import java.nio.file.Path;
import java.util.Set;

/** Opens clusters for tests in other packages, with databases whose commits fail on demand. */
public final class ClusterFixture {
    private ClusterFixture() {}

    /**
     * A cluster in {@code dataDir} whose databases named in {@code failing} (a live set: add and
     * remove names while it runs) fail every epoch commit, as a broken disk would: each failure
     * discards that database's epoch and rebuilds its view jobs from committed state.
     */
    public static Cluster withFailingCommits(Path dataDir, long barrierIntervalMs, Set<String> failing) {
        return Cluster.open(
                dataDir,
                barrierIntervalMs,
                CalciteViewPlanner::new,
                BuiltinConnectors.create(),
                (name, namespace) -> new DelegatingStore(namespace) {
                    @Override
                    public void commit(long epoch, WriteBuffer buffer) {
                        if (failing.contains(name)) {
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
