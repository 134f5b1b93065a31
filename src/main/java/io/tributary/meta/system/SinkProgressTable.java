package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SourceDef;
import io.tributary.common.VirtualNodes;
import io.tributary.common.types.DataType;
import io.tributary.meta.sink.SinkManager;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.sink_progress}: per sink one row for its head and, once it has copied
 * or is copying a snapshot, one for its backfill. {@code phase} is the thread's ({@code starting},
 * {@code streaming}, {@code snapshotting}, {@code complete}, {@code paused} at a rate limit of 0,
 * {@code retrying} while the target fails, {@code failed} once it stopped for good); {@code epoch}
 * is the last epoch the target holds (the snapshot's epoch for a backfill); {@code rows_done} counts the
 * rows written since the server started; {@code lag_ms} is how far the head's epoch is behind the
 * last committed one (null for a backfill); {@code last_error} is the last failure, kept after
 * recovery; {@code vnodes_done} of {@code vnodes_total} counts the vnodes whose rows a backfill has
 * delivered entirely (it copies all vnodes merged in key order, so they finish together near the
 * end; both null for a head).
 */
final class SinkProgressTable extends EngineStateTable {
    private final SinkManager sinks;

    SinkProgressTable(SinkManager sinks) {
        super(
                "sink_progress",
                new ColumnDef("sink_name", DataType.TEXT, true, false),
                new ColumnDef("relation", DataType.TEXT, true, false),
                new ColumnDef("part", DataType.TEXT, true, false),
                new ColumnDef("phase", DataType.TEXT, true, false),
                new ColumnDef("epoch", DataType.BIGINT, true, false),
                new ColumnDef("rows_done", DataType.BIGINT, true, false),
                new ColumnDef("lag_ms", DataType.BIGINT, false, false),
                new ColumnDef("rate_limit", DataType.BIGINT, false, false),
                new ColumnDef("last_error", DataType.TEXT, false, false),
                new ColumnDef("vnodes_done", DataType.INTEGER, false, false),
                new ColumnDef("vnodes_total", DataType.INTEGER, false, false));
        this.sinks = sinks;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (SinkManager.DeliveryProgress p : sinks.progress()) {
            rows.add(new Object[] {
                p.sink(),
                p.relation(),
                p.part(),
                p.phase(),
                p.epoch(),
                p.rows(),
                p.lagMillis() < 0 ? null : p.lagMillis(),
                p.rateLimit() == SourceDef.UNLIMITED ? null : p.rateLimit(),
                p.lastError(),
                p.vnodesDone() < 0 ? null : p.vnodesDone(),
                p.vnodesDone() < 0 ? null : VirtualNodes.COUNT
            });
        }
        return rows;
    }
}
