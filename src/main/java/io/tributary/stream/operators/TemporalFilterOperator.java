package io.tributary.stream.operators;

import io.tributary.common.Epoch;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.TemporalFilterNode;
import io.tributary.plan.TimeBound;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.List;

/**
 * A temporal filter ({@link TemporalFilterNode}): passes the rows whose time passes every bound
 * at the current time, and as the current time moves, retracts the rows that fell below a lower
 * bound and emits the rows that came under an upper bound.
 *
 * <p>The current time is the commit time of the epoch: at each barrier it becomes the time the
 * epoch number embeds ({@link Epoch#millis}); a checkpoint barrier of a backfill, whose number is
 * no epoch, takes the time of the snapshot the backfill reads, so the snapshot's rows are judged
 * at that time wherever the backfill runs (in the server, or on a worker whose clock differs). It
 * never goes back. Changes within an epoch are judged at the
 * time of the previous barrier, and the barrier then moves every row to the new time, so the
 * output committed with epoch {@code E} is the input at {@code E} filtered at {@code E}'s time: a
 * replay after a crash gives the same rows.
 *
 * <p>State table 0 holds exactly the rows whose visibility may still change: with a lower bound,
 * the rows that still pass every lower bound (a row that fails one fails it forever, so it is
 * forgotten); with upper bounds only, the rows not yet visible (a visible one stays so). Its key is
 * (time, stream key), so a barrier reads only the rows that change: from the start up to the
 * lower cut, and from the old upper cut to the new one. State table 1 holds the current time, so a
 * restored operator knows which of its rows it has emitted. Rows with a NULL time are never
 * visible and never kept.
 *
 * <p>One actor (the node is single); calls as in {@link Operator}.
 */
public final class TemporalFilterOperator implements Operator {
    /** The clock's only key, and the prefix of a scan of every row: no columns. */
    private static final Object[] NO_KEY = new Object[0];

    private final ScalarExpr time;
    private final ExprEvaluator evaluator;
    private final TimeBound[] lower;
    private final TimeBound[] upper;
    private final int[] streamKey;
    private final StateTable rows;
    private final StateTable clock;
    /** Microseconds since 1970: the current time the output reflects. */
    private long now;
    /** Millis: the time of the snapshot a backfill reads, 0 in a live job (wall clock). */
    private final long snapshotMillis;

