package io.tributary.meta.write;

import io.tributary.catalog.TableDef;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.RowCodec;
import io.tributary.meta.epoch.BarrierManager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Fills a table's {@code AS PROCTIME()} columns for one {@link TableWriter}: with the open epoch's
 * time as rows enter the writer (an insert and an update alike ingest the row anew, as PostgreSQL
 * computes a stored generated column again on UPDATE), and again at staging, under the barrier lock,
 * when an epoch committed meanwhile, so every row carries the time of the epoch it lands in
 * (docs/ARCHITECTURE.md, Processing time). Used on the writer's thread only.
 */
final class ProcTimeStamps {
    private final int[] columns;
    private final BarrierManager barriers;
    /** The least and greatest epoch times stamped since the last {@link #take}. */
    private long min = Long.MAX_VALUE;

    private long max = Long.MIN_VALUE;
    /** The last time stamped, in microseconds, boxed once per epoch rather than per row. */
    private Long micros;

    ProcTimeStamps(TableDef table, BarrierManager barriers) {
        this.barriers = barriers;
        this.columns = java.util.stream.IntStream.range(0, table.columns().size())
                .filter(i -> table.columns().get(i).proctime())
                .toArray();
    }

    /** Epoch times stamped into one statement's rows; empty when {@code min > max}. */
    record Range(long min, long max) {}

    /** Sets {@code row}'s processing-time columns to the open epoch's time; nothing without such columns. */
    void stamp(Object[] row) {
        if (columns.length == 0) {
            return;
        }
        long millis = barriers.openEpochMillis();
        min = Math.min(min, millis);
        max = Math.max(max, millis);
        set(row, millis);
    }

    private void set(Object[] row, long millis) {
        if (micros == null || micros != millis * 1000) {
            micros = millis * 1000;
        }
        for (int c : columns) {
            row[c] = micros;
        }
    }

    /** The times stamped since the last call; starts a new range. */
    Range take() {
        Range r = new Range(min, max);
        min = Long.MAX_VALUE;
        max = Long.MIN_VALUE;
        return r;
    }

    /** Whether rows stamped within {@code range} carry a time other than the open epoch's. Under the barrier lock. */
    boolean moved(Range range) {
        long now = barriers.openEpochMillis();
        return range.min() <= range.max() && (range.min() != now || range.max() != now);
    }

    /**
     * {@code settled} with every written row stamped with the open epoch's time and encoded again.
     * Under the barrier lock.
     *
     * @param values a change's row as values (kept or decoded), which this stamps in place
     */
    List<TableWriter.Change> restamp(
            List<TableWriter.Change> settled,
            Function<TableWriter.Change, Object[]> values,
            RowCodec codec,
            ByteWriter scratch) {
        long millis = barriers.openEpochMillis();
        List<TableWriter.Change> stamped = new ArrayList<>(settled.size());
        for (TableWriter.Change c : settled) {
            if (c.row() == null) {
                stamped.add(c);
                continue;
            }
            Object[] row = values.apply(c);
            set(row, millis);
            stamped.add(new TableWriter.Change(c.key(), codec.encode(row, scratch), c.insert(), c.values()));
        }
        return stamped;
    }
}
