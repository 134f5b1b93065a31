package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.StreamNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One input of a {@link HashJoinOperator}: its rows in a state table keyed by (join key columns,
 * stream key columns) and distributed by the join key, with the value being the row plus, for a
 * padded side, its degree (BIGINT). In front of the table sits an LRU cache of join key to
 * {@link JoinBucket}, bounded in join keys and in rows, so a probe is one cache hit or one prefix
 * scan.
 * Every write goes to the table and, when the key is cached, to the cached bucket too, so the
 * cache never disagrees with the table. One actor thread.
 */
final class JoinSide {
    /** Memcomparable bytes used as a hash key: equal bytes mean SQL-equal values. */
    static final class Key {
        private final byte[] bytes;
        private final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final int width;
    private final int[] keyColumns;
    private final int[] streamKey;
    private final List<DataType> keyTypes;
    private final List<DataType> streamKeyTypes;
    private final boolean padded;
    private final StateTable table;
    private final Map<Key, JoinBucket> cache = new LinkedHashMap<>(16, 0.75f, true);
    private final int cacheKeys;
    /** Rows held by cached buckets; the cache is bounded in rows too, since one key may have millions. */
    private long cachedRows;

    private final ByteWriter scratch = new ByteWriter(64);

    /**
     * @param keyColumns this side's join key columns
     * @param padded whether unmatched rows of this side appear NULL-padded (then degrees are kept)
     * @param cacheKeys how many join keys the cache holds at most (at least 1)
     */
    JoinSide(StreamNode input, int[] keyColumns, boolean padded, int tableId, ReadView committed, int cacheKeys) {
        List<DataType> types = input.fields().stream().map(Field::type).toList();
        this.width = types.size();
        this.keyColumns = keyColumns.clone();
        this.streamKey = input.streamKey().clone();
        this.keyTypes = pick(types, keyColumns);
        this.streamKeyTypes = pick(types, streamKey);
        this.padded = padded;
        List<DataType> tableKey = new ArrayList<>(keyTypes);
        tableKey.addAll(streamKeyTypes);
        List<DataType> value = new ArrayList<>(types);
        if (padded) {
            value.add(DataType.BIGINT);
        }
        this.table = new StateTable(tableId, tableKey, null, keyColumns.length, value, committed);
        if (cacheKeys < 1) {
            throw new IllegalArgumentException("the join cache must hold at least one key");
        }
        this.cacheKeys = cacheKeys;
    }

    private static List<DataType> pick(List<DataType> types, int[] columns) {
        return Arrays.stream(columns).mapToObj(types::get).toList();
    }

    int width() {
        return width;
    }

    boolean padded() {
        return padded;
    }

    /** Types of the join key columns, in join key order. */
    List<DataType> keyTypes() {
        return keyTypes;
    }

    /** The join key values of {@code row}, in join key order. */
    Object[] joinKey(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return key;
    }

    /** The memcomparable encoding of join key values; sides with key types of the same encoding agree on it. */
    Key encode(Object[] joinKey) {
        scratch.reset();
        for (int i = 0; i < joinKey.length; i++) {
            KeyCodec.encodeValue(scratch, keyTypes.get(i), joinKey[i]);
        }
        return new Key(scratch.toByteArray());
    }

    /**
     * This side's rows with join key {@code joinKey} ({@code key} its encoding, the values SQL-equal
     * to the probe's), from the cache or else one prefix scan whose result is then cached. Callers
     * may change the rows' degrees, writing each change back with {@link #writeDegree}.
     */
    JoinBucket bucket(Key key, Object[] joinKey) {
        JoinBucket bucket = cache.get(key);
        if (bucket != null) {
            return bucket;
        }
        bucket = new JoinBucket();
        try (StateTable.ValueIterator it = table.scan(joinKey)) {
            while (it.hasNext()) {
                Object[] stored = it.next();
                Object[] row = Arrays.copyOf(stored, width);
                bucket.add(streamKeyOf(row), new JoinBucket.Row(row, padded ? (Long) stored[width] : 0));
            }
        }
        if (bucket.size() <= MAX_CACHED_ROWS) {
            cache.put(key, bucket);
            cachedRows += bucket.size();
            evict();
        }
        return bucket;
    }

    /** Rows the cache may hold over all its buckets. */
    static final long MAX_CACHED_ROWS = 200_000;

    /** Drops least recently used buckets while the cache holds too many keys or rows. */
    private void evict() {
        if (cache.size() <= cacheKeys && cachedRows <= MAX_CACHED_ROWS) {
            return;
        }
        java.util.Iterator<JoinBucket> eldest = cache.values().iterator();
        while ((cache.size() > cacheKeys || cachedRows > MAX_CACHED_ROWS) && eldest.hasNext()) {
            cachedRows -= eldest.next().size();
            eldest.remove();
        }
    }

    /** Stores a new row with join key encoding {@code key} and {@code degree} current matches. */
    void insert(Key key, Object[] row, long degree) {
        table.put(tableKey(row), value(row, degree));
        JoinBucket cached = cache.get(key);
        if (cached != null) {
            cachedRows += cached.add(streamKeyOf(row), new JoinBucket.Row(row, degree));
            evict();
        }
    }

    /** Removes a stored row with join key encoding {@code key}. */
    void delete(Key key, Object[] row) {
        table.delete(tableKey(row));
        JoinBucket cached = cache.get(key);
        if (cached != null) {
            cachedRows -= cached.remove(streamKeyOf(row));
        }
    }

    /** Persists a changed degree of a row obtained from {@link #bucket}. */
    void writeDegree(JoinBucket.Row row) {
        table.put(tableKey(row.values), value(row.values, row.degree));
    }

    /** Hands every state write since the last flush to the epoch's commit. */
    void flush(StateWrites writes) {
        table.flush(writes);
    }

    private Object[] tableKey(Object[] row) {
        Object[] key = new Object[keyColumns.length + streamKey.length];
        for (int i = 0; i < keyColumns.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        for (int i = 0; i < streamKey.length; i++) {
            key[keyColumns.length + i] = row[streamKey[i]];
        }
        return key;
    }

    private Object[] value(Object[] row, long degree) {
        if (!padded) {
            return row;
        }
        Object[] value = Arrays.copyOf(row, width + 1);
        value[width] = degree;
        return value;
    }

    private Key streamKeyOf(Object[] row) {
        scratch.reset();
        KeyCodec.encode(scratch, streamKeyTypes, row, streamKey);
        return new Key(scratch.toByteArray());
    }
}
