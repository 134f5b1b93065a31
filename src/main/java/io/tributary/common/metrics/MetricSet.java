package io.tributary.common.metrics;

/**
 * A part of the engine that reports gauges and counters over its own state, for {@code /metrics}
 * and the dashboard. This is the one interface a component implements to be monitored: it
 * registers itself once in the database's {@link MetricSets} (sources, backfill jobs and the
 * store do; a sink registers its delivered epoch and lag the same way), and the HTTP side turns
 * every sample into a Micrometer meter at each scrape. No metrics library is needed here.
 *
 * <p>{@link #sample} is called on a scrape or sampling thread, never on the barrier thread; it must
 * only read in-memory state (no I/O, no locks held across the call of another component) and
 * return quickly.
 */
public interface MetricSet {
    /** Reports the current value of every meter of this set to {@code out}. */
    void sample(Samples out);

    /**
     * Receives samples. Names are Prometheus-style ({@code tributary_source_rows}); the same name
     * must always come with the same kind, help and label names. {@code labels} alternates label
     * names and values ({@code "table", "orders", "split", "0"}).
     */
    interface Samples {
        /** A value that goes up and down. */
        void gauge(String name, String help, double value, String... labels);

        /** A monotonic total since the component was created; exported with the suffix {@code _total}. */
        void counter(String name, String help, double value, String... labels);
    }
}
