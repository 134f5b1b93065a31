package io.tributary.common.metrics;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link MetricSet}s of one database. Components register theirs once when they are built;
 * the HTTP metrics binding samples them all at each scrape. Thread-safe.
 */
public final class MetricSets {
    private final List<MetricSet> sets = new CopyOnWriteArrayList<>();

    /** Adds {@code set}; it is sampled from the next scrape on. Any thread. */
    public void register(MetricSet set) {
        sets.add(set);
    }

    /** Samples every registered set into {@code out}, in registration order. Any thread. */
    public void sampleAll(MetricSet.Samples out) {
        for (MetricSet set : sets) {
            set.sample(out);
        }
    }
}
