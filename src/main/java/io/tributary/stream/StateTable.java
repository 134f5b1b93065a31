package io.tributary.stream;

import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteHash;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A sorted map from key rows to value rows that an operator keeps durable: {@code [table id]
 * [vnode][memcomparable key] -> encoded value} in the data keyspace. Writes since the last
 * barrier stay in memory and are read back merged with the committed state; at a
 * barrier {@link #flush} hands them to the epoch's commit.
 *
 * <p>The vnode is the hash of the first {@code distKeyCount} key columns (the vnode of the empty
 * key when there are none), so every row of one distribution key lives in one vnode, owned by one actor. Scans take a
 * key prefix that covers at least those columns. With every column in {@link KeyOrder#DEFAULT} and
 * {@code distKeyCount} equal to the key width, keys are exactly those of {@code TableKeys}, so a
 * view's rows written through a state table are read by batch queries like a table's.
 *
 * <p>One actor thread only. Reads of committed state go to the store's latest committed epoch:
 * correct because the actor owns its vnodes and no input of the next epoch arrives before the
 * previous epoch committed (see {@link Operator}).
 */
public final class StateTable {
    private final int tableId;
    private final List<DataType> keyTypes;
    private final KeyOrder[] order;
    private final int distKeyCount;
    private final RowCodec valueCodec;
    private final List<DataType> valueTypes;
    private final ReadView committed;
    /** The writes not yet known to be committed, merged over {@link #committed} by every read. */
    private final PendingWrites pending = new PendingWrites();

    private final ByteWriter scratch = new ByteWriter(64);
    /** Where values are encoded before their exact-size copy is kept; one per table, actor thread. */
    private final ByteWriter valueScratch = new ByteWriter(64);
    /** Where the distribution key ends in the key {@link #encodeKey} returned last. */
    private int lastDistEnd;

    /**
     * @param order per key column, or null for all {@link KeyOrder#DEFAULT}
     * @param committed a view of the latest committed state ({@code StateStore.latest()}); not closed here
     */
    public StateTable(
            int tableId,
            List<DataType> keyTypes,
            List<KeyOrder> order,
            int distKeyCount,
            List<DataType> valueTypes,
            ReadView committed) {
        if (distKeyCount > keyTypes.size()) {
            throw new IllegalArgumentException("distribution key wider than the key");
        }
        this.tableId = tableId;
        this.keyTypes = List.copyOf(keyTypes);
        this.order = new KeyOrder[keyTypes.size()];
        for (int i = 0; i < this.order.length; i++) {
            this.order[i] = order == null ? KeyOrder.DEFAULT : order.get(i);
        }
        this.distKeyCount = distKeyCount;
        this.valueCodec = new RowCodec(valueTypes);
        this.valueTypes = List.copyOf(valueTypes);
        this.committed = committed;
    }

    /**
     * Lets this table hold its writes in arrival order whatever their keys' order, instead of
     * hashing each write, in every epoch that follows one without a read through them, until that
     * epoch's first read (which moves them into the hash map for the rest of it). For an operator whose writes per epoch are bounded by the rows
     * it takes in (a key written many times in one epoch is held that many times until the flush)
     * and that, in most epochs, does not read this table: a join side without degrees while the
     * other side's rows have all been read, as in a snapshot backfill, where hashing every big-side
     * row into the map and walking the map at each flush were about a tenth of the join job's
     * samples in JFR. Call before the first write; the table's contents, reads and the net effect
     * of the flushed writes are the same either way.
     */
    public void appendUnordered() {
        pending.appendUnordered();
    }

    public int tableId() {
        return tableId;
    }

    /** The value stored under {@code key} (all key columns), or null. */
    public Object[] get(Object[] key) {
        pending.beforeRead();
        byte[] k = encodeKey(key, key.length);
        byte[] v = pending.uncommitted(new StoreKey(k, lastDistEnd));
        if (v == null) {
            v = committed.get(Keyspace.DATA, k);
        }
        return v == null || v == PendingWrites.TOMBSTONE ? null : valueCodec.decode(v);
    }

    /** As {@link #get} of a key {@link #encode encoded} by this table. */
    public Object[] get(StoreKey key) {
        pending.beforeRead();
        byte[] v = pending.uncommitted(key);
        if (v == null) {
            v = committed.get(Keyspace.DATA, key.bytes);
        }
        return v == null || v == PendingWrites.TOMBSTONE ? null : valueCodec.decode(v);
    }

    /**
     * As {@link #get} of each of {@code keys}, in their order; the keys without pending writes are
     * read from the committed state in one batched read.
     */
    public Object[][] getAll(List<Object[]> keys) {
        List<StoreKey> encoded = new java.util.ArrayList<>(keys.size());
        for (Object[] key : keys) {
            encoded.add(encode(key));
        }
        return getAllEncoded(encoded);
    }

    /** As {@link #getAll} of keys already {@link #encode encoded} by this table. */
    public Object[][] getAllEncoded(List<StoreKey> keys) {
        pending.beforeRead();
        Object[][] out = new Object[keys.size()][];
        List<byte[]> unknown = new java.util.ArrayList<>();
        int[] positions = new int[keys.size()];
        for (int i = 0; i < out.length; i++) {
            StoreKey k = keys.get(i);
            byte[] v = pending.uncommitted(k);
            if (v == null) {
                positions[unknown.size()] = i;
                unknown.add(k.bytes);
            } else {
                out[i] = v == PendingWrites.TOMBSTONE ? null : valueCodec.decode(v);
            }
        }
        List<byte[]> committedValues = committed.getAll(Keyspace.DATA, unknown);
        for (int j = 0; j < unknown.size(); j++) {
            byte[] v = committedValues.get(j);
            out[positions[j]] = v == null ? null : valueCodec.decode(v);
        }
        return out;
    }

    /**
     * The store key of {@code key} (all key columns), for a caller that reads or writes one key
     * more than once: {@link #getAllEncoded} and {@link #put(StoreKey, Object[])} then do not
     * encode it again.
     */
    public StoreKey encode(Object[] key) {
        byte[] k = encodeKey(key, key.length);
        return new StoreKey(k, lastDistEnd);
    }

    public void put(Object[] key, Object[] value) {
        byte[] k = encodeKey(key, key.length);
        pending.write(k, lastDistEnd, null, valueCodec.encode(value, valueScratch));
    }

    /**
     * As {@link #put(Object[], Object[])} of a value given encoded as this table encodes its values:
     * the stored bytes of an upstream row whose column types are this table's value types ({@link
     * #storesValuesAs}). The array is kept, not copied, and must not change afterwards.
     */
    public void putEncodedValue(Object[] key, byte[] value) {
        byte[] k = encodeKey(key, key.length);
        pending.write(k, lastDistEnd, null, value);
    }

    /** Whether this table's values encode exactly as {@code layout}'s rows are stored ({@link #putEncodedValue}). */
    public boolean storesValuesAs(StoredLayout layout) {
        return layout.hasTypes(valueTypes);
    }

    /**
     * Encodes into {@code out} (reset first) the store key of {@code key} (all key columns) without
     * allocating: {@code out.array()[0, out.length())}.
     *
     * @return where the key's distribution key ends, for {@link StoreKey#of}
     */
    public int encodeStoreKey(ByteWriter out, Object[] key) {
        return encodeInto(out, key, key.length, false, null);
    }

    /**
     * Encodes {@code value} as this table stores values into a buffer of its own, reused by the
     * next call: {@code array()[0, length())} of the answer, for a caller that copies it at once.
     */
    public ByteWriter encodeValueInScratch(Object[] value) {
        valueCodec.encodeInto(value, valueScratch);
        return valueScratch;
    }

    /**
     * Puts {@code value} under the store key {@code key} (as {@link #encodeStoreKey} encodes it)
     * unless the key was written since the last flush: for a put that came before every such write
     * but reaches the pending writes after them (a view's row written to a file that could not be
     * ingested). Only for a table whose distribution key is its whole key. Both arrays are kept.
     */
    public void putUnlessWritten(byte[] key, byte[] value) {
        StoreKey k = new StoreKey(key, key.length);
        if (!pending.writtenSinceFlush(k)) {
            pending.write(key, key.length, k, value);
        }
    }

    /** As {@link #put(Object[], Object[])} of a key {@link #encode encoded} by this table. */
    public void put(StoreKey key, Object[] value) {
        pending.write(key.bytes, key.distEnd, key, valueCodec.encode(value, valueScratch));
    }

    /**
     * As {@link #put(Object[], Object[])} of the row whose key columns encode to {@code pk} and
     * whose value encodes to {@code value}, given as an upstream relation stores them (see
     * {@code StoredLayout}): its key is {@code pk} after this table's id and the vnode of {@code pk}.
     * Only for a table keyed like a relation, every key column in default order and all of them
     * the distribution key, which the caller checks once ({@link #keyedLikeRelation}). Both arrays
     * are kept, not copied, and must not change afterwards.
     */
    public void putStored(byte[] pk, byte[] value) {
        byte[] key = new byte[TableKeys.PREFIX_LENGTH + pk.length];
        storedKey(pk, key);
        pending.write(key, key.length, null, value);
    }

    /**
     * Writes the store key {@link #putStored} puts {@code pk} under ({@code pk} after this table's
     * id and the vnode of {@code pk}) at the start of {@code into}, which must hold {@code
     * TableKeys.PREFIX_LENGTH + pk.length} bytes.
     *
     * @return the key's length
     */
    public int storedKey(byte[] pk, byte[] into) {
        int vnode = VirtualNodes.of(pk);
        into[0] = (byte) (tableId >>> 24);
        into[1] = (byte) (tableId >>> 16);
        into[2] = (byte) (tableId >>> 8);
        into[3] = (byte) tableId;
        into[4] = (byte) (vnode >>> 8);
        into[5] = (byte) vnode;
        System.arraycopy(pk, 0, into, TableKeys.PREFIX_LENGTH, pk.length);
        return TableKeys.PREFIX_LENGTH + pk.length;
    }

    /**
     * Whether this table's keys are {@code TableKeys}' layout of its key columns (every column in
     * default order, all of them the distribution key), as {@link #putStored} requires.
     */
    public boolean keyedLikeRelation() {
        if (distKeyCount != keyTypes.size()) {
            return false;
        }
        for (KeyOrder o : order) {
            if (!o.equals(KeyOrder.DEFAULT)) {
                return false;
            }
        }
        return true;
    }

    public void delete(Object[] key) {
        byte[] k = encodeKey(key, key.length);
        pending.write(k, lastDistEnd, null, PendingWrites.TOMBSTONE);
    }

    /** As {@link #delete(Object[])} of a key {@link #encode encoded} by this table. */
    public void delete(StoreKey key) {
        pending.write(key.bytes, key.distEnd, key, PendingWrites.TOMBSTONE);
    }

    /**
     * The values whose keys start with {@code prefix} (at least the distribution key columns), in
     * key order, merging pending writes over committed state. The table must not be changed while
     * the iterator is open; close it to release the store iterator.
     */
    public ValueIterator scan(Object[] prefix) {
        if (prefix.length < distKeyCount) {
            throw new IllegalArgumentException("a scan prefix must cover the distribution key");
        }
        byte[] from = encodeKey(prefix, prefix.length);
        // never null: keys start with a table id below 0xffffffff
        return merged(from, TableKeys.prefixEnd(from));
    }

    /**
     * The values of {@code start}'s distribution key whose keys are at or after {@code start} (a
     * key prefix covering at least the distribution key columns), in key order, merging pending
     * writes over committed state: a seek, for an operator that reads its rows from a point of its
     * key order on. The same rules as {@link #scan} apply.
     */
    public ValueIterator scanFrom(Object[] start) {
        if (start.length < distKeyCount) {
            throw new IllegalArgumentException("a scan start must cover the distribution key");
        }
        byte[] from = encodeKey(start, start.length);
        return merged(from, TableKeys.prefixEnd(Arrays.copyOf(from, lastDistEnd)));
    }

    /**
     * Pending writes over the writes handed over at the last flush over committed state, keys in
     * [from, to), a range within the distribution key of {@code from}, the key last encoded.
     */
    private ValueIterator merged(byte[] from, byte[] to) {
        return new ValueIterator(pending.sortedRange(from, lastDistEnd, to), committed.scan(Keyspace.DATA, from, to));
    }

    /**
     * The committed values of vnode {@code vnode}, in key order, ignoring pending writes: for an
     * operator rebuilding an in-memory index of its state when it starts, before it writes. Close
     * the iterator to release the store iterator.
     */
    public ValueIterator scanCommittedVnode(int vnode) {
        return new ValueIterator(
                java.util.Collections.emptyIterator(),
                committed.scan(
                        Keyspace.DATA, TableKeys.vnodeStart(tableId, vnode), TableKeys.vnodeEnd(tableId, vnode)));
    }

    /**
     * Whether the committed state holds no row of this table in {@code vnodes} (every vnode when
     * null), ignoring pending writes: for an operator deciding, before it writes, whether it may
     * hold all its rows in memory. One short store scan per vnode.
     */
    public boolean committedEmpty(int[] vnodes) {
        if (vnodes == null) {
            try (KvIterator it =
                    committed.scan(Keyspace.DATA, TableKeys.tableStart(tableId), TableKeys.tableEnd(tableId))) {
                return !it.next();
            }
        }
        for (int vnode : vnodes) {
            try (KvIterator it = committed.scan(
                    Keyspace.DATA, TableKeys.vnodeStart(tableId, vnode), TableKeys.vnodeEnd(tableId, vnode))) {
                if (it.next()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Moves every write since the last flush into {@code writes} (each key once; in no particular
     * order, which the epoch's write buffer does not need). They stay readable through
     * this table until the next flush, by which time the caller has made them durable (see
     * {@code PendingWrites}).
     *
     * @return the number of writes handed over
     */
    public int flush(StateWrites writes) {
        return pending.flush(writes);
    }

    /** The number of keys written since the last {@link #flush}: what the next flush hands over. */
    public int pendingCount() {
        return pending.count();
    }

    /**
     * The store key of {@code key} (all key columns). Within one vnode, unsigned byte order of
     * these keys is the table's key order, so an operator can compare keys exactly as scans order
     * them.
     */
    public byte[] storeKey(Object[] key) {
        return encodeKey(key, key.length);
    }

    /**
     * Encodes into {@code out} (reset first) the store key of {@code prefix} followed by {@code
     * last}, together all key columns, without allocating: for a caller that looks the key up in
     * a map of its own before it keeps a copy. {@link StoreKey#of} makes a copy of the bytes a key
     * this table reads and writes.
     *
     * @return where the key's distribution key ends, for {@link StoreKey#of}
     */
    public int encodeKey(ByteWriter out, Object[] prefix, Object last) {
        return encodeInto(out, prefix, prefix.length, true, last);
    }

    /**
     * Full store key for the first {@code columns} key columns of {@code key}, built in the scratch
     * buffer with one allocation; leaves where its distribution key ends in {@link #lastDistEnd}.
     */
    private byte[] encodeKey(Object[] key, int columns) {
        lastDistEnd = encodeInto(scratch, key, columns, false, null);
        return scratch.toByteArray();
    }

    /**
     * Writes into {@code out} (reset first) the store key of the first {@code columns} columns of
     * {@code key}, then {@code last} when {@code withLast}, vnode included.
     *
     * @return where the distribution key ends in {@code out}
     */
    private int encodeInto(ByteWriter out, Object[] key, int columns, boolean withLast, Object last) {
        out.reset();
        out.putInt(tableId).putShort(0);
        // an empty distribution key hashes like any other (to the vnode of no bytes), as TableKeys does
        int distEnd = TableKeys.PREFIX_LENGTH;
        int width = withLast ? columns + 1 : columns;
        for (int i = 0; i < width; i++) {
            encodeColumn(out, keyTypes.get(i), order[i], i < columns ? key[i] : last);
            if (i + 1 == distKeyCount) {
                distEnd = out.length();
            }
        }
        int vnode = VirtualNodes.of(out.array(), TableKeys.PREFIX_LENGTH, distEnd - TableKeys.PREFIX_LENGTH);
        out.set(4, vnode >>> 8);
        out.set(5, vnode);
        return distEnd;
    }

    /**
     * Memcomparable encoding with direction and NULL placement: descending inverts every byte
     * (the encoding is prefix-free, so inverted bytes sort in reverse), then the leading
     * null/not-null marker is set so NULL sorts first or last as asked.
     */
    private static void encodeColumn(ByteWriter out, DataType type, KeyOrder order, Object value) {
        if (order == KeyOrder.DEFAULT || order.equals(KeyOrder.DEFAULT)) {
            KeyCodec.encodeValue(out, type, value);
            return;
        }
        int start = out.length();
        KeyCodec.encodeValue(out, type, value);
        if (order.descending()) {
            out.invert(start);
        }
        if (value == null) {
            out.set(start, order.nullsFirst() ? 0x00 : 0xff);
        } else {
            out.set(start, order.descending() ? 0xfe : 0x01);
        }
    }

    /**
     * A store key as a hash map key, remembering where its distribution key ends; the hash is
     * computed once. Immutable; compares equal to keys of the same bytes.
     */
    public static final class StoreKey {
        final byte[] bytes;
        final int distEnd;
        private final int hash;

        StoreKey(byte[] bytes, int distEnd) {
            this.bytes = bytes;
            this.distEnd = distEnd;
            this.hash = ByteHash.of(bytes);
        }

        /**
         * The key of {@code bytes} (kept, not copied), encoded by {@link StateTable#encodeKey(ByteWriter,
         * Object[], Object)} of the table that will use it, which returned {@code distEnd}.
         */
        public static StoreKey of(byte[] bytes, int distEnd) {
            return new StoreKey(bytes, distEnd);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StoreKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Values in key order, pending writes shadowing committed ones. One thread; close it. */
    public final class ValueIterator implements Iterator<Object[]>, AutoCloseable {
        private final Iterator<Map.Entry<byte[], byte[]>> mine;
        private final KvIterator theirs;
        private Map.Entry<byte[], byte[]> nextMine;
        private byte[] theirKey;
        private byte[] theirValue;
        private byte[] nextValue;

        ValueIterator(Iterator<Map.Entry<byte[], byte[]>> mine, KvIterator theirs) {
            this.mine = mine;
            this.theirs = theirs;
            this.nextMine = mine.hasNext() ? mine.next() : null;
            advanceTheirs();
            advance();
        }

        private void advanceTheirs() {
            if (theirs.next()) {
                theirKey = theirs.key();
                theirValue = theirs.value();
            } else {
                theirKey = null;
                theirValue = null;
            }
        }

        private void advance() {
            nextValue = null;
            while (nextValue == null && (nextMine != null || theirKey != null)) {
                int cmp = nextMine == null
                        ? 1
                        : theirKey == null ? -1 : Arrays.compareUnsigned(nextMine.getKey(), theirKey);
                if (cmp <= 0) {
                    byte[] v = nextMine.getValue();
                    if (cmp == 0) {
                        advanceTheirs();
                    }
                    nextMine = mine.hasNext() ? mine.next() : null;
                    if (v != PendingWrites.TOMBSTONE) {
                        nextValue = v;
                    }
                } else {
                    nextValue = theirValue;
                    advanceTheirs();
                }
            }
        }

        @Override
        public boolean hasNext() {
            return nextValue != null;
        }

        @Override
        public Object[] next() {
            if (nextValue == null) {
                throw new NoSuchElementException();
            }
            Object[] row = valueCodec.decode(nextValue);
            advance();
            return row;
        }

        @Override
        public void close() {
            theirs.close();
        }
    }
}
