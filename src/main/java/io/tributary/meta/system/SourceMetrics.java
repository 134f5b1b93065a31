package io.tributary.meta.system;

import io.tributary.common.metrics.MetricSet;
import io.tributary.meta.ingest.SourceManager;

/**
 * Per split of every running source: rows ingested and inputs skipped (committed counts, as
 * {@code source_progress} shows them), the lag, and whether the source stopped on an error.
 */
final class SourceMetrics implements MetricSet {
    private final SourceManager sources;

    SourceMetrics(SourceManager sources) {
        this.sources = sources;
    }

    @Override
    public void sample(Samples out) {
        for (SourceManager.SplitProgress p : sources.progress()) {
            String[] labels = {"table", p.table(), "split", p.split()};
            out.counter("tributary_source_rows", "Rows the split ingested (committed)", p.rowsIngested(), labels);
            out.counter(
                    "tributary_source_skipped_inputs",
                    "Malformed inputs the split skipped (on_error = skip)",
                    p.skippedInputs(),
                    labels);
            if (p.lagMillis() >= 0) {
                out.gauge(
                        "tributary_source_lag_seconds",
                        "How far the split is behind its input",
                        p.lagMillis() / 1000.0,
                        labels);
            }
            out.gauge(
                    "tributary_source_failed",
                    "1 when the source stopped on an error (see source_progress.last_error)",
                    p.lastError() == null ? 0 : 1,
                    labels);
        }
    }
}
