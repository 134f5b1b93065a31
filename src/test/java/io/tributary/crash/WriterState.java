package io.tributary.crash;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rows one writer owns: its rows of the keyed table {@code acked} (id to payload) and its
 * rows of the keyless table {@code events} as a multiset (so duplicates would show). Writers own
 * disjoint rows, so each writer's state can be predicted independently of the others.
 */
final class WriterState {
    final TreeMap<Long, String> acked = new TreeMap<>();
    final TreeMap<String, Integer> events = new TreeMap<>();

    WriterState copy() {
        WriterState c = new WriterState();
        c.acked.putAll(acked);
        c.events.putAll(events);
        return c;
    }

    void addEvent(long batch, int n) {
        events.merge(batch + ":" + n, 1, Integer::sum);
    }

    /** The ids of {@code acked} rows in {@code [from, to]}; a live view. */
    Map<Long, String> ackedRange(long from, long to) {
        return acked.subMap(from, true, to, true);
    }

    /** A short description of how {@code found} differs from this expected state, for failure messages. */
    String describeDifference(WriterState found) {
        StringBuilder sb = new StringBuilder();
        differences("acked", acked, found.acked, sb);
        differences("events", events, found.events, sb);
        return sb.toString();
    }

    private static <K> void differences(String table, Map<K, ?> expected, Map<K, ?> found, StringBuilder sb) {
        int shown = 0;
        TreeMap<K, Object> keys = new TreeMap<>(expected);
        keys.putAll(found);
        for (K k : keys.keySet()) {
            Object e = expected.get(k);
            Object f = found.get(k);
            if (!Objects.equals(e, f) && shown++ < 10) {
                sb.append(String.format("%n  %s %s: expected %s, found %s", table, k, e, f));
            }
        }
        if (shown > 10) {
            sb.append(String.format("%n  ... %d differences in %s", shown, table));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriterState s && acked.equals(s.acked) && events.equals(s.events);
    }

    @Override
    public int hashCode() {
        return Objects.hash(acked, events);
    }

    @Override
    public String toString() {
        return acked.size() + " acked rows, "
                + events.values().stream().mapToInt(Integer::intValue).sum() + " event rows";
    }
}
