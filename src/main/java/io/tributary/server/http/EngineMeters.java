package io.tributary.server.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
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
import io.tributary.server.pgwire.StatementObserver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's Micrometer registry, scraped as Prometheus text at {@code /metrics}: JVM and
 * process meters, and per database (label {@code database="NAME"}, see {@link DatabaseMeters}):
 * epoch commit latency and barrier interval histograms, barrier lag, the engine's metric sets,
 * statements by kind and errors by SQLSTATE class.
 *
 * <p>Built once by the server's main before the pgwire server (which reports statements to it).
 * It follows the databases the server holds once a second and before each scrape: a created
 * database gets its series, a dropped one loses all of them (statements and errors included), so
 * no series outlives its database. The barrier threads and session threads record into it, HTTP
 * requests scrape it. Thread-safe.
 */
public final class EngineMeters implements StatementObserver, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Supplier<List<Database>> databases;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** The open databases' meters by name; replaced under this object's lock. */
    private final Map<String, DatabaseMeters> perDatabase = new HashMap<>();
    /** Statement timers by database, then kind. */
    private final ConcurrentMap<String, ConcurrentMap<String, Timer>> statements = new ConcurrentHashMap<>();
    /** Error counters by database, then SQLSTATE class. */
    private final ConcurrentMap<String, ConcurrentMap<String, Counter>> errors = new ConcurrentHashMap<>();

    private final ScheduledExecutorService follower = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "metrics-databases");
        t.setDaemon(true);
        return t;
    });

    private EngineMeters(Supplier<List<Database>> databases) {
        this.databases = databases;
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        follow();
        // between scrapes too, so a new database's first commits are in its histograms
        follower.scheduleWithFixedDelay(this::followQuietly, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Builds the meters over the server's databases and starts following them.
     *
     * @param databases the open databases, asked once a second and before each scrape
     */
    public static EngineMeters bind(Supplier<List<Database>> databases) {
        return new EngineMeters(databases);
    }

    private void followQuietly() {
        try {
            follow();
        } catch (RuntimeException e) {
            // a database may be closing while it is read; the next round tries again
        }
    }

    /** Brings the per-database meters in line with the open databases. */
    private synchronized void follow() {
        Map<String, Database> open = new HashMap<>();
        for (Database db : databases.get()) {
            open.put(db.name(), db);
        }
        for (Iterator<Map.Entry<String, DatabaseMeters>> it =
                        perDatabase.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, DatabaseMeters> e = it.next();
            if (open.get(e.getKey()) != e.getValue().database()) {
                e.getValue().close();
                it.remove();
            }
        }
        for (Database db : open.values()) {
            perDatabase.computeIfAbsent(db.name(), n -> new DatabaseMeters(db, registry));
        }
        forget(statements, open.keySet());
        forget(errors, open.keySet());
    }

    /** Removes the meters of databases not in {@code open} (a session may outlive its database briefly). */
    private <M extends Meter> void forget(ConcurrentMap<String, ConcurrentMap<String, M>> meters, Set<String> open) {
        for (Iterator<Map.Entry<String, ConcurrentMap<String, M>>> it =
                        meters.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, ConcurrentMap<String, M>> e = it.next();
            if (!open.contains(e.getKey())) {
                it.remove();
                e.getValue().values().forEach(registry::remove);
            }
        }
    }

    @Override
    public void completed(String database, String kind, long nanos) {
        ConcurrentMap<String, Timer> byKind = statements.get(database);
        Timer timer = byKind == null ? null : byKind.get(kind);
        if (timer == null) {
            timer = statements
                    .computeIfAbsent(database, d -> new ConcurrentHashMap<>())
                    .computeIfAbsent(
                            kind,
                            k -> Timer.builder("tributary_statement")
                                    .description("Client statements by command tag, from execution to CommandComplete")
                                    .tags(DatabaseMeters.LABEL, database, "kind", k)
                                    .register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void failed(String database, String sqlState) {
        String sqlClass = sqlState == null || sqlState.length() < 2 ? "XX" : sqlState.substring(0, 2);
        errors.computeIfAbsent(database, d -> new ConcurrentHashMap<>())
                .computeIfAbsent(
                        sqlClass,
                        c -> Counter.builder("tributary_statement_errors")
                                .description("Client statements that failed, by SQLSTATE class")
                                .tags(DatabaseMeters.LABEL, database, "sqlstate_class", c)
                                .register(registry))
                .increment();
    }

    /**
     * The scrape in the format {@code accept} asks for (Prometheus text 0.0.4 by default,
     * OpenMetrics or protobuf when asked), after refreshing the engine's metric sets.
     */
    synchronized Scrape scrape(String accept) {
        follow();
        perDatabase.values().forEach(DatabaseMeters::refresh);
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

    /** Stops following the databases and releases the GC listener; the registry's meters go with it. */
    @Override
    public void close() {
        follower.shutdownNow();
        gc.close();
        registry.close();
    }
}
