package io.tributary.stream.operators;

import io.tributary.plan.SessionCleaning;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The partitions of an {@link OverWindowOperator} with a {@link SessionCleaning}, indexed by the end
 * ({@code last time + gap}, ms) of their first session, so that a watermark finds the partitions
 * holding a closed session without reading the others. Owned by one operator, on its actor thread.
 */
final class SessionExpiry {
    private final SessionCleaning cleaning;
    /** Per indexed partition (by encoded partition key): its key values and first session's end. */
    private final Map<ByteBuffer, Indexed> indexed = new HashMap<>();

    private final NavigableMap<Long, Set<ByteBuffer>> byEnd = new TreeMap<>();

    /** A partition in the index: its key values and the end of its first session. */
    record Indexed(ByteBuffer id, Object[] partition, long end) {}

    SessionExpiry(SessionCleaning cleaning) {
        this.cleaning = cleaning;
    }

    /**
     * Indexes partition {@code id} (key values {@code partition}) by the rows it holds now, any
     * order, under the end of its first session still open at {@code cleanedAt} (the watermark of
     * the last cleaning, {@code Long.MIN_VALUE} before any): the row a cleaning keeps of a closed
     * session does not make the partition due again. A partition without such a session leaves the
     * index.
     */
    void track(ByteBuffer id, Object[] partition, Collection<Object[]> rows, long cleanedAt) {
        Indexed old = indexed.remove(id);
        if (old != null) {
            Set<ByteBuffer> ids = byEnd.get(old.end());
            ids.remove(id);
            if (ids.isEmpty()) {
                byEnd.remove(old.end());
            }
        }
        long[] times = times(rows);
        int first = 0;
        while (first < times.length && cleaning.closed(times[lastOfSession(times, first)], cleanedAt)) {
            first = lastOfSession(times, first) + 1;
        }
        if (first == times.length) {
            return;
        }
        long end = times[lastOfSession(times, first)] + cleaning.gapMillis();
        indexed.put(id, new Indexed(id, partition, end));
        byEnd.computeIfAbsent(end, e -> new LinkedHashSet<>()).add(id);
    }

    /** The indexed partitions whose first session is closed at {@code watermarkMicros}. */
    List<Indexed> closing(long watermarkMicros) {
        List<Indexed> out = new ArrayList<>();
        // closed when last + gap < floor(watermark / 1 ms), see SessionCleaning#closed
        for (Set<ByteBuffer> ids :
                byEnd.headMap(Math.floorDiv(watermarkMicros, 1000L), false).values()) {
            for (ByteBuffer id : ids) {
                out.add(indexed.get(id));
            }
        }
        return out;
    }

    /**
     * The latest time of a row in a closed session among {@code rows} (any order; the rows of one
     * partition), or {@code Long.MIN_VALUE} when none is closed: exactly the rows at or before it
     * belong to closed sessions, as a session spans the times between its first and last row.
     */
    long closedUpTo(Collection<Object[]> rows, long watermarkMicros) {
        long[] times = times(rows);
        long cut = Long.MIN_VALUE;
        int i = 0;
        while (i < times.length) {
            int last = lastOfSession(times, i);
            if (!cleaning.closed(times[last], watermarkMicros)) {
                break;
            }
            cut = times[last];
            i = last + 1;
        }
        return cut;
    }

    /** The session time of a row. */
    long time(Object[] row) {
        return (Long) row[cleaning.timeColumn()];
    }

    /** The index of the last time of the session that starts at index {@code first} of sorted {@code times}. */
    private int lastOfSession(long[] times, int first) {
        int i = first;
        while (i + 1 < times.length && times[i + 1] - times[i] <= cleaning.gapMillis()) {
            i++;
        }
        return i;
    }

    /** The rows' session times, ascending (the expansion filters out rows without a time). */
    private long[] times(Collection<Object[]> rows) {
        long[] times = new long[rows.size()];
        int i = 0;
        for (Object[] row : rows) {
            times[i++] = time(row);
        }
        Arrays.sort(times);
        return times;
    }
}
