package io.tributary.server.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tributary.meta.Database;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.server.pgwire.StatementObserver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The server's Micrometer registry, scraped as Prometheus text at {@code /metrics}: JVM and
 * process meters, epoch commit latency and barrier interval histograms, barrier lag, statements
 * by kind and errors by SQLSTATE class, and the engine's {@link io.tributary.common.metrics.MetricSet}s
 * (sources, backfill jobs, RocksDB, view state sizes; sinks register theirs there too).
 *
 * <p>Built once by the server's main before the pgwire server (which reports statements to it);
 * the barrier thread and session threads record into it, HTTP requests scrape it. Thread-safe.
 */
public final class EngineMeters implements StatementObserver, BarrierManager.CommitListener, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MetricSetMeters engineSets;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Timer commits;
    private final Timer barrierIntervals;
    private final ConcurrentMap<String, Timer> statements = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();

    private EngineMeters(Database db) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        engineSets = new MetricSetMeters(db.metrics(), registry);
        // a dozen fixed buckets, rather than Micrometer's ~70 percentile buckets, keep the scrape small
        commits = Timer.builder("tributary_epoch_commit")
                .description("Time to commit an epoch: the streaming engine's barrier and the synced write")
                .serviceLevelObjectives(millis(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000))
                .register(registry);
        barrierIntervals = Timer.builder("tributary_barrier_interval")
                .description("Time between two durable epochs (configured: tributary_barrier_interval_configured)")
                .serviceLevelObjectives(millis(1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10000, 30000, 60000))
                .register(registry);
        BarrierManager barriers = db.barriers();
        Gauge.builder("tributary_barrier_interval_configured", barriers, b -> b.intervalMillis() / 1000.0)
                .description("The configured epoch length, --barrier-interval-ms")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("tributary_barrier_lag", barriers, b -> Math.max(0, b.nanosSinceLastCommit()) / 1e9)
                .description("Time since the last durable epoch; above the interval the barrier is late")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("tributary_committed_epoch", barriers, b -> b.committedEpoch())
                .description("The last committed epoch")
                .register(registry);
        barriers.addCommitListener(this);
    }

    private static Duration[] millis(long... ms) {
        Duration[] out = new Duration[ms.length];
        for (int i = 0; i < ms.length; i++) {
            out[i] = Duration.ofMillis(ms[i]);
        }
        return out;
    }

    /** Builds the meters over {@code db} and starts listening to its commits. */
    public static EngineMeters bind(Database db) {
        return new EngineMeters(db);
    }

    @Override
    public void committed(long epoch, long commitNanos, long sinceLastCommitNanos) {
        commits.record(commitNanos, TimeUnit.NANOSECONDS);
        if (sinceLastCommitNanos >= 0) {
            barrierIntervals.record(sinceLastCommitNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void completed(String kind, long nanos) {
        statements
                .computeIfAbsent(
                        kind,
                        k -> Timer.builder("tributary_statement")
                                .description("Client statements by command tag, from execution to CommandComplete")
                                .tag("kind", k)
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void failed(String sqlState) {
        String sqlClass = sqlState == null || sqlState.length() < 2 ? "XX" : sqlState.substring(0, 2);
        errors.computeIfAbsent(
                        sqlClass,
                        c -> Counter.builder("tributary_statement_errors")
                                .description("Client statements that failed, by SQLSTATE class")
                                .tag("sqlstate_class", c)
                                .register(registry))
                .increment();
    }

    /**
     * The scrape in the format {@code accept} asks for (Prometheus text 0.0.4 by default,
     * OpenMetrics or protobuf when asked), after refreshing the engine's metric sets.
     */
    Scrape scrape(String accept) {
        engineSets.refresh();
        String type = contentType(accept);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            registry.scrape(body, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Scrape(type, body.toByteArray());
    }

    /** A scrape's body and its content type. */
    record Scrape(String contentType, byte[] body) {}

    static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String PROTOBUF =
            "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

    /**
     * The format a scraper asks for in its Accept header, as the Prometheus client's exporter
     * chooses: protobuf or OpenMetrics when named, else the text format 0.0.4. The registry picks
     * the matching writer from the same string.
     */
    static String contentType(String accept) {
        if (accept == null) {
            return TEXT;
        }
        if (accept.contains("application/vnd.google.protobuf")
                && accept.contains("io.prometheus.client.MetricFamily")) {
            return PROTOBUF;
        }
        return accept.contains("application/openmetrics-text") ? OPEN_METRICS : TEXT;
    }

    /** Releases the GC listener; the registry's meters go with it. */
    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
