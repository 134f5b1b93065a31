package io.tributary.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a state store holds, counted key by key, for tests that check that a job leaves nothing behind: rows per
 * table id in {@link Keyspace#DATA}, change-log entries per relation in {@link Keyspace#CHANGELOG}, job records
 * ({@code job/...} keys of {@link Keyspace#CATALOG}) and pinned snapshots.
 *
 * @param dataKeys per table id (the first four bytes of a {@code DATA} key), its number of keys; ids without keys
 *     are absent
 * @param logKeys per relation id, its number of change-log entries
 */
public record StoreCensus(Map<Integer, Long> dataKeys, Map<Integer, Long> logKeys, int jobRecords, List<String> pins) {

    /** Counts what {@code store} has committed now. */
    public static StoreCensus of(StateStore store) {
        try (ReadView view = store.snapshot()) {
            return new StoreCensus(
                    countByTable(view, Keyspace.DATA),
                    countByTable(view, Keyspace.CHANGELOG),
                    countJobRecords(view),
                    store.pinned());
        }
    }

    /** The number of {@code DATA} keys of tables other than {@code excluded} (e.g. the upstreams, which take writes). */
    public long dataKeysExcept(int... excluded) {
        long n = 0;
        for (Map.Entry<Integer, Long> e : dataKeys.entrySet()) {
            boolean skip = false;
            for (int id : excluded) {
                skip |= e.getKey() == id;
            }
            n += skip ? 0 : e.getValue();
        }
        return n;
    }

    /** The number of {@code DATA} keys of the tables with ids in {@code [fromId, toId]}. */
    public long dataKeysBetween(int fromId, int toId) {
        return dataKeys.entrySet().stream()
                .filter(e -> e.getKey() >= fromId && e.getKey() <= toId)
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    public long logKeyCount() {
        return logKeys.values().stream().mapToLong(Long::longValue).sum();
    }

    private static Map<Integer, Long> countByTable(ReadView view, Keyspace keyspace) {
        Map<Integer, Long> counts = new TreeMap<>();
        try (KvIterator it = view.scan(
                keyspace, new byte[0], new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff})) {
            while (it.next()) {
                counts.merge(ByteBuffer.wrap(it.key(), 0, 4).getInt(), 1L, Long::sum);
            }
        }
        return counts;
    }

    private static int countJobRecords(ReadView view) {
        int n = 0;
        try (KvIterator it = view.scan(
                Keyspace.CATALOG, "job/".getBytes(StandardCharsets.UTF_8), "job0".getBytes(StandardCharsets.UTF_8))) {
            while (it.next()) {
                n++;
            }
        }
        return n;
    }
}