    /**
     * @param stateTableIds the node's two state table ids
     * @param committed the latest committed state; not closed here
     * @param snapshotMillis the time of the snapshot a job being created reads; 0 in a live job
     */
    public TemporalFilterOperator(
            TemporalFilterNode node, int[] stateTableIds, ReadView committed, long snapshotMillis) {
        this.snapshotMillis = snapshotMillis;
        this.time = node.time();
        this.evaluator = new ExprEvaluator("temporal filter " + node.time());
        this.lower = node.bounds().stream().filter(b -> !b.upper()).toArray(TimeBound[]::new);
        this.upper = node.bounds().stream().filter(TimeBound::upper).toArray(TimeBound[]::new);
        this.streamKey = node.streamKey();
        List<Field> fields = node.fields();
        List<DataType> keyTypes = new ArrayList<>();
        keyTypes.add(node.time().type());
        for (int k : streamKey) {
            keyTypes.add(fields.get(k).type());
        }
        this.rows = new StateTable(
                stateTableIds[0],
                keyTypes,
                null,
                0,
                fields.stream().map(Field::type).toList(),
                committed);
        this.clock = new StateTable(stateTableIds[1], List.of(), null, 0, List.of(DataType.BIGINT), committed);
        Object[] stored = clock.get(NO_KEY);
        // a new operator has emitted nothing yet: any start is consistent; a backfill's is its snapshot's time
        this.now = stored != null ? (Long) stored[0] : checkpointMillis() * 1000L;
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Object t = evaluator.eval(time, row);
            if (t == null) {
                continue;
            }
            long ts = (Long) t;
            Op op = chunk.op(i);
            if (passes(ts, now)) {
                out.emit(op, row);
            }
            if (kept(ts, now)) {
                if (op == Op.INSERT) {
                    rows.put(keyOf(ts, row), row);
                } else {
                    rows.delete(keyOf(ts, row));
                }
            }
        }
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        long millis = barrier.checkpoint() == null ? Epoch.millis(barrier.epoch()) : checkpointMillis();
        long next = Math.max(now, millis * 1000L);
        if (next != now) {
            if (lower.length > 0) {
                expire(next, out);
            }
            if (upper.length > 0) {
                admit(next, out);
            }
            now = next;
        }
        // at every barrier, also one that did not move the time: a restored operator must find the
        // time its committed rows were judged at, which a fresh one only took from the wall clock
        clock.put(NO_KEY, new Object[] {now});
        rows.flush(writes);
        clock.flush(writes);
    }

    /** The time of a checkpoint barrier (and of a new operator): the snapshot's, or the wall clock's in a live job. */
    private long checkpointMillis() {
        return snapshotMillis > 0 ? snapshotMillis : System.currentTimeMillis();
    }

    /** Retracts (when visible) and forgets the rows that fail a lower bound at {@code next}. */
    private void expire(long next, Output out) {
        List<Object[]> gone = new ArrayList<>();
        try (StateTable.ValueIterator it = rows.scan(NO_KEY)) {
            while (it.hasNext()) {
                Object[] row = it.next();
                if (passesAll(lower, timeOf(row), next)) {
                    break;
                }
                gone.add(row);
            }
        }
        for (Object[] row : gone) {
            long ts = timeOf(row);
            if (passes(ts, now)) {
                out.emit(Op.DELETE, row);
            }
            rows.delete(keyOf(ts, row));
        }
    }

    /**
     * Emits the kept rows that pass every bound at {@code next} but did not at the current time;
     * without lower bounds they stay visible for good and are forgotten.
     */
    private void admit(long next, Output out) {
        long from = Long.MAX_VALUE;
        for (TimeBound b : upper) {
            from = Math.min(from, TimeBound.saturatedAdd(now, b.offsetMicros()));
        }
        List<Object[]> entered = new ArrayList<>();
        try (StateTable.ValueIterator it = rows.scanFrom(new Object[] {from})) {
            while (it.hasNext()) {
                Object[] row = it.next();
                long ts = timeOf(row);
                if (!passesAll(upper, ts, next)) {
                    break;
                }
                if (!passes(ts, now) && passes(ts, next)) {
                    entered.add(row);
                }
            }
        }
        for (Object[] row : entered) {
            out.emit(Op.INSERT, row);
            if (lower.length == 0) {
                rows.delete(keyOf(timeOf(row), row));
            }
        }
    }

    /** Whether a row at {@code ts} is visible at {@code at}. */
    private boolean passes(long ts, long at) {
        return passesAll(lower, ts, at) && passesAll(upper, ts, at);
    }

    /** Whether a row at {@code ts} may still change visibility after {@code at}, so is kept. */
    private boolean kept(long ts, long at) {
        return lower.length > 0 ? passesAll(lower, ts, at) : !passesAll(upper, ts, at);
    }

    private static boolean passesAll(TimeBound[] bounds, long ts, long at) {
        for (TimeBound b : bounds) {
            if (!b.passes(ts, at)) {
                return false;
            }
        }
        return true;
    }

    /** The time of a kept row (never NULL: rows with a NULL time are not kept). */
    private long timeOf(Object[] row) {
        return (Long) evaluator.eval(time, row);
    }

    private Object[] keyOf(long ts, Object[] row) {
        Object[] key = new Object[streamKey.length + 1];
        key[0] = ts;
        for (int i = 0; i < streamKey.length; i++) {
            key[i + 1] = row[streamKey[i]];
        }
        return key;
    }
}
