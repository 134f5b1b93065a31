package io.tributary.meta.write;

import io.tributary.catalog.TableDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watermarks of the tables declared with {@code WATERMARK FOR}, and how many late rows each
 * dropped. A table's watermark is the largest value of its watermark column committed so far
 * minus the declared delay; it moves only when an epoch commits, so every row of an epoch is
 * judged against the watermark as of the epoch's start, and a replay of the same epochs judges
 * the same rows late. Each statement that writes such a table stages the table's watermark and
 * late count as they will be once its epoch commits, in that epoch, so both are durable exactly
 * when the rows are (a {@code kill -9} resumes them). Thread-safe; writers call the staging methods
 * under the barrier lock.
 */
public final class Watermarks {
    private static final String PREFIX = "watermark/";

    private final StateStore store;
    private final ConcurrentHashMap<Integer, TableWatermark> tables = new ConcurrentHashMap<>();

    public Watermarks(StateStore store) {
        this.store = store;
    }

    /** The watermark state of {@code table}, loaded from the store on first use; null when it has no watermark. */
    TableWatermark of(TableDef table) {
        WatermarkDef def = table.watermark();
        return def == null ? null : tables.computeIfAbsent(table.id(), id -> load(id, def));
    }

    /**
     * The committed watermark of {@code table} in microseconds, or null before its first row (or
     * when it has none); for the system table. Any thread.
     */
    public Long watermark(TableDef table) {
        TableWatermark w = of(table);
        return w == null || w.current == Long.MIN_VALUE ? null : w.current;
    }

    /**
     * The committed watermark of table {@code tableId}, {@code Long.MIN_VALUE} before its first row
     * or when it has none: what view operators clean state by. Any thread; a table not written
     * since the start is read from the store.
     */
    public long committed(int tableId) {
        TableWatermark w = tables.get(tableId);
        if (w != null) {
            return w.current;
        }
        try (ReadView view = store.latest()) {
            byte[] value = view.get(Keyspace.CATALOG, key(tableId));
            return value == null ? Long.MIN_VALUE : ByteBuffer.wrap(value).getLong();
        }
    }

    /** How many late rows {@code table} dropped, as committed; 0 without a watermark. Any thread. */
    public long lateRows(TableDef table) {
        TableWatermark w = of(table);
        return w == null ? 0 : w.lateRows;
    }

    /**
     * The change that gives table {@code toTable} (a table rewritten under a new id) the watermark
     * and late-row count {@code fromTable} has when staged, removing the old id's record, in the
     * epoch that switches the catalog to the new id. Staged at an epoch boundary, under the barrier
     * lock, so no statement of that epoch has touched the old id's watermark.
     */
    public EpochChange moved(int fromTable, int toTable) {
        return buffer -> {
            byte[] stored = buffer.get(Keyspace.CATALOG, key(fromTable));
            if (stored == null) {
                return;
            }
            buffer.put(Keyspace.CATALOG, key(toTable), stored);
            buffer.delete(Keyspace.CATALOG, key(fromTable));
            TableWatermark from = tables.get(fromTable);
            if (from != null) {
                // writers of the new id in this epoch judge rows against the same watermark
                TableWatermark to = new TableWatermark(key(toTable), from.delayMicros);
                to.current = from.current;
                to.lateRows = from.lateRows;
                tables.put(toTable, to);
            }
        };
    }

    private static byte[] key(int tableId) {
        return (PREFIX + tableId).getBytes(StandardCharsets.UTF_8);
    }

    private TableWatermark load(int tableId, WatermarkDef def) {
        byte[] key = key(tableId);
        try (ReadView view = store.latest()) {
            byte[] value = view.get(Keyspace.CATALOG, key);
            TableWatermark w = new TableWatermark(key, def.delayMicros());
            if (value != null) {
                ByteBuffer b = ByteBuffer.wrap(value);
                w.current = b.getLong();
                w.lateRows = b.getLong();
            }
            return w;
        }
    }

    /**
     * One table's watermark. {@link #current} and {@link #lateRows} are the committed values; the
     * epoch fields collect what the open epoch's statements saw and are touched only under the
     * barrier lock.
     */
    static final class TableWatermark {
        private final byte[] key;
        private final long delayMicros;
        /** Rows whose time is below this are late; {@code Long.MIN_VALUE} before the first row. */
        private volatile long current = Long.MIN_VALUE;

        private volatile long lateRows;
        private long epochMax = Long.MIN_VALUE;
        private long epochLate;

        private TableWatermark(byte[] key, long delayMicros) {
            this.key = key;
            this.delayMicros = delayMicros;
        }

        /** Whether a row with time {@code micros} is late now. Any thread. */
        boolean isLate(long micros) {
            return micros < current;
        }

        /**
         * Adds a statement's largest on-time value ({@code Long.MIN_VALUE}: none) and late-row count to
         * the open epoch and stages the watermark and count the epoch will commit. Under the barrier
         * lock, as the statement's last fallible step.
         */
        void stage(WriteBuffer buffer, long statementMax, long statementLate) {
            epochMax = Math.max(epochMax, statementMax);
            epochLate += statementLate;
            buffer.put(
                    Keyspace.CATALOG,
                    key,
                    ByteBuffer.allocate(16)
                            .putLong(next())
                            .putLong(lateRows + epochLate)
                            .array());
        }

        /** The epoch committed: its watermark and count become current. Under the barrier lock; repeatable. */
        void committed() {
            current = next();
            lateRows += epochLate;
            reset();
        }

        /** The epoch was discarded with what its statements saw. Under the barrier lock. */
        void failed() {
            reset();
        }

        private long next() {
            return epochMax == Long.MIN_VALUE ? current : Math.max(current, epochMax - delayMicros);
        }

        private void reset() {
            epochMax = Long.MIN_VALUE;
            epochLate = 0;
        }
    }
}
