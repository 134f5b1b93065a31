package io.tributary.server.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tributary.common.metrics.MetricSet;
import io.tributary.common.metrics.MetricSets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns the engine's {@link MetricSets} into Micrometer meters: each sampled series (name and
 * labels) gets a gauge or function counter backed by a holder that {@link #refresh()} updates,
 * and series no longer reported (a finished job, a dropped source) are removed from the registry.
 * Every series carries the label {@code database="NAME"} of the database the sets belong to.
 * Thread-safe: refreshes are serialized.
 */
final class MetricSetMeters implements MetricSet.Samples {
    private final MetricSets sets;
    private final MeterRegistry registry;
    private final String database;
    private final Map<String, Series> series = new HashMap<>();
    private long generation;

    /** The value one meter reads, and the last refresh that reported it. */
    private static final class Series {
        volatile double value;
        long seen;
        Meter meter;
    }

    MetricSetMeters(MetricSets sets, MeterRegistry registry, String database) {
        this.sets = sets;
        this.registry = registry;
        this.database = database;
    }

    /** Samples every set, then drops the series nobody reported; called before each scrape. */
    synchronized void refresh() {
        generation++;
        sets.sampleAll(this);
        for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
            Series s = it.next();
            if (s.seen != generation) {
                registry.remove(s.meter);
                it.remove();
            }
        }
    }

    /** Removes every series from the registry: the database is gone. */
    synchronized void removeAll() {
        series.values().forEach(s -> registry.remove(s.meter));
        series.clear();
    }

    @Override
    public void gauge(String name, String help, double value, String... labels) {
        record(name, help, value, labels, false);
    }

    @Override
    public void counter(String name, String help, double value, String... labels) {
        record(name, help, value, labels, true);
    }

    private void record(String name, String help, double value, String[] labels, boolean counter) {
        String key = name + '\u0000' + String.join("\u0000", labels);
        Series s = series.get(key);
        if (s == null) {
            s = new Series();
            Tags tags = Tags.of(labels).and(DatabaseMeters.LABEL, database);
            s.meter = counter
                    ? FunctionCounter.builder(name, s, x -> x.value)
                            .description(help)
                            .tags(tags)
                            .register(registry)
                    : Gauge.builder(name, s, x -> x.value)
                            .description(help)
                            .tags(tags)
                            .register(registry);
            series.put(key, s);
        }
        s.value = value;
        s.seen = generation;
    }
}
