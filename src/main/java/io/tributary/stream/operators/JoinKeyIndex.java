package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The join keys a {@link JoinSide} has stored rows under, by the value of one time column of the
 * rows (a window bound in the join key, see {@code JoinCleaning}, or a column an interval condition
 * bounds, see {@code IntervalJoinCleaning}), so a passing watermark finds the keys whose rows may go
 * without a scan. A key is indexed once, under the time of the first row indexed with it; where a
 * key's rows differ in time (only with an interval condition) the caller indexes it again, under
 * the least time of the rows it kept, after forgetting some. It may also hold keys whose rows were
 * since deleted: forgetting them finds no rows. One actor thread.
 */
final class JoinKeyIndex {
    /** An indexed join key: its memcomparable encoding and its values, in join key order. */
    record Entry(byte[] encoded, Object[] values) {}

    private final int timeColumn;
    private final ByteKeyMap<Boolean> keys = new ByteKeyMap<>(1024);
    private final TreeMap<Long, List<Entry>> byBound = new TreeMap<>();

    /** @param timeColumn the rows' column the keys are indexed by (a TIMESTAMP, as micros) */
    JoinKeyIndex(int timeColumn) {
        this.timeColumn = timeColumn;
    }

    /**
     * Indexes the join key encoded in {@code encoded} of {@code row}, whose join key columns are
     * {@code keyColumns}, unless the row's time is NULL. Allocates only for a key not yet indexed.
     */
    void add(ByteWriter encoded, Object[] row, int[] keyColumns) {
        Long time = (Long) row[timeColumn];
        if (time == null || keys.find(encoded.array(), encoded.length()) >= 0) {
            // a NULL time is never finished: such a row stays (as a NULL group key would)
            return;
        }
        Object[] values = new Object[keyColumns.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = row[keyColumns[i]];
        }
        int id = keys.put(encoded.array(), encoded.length(), Boolean.TRUE);
        byBound.computeIfAbsent(time, b -> new ArrayList<>()).add(new Entry(keys.key(id), values));
    }

    /** Removes from the index and returns the keys whose bound value is at most {@code upTo}. */
    List<Entry> removeUpTo(long upTo) {
        Map<Long, List<Entry>> finished = byBound.headMap(upTo, true);
        List<Entry> out = new ArrayList<>();
        for (List<Entry> entries : finished.values()) {
            for (Entry e : entries) {
                keys.remove(keys.find(e.encoded(), e.encoded().length));
                out.add(e);
            }
        }
        finished.clear();
        return out;
    }

    /** Keys indexed. */
    int size() {
        return keys.size();
    }
}
