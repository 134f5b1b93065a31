package io.tributary.meta.system;

import io.tributary.common.Epoch;
import io.tributary.common.metrics.MetricSet;
import io.tributary.meta.sink.SinkManager;

/**
 * Per sink and part (head or backfill): when the epoch the target holds was committed, rows
 * written since the server started, the head's lag and whether the part is failing, as
 * {@code sink_progress} shows them. The delivered epoch is exported as its commit time in
 * seconds, not as the epoch number: epoch numbers ({@code millis << 16 | seq}) exceed the 53 bits
 * a Prometheus sample (a double) holds exactly.
 */
final class SinkMetrics implements MetricSet {
    private final SinkManager sinks;

    SinkMetrics(SinkManager sinks) {
        this.sinks = sinks;
    }

    @Override
    public void sample(Samples out) {
        for (SinkManager.DeliveryProgress p : sinks.progress()) {
            String[] labels = {"sink", p.sink(), "part", p.part()};
            if (p.epoch() != Epoch.NONE) {
                out.gauge(
                        "tributary_sink_delivered_epoch_seconds",
                        "Commit time (Unix seconds) of the last epoch the target holds"
                                + " (processor_status.last_success_version; the snapshot epoch for a backfill)",
                        Epoch.millis(p.epoch()) / 1000.0,
                        labels);
            }
            out.counter(
                    "tributary_sink_rows",
                    "Rows the part wrote to the target since the server started",
                    p.rows(),
                    labels);
            if (p.lagMillis() >= 0) {
                out.gauge(
                        "tributary_sink_lag_seconds",
                        "How far the head's delivered epoch is behind the last committed one",
                        p.lagMillis() / 1000.0,
                        labels);
            }
            boolean failing = "retrying".equals(p.phase()) || "failed".equals(p.phase());
            out.gauge(
                    "tributary_sink_failing",
                    "1 while the part is retrying after an error or has stopped on one (see sink_progress.last_error)",
                    failing ? 1 : 0,
                    labels);
        }
    }
}
