package io.tributary.server.http;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tributary.meta.Database;
import io.tributary.meta.epoch.BarrierManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One database's meters in the server's registry, every series labelled {@code database="NAME"}:
 * its epoch commit latency and barrier interval histograms, configured interval, barrier lag and
 * committed epoch, and its engine {@link io.tributary.common.metrics.MetricSet}s (sources, backfill
 * jobs, RocksDB column families, view state sizes, sinks).
 *
 * <p>Made by {@link EngineMeters} when it first sees the database open and {@link #close() closed}
 * when the database is gone (dropped, or dropped and created again: then a new instance follows
 * the new database), so no series outlives its database. The barrier thread records commits; the
 * scrape refreshes the metric sets. Thread-safe.
 */
final class DatabaseMeters implements BarrierManager.CommitListener {
    /** The label every per-database series carries. */
    static final String LABEL = "database";

    private final Database db;
    private final MeterRegistry registry;
    private final MetricSetMeters sets;
    private final Timer commits;
    private final Timer barrierIntervals;
    private final List<Meter> gauges = new ArrayList<>();
    private volatile boolean closed;

    DatabaseMeters(Database db, MeterRegistry registry) {
        this.db = db;
        this.registry = registry;
        Tags tags = Tags.of(LABEL, db.name());
        sets = new MetricSetMeters(db.metrics(), registry, db.name());
        // a dozen fixed buckets, rather than Micrometer's ~70 percentile buckets, keep the scrape small
        commits = Timer.builder("tributary_epoch_commit")
                .description("Time to commit an epoch: the streaming engine's barrier and the synced write")
                .tags(tags)
                .serviceLevelObjectives(millis(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000))
                .register(registry);
        barrierIntervals = Timer.builder("tributary_barrier_interval")
                .description("Time between two durable epochs (configured: tributary_barrier_interval_configured)")
                .tags(tags)
                .serviceLevelObjectives(millis(1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10000, 30000, 60000))
                .register(registry);
        BarrierManager barriers = db.barriers();
        gauges.add(Gauge.builder("tributary_barrier_interval_configured", barriers, b -> b.intervalMillis() / 1000.0)
                .description("The configured epoch length, --barrier-interval-ms")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry));
        gauges.add(Gauge.builder("tributary_barrier_lag", barriers, b -> Math.max(0, b.nanosSinceLastCommit()) / 1e9)
                .description("Time since the last durable epoch; above the interval the barrier is late")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry));
        gauges.add(Gauge.builder("tributary_committed_epoch", barriers, b -> b.committedEpoch())
                .description("The last committed epoch")
                .tags(tags)
                .register(registry));
        barriers.addCommitListener(this);
    }

    private static Duration[] millis(long... ms) {
        Duration[] out = new Duration[ms.length];
        for (int i = 0; i < ms.length; i++) {
            out[i] = Duration.ofMillis(ms[i]);
        }
        return out;
    }

    /** The database these meters follow (identity tells a re-created database of the same name). */
    Database database() {
        return db;
    }

    @Override
    public void committed(long epoch, long commitNanos, long sinceLastCommitNanos) {
        if (closed) {
            return; // the database is gone; its barrier thread may commit a last epoch while closing
        }
        commits.record(commitNanos, TimeUnit.NANOSECONDS);
        if (sinceLastCommitNanos >= 0) {
            barrierIntervals.record(sinceLastCommitNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Samples the database's metric sets into their series; called before each scrape. */
    void refresh() {
        sets.refresh();
    }

    /** Removes every series of this database from the registry. */
    void close() {
        closed = true;
        registry.remove(commits);
        registry.remove(barrierIntervals);
        gauges.forEach(registry::remove);
        sets.removeAll();
    }
}
