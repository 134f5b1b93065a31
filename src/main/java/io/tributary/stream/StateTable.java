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
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

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
    private static final byte[] TOMBSTONE = new byte[0];

    private final int tableId;
    private final List<DataType> keyTypes;
    private final KeyOrder[] order;
    private final int distKeyCount;
    private final RowCodec valueCodec;
    private final ReadView committed;
    /**
     * Writes since the last flush. Point reads and writes only need the hash map; the sorted copy
     * scans need is built on the first scan of an epoch and kept up to date from then on, so
     * tables that are never scanned (views, group states) never pay for ordering.
     */
    private Map<StoreKey, byte[]> pending = new HashMap<>();
    /**
     * The writes handed over at the last flush, still read through (under {@link #pending}) until
     * the next flush: a backfilling job's actor goes on past a checkpoint barrier while the
     * checkpoint is written (see {@code Actor}), so its committed view may not hold them yet. The
     * actor waits for that checkpoint to be durable before it passes the next barrier, so at the
     * next flush they are committed and this layer is dropped. Live epochs commit before their
     * actor's next input arrives, so for them this layer only repeats committed state. Point reads
     * and scans both merge it, so no read ever waits for the checkpoint's write. Null when there
     * is none.
     */
    private Map<StoreKey, byte[]> flushed;
    /**
     * {@link #flushed} sorted per distribution key, as {@link #sortedPending} is for the pending
     * writes: taken over from it at the flush when a scan had built it, else built on the first
     * scan after the flush; null until then and with {@link #flushed}.
     */
    private Map<StoreKey, NavigableMap<byte[], byte[]>> sortedFlushed;
    /**
     * The pending writes sorted per distribution key (every scan stays within one), or null until
     * the epoch's first scan. Kept per distribution key because one sorted map of all pending
     * writes cost a tree insertion with byte-array compares on every write after that scan,
     * which dominated joins whose other side probes this one.
     */
    private Map<StoreKey, NavigableMap<byte[], byte[]>> sortedPending;
    /**
     * Writes since the last flush while every key written sorted after the one before (as a whole
     * or after its vnode, see {@link AscendingWrites}) and nothing was read: held in arrival order
     * instead of {@link #pending} (empty meanwhile), so a view backfilled in key order, or fed a
     * keyless table's rows in row-id order, neither hashes its rows nor has them sorted. The
     * first write out of order, or the first read, moves them into {@link #pending} for the rest
     * of the epoch ({@link #stopAppending}).
     */
    private AscendingWrites run = new AscendingWrites();
    /** Whether writes still go to {@link #run} this epoch. */
    private boolean appending = true;
    /**
     * Whether writes out of key order go to {@link #run} as well ({@link #appendUnordered}), and
     * an epoch after one without reads through the pending writes starts appending again.
     */
    private boolean unordered;
    /** Whether a read went through the pending writes since the last flush. */
    private boolean readThisEpoch;
    /**
     * Set by the first read through the pending writes: a table that is read (a join side, a
     * group state) keeps its writes in {@link #pending} from then on, rather than moving them
     * every epoch.
     */
    private boolean readThrough;
    /**
     * The writes handed over at the last flush when they were a {@link #run}: read through like
     * {@link #flushed} (moved into it at the first read), null when none.
     */
    private AscendingWrites flushedRun;

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
        unordered = true;
    }

    public int tableId() {
        return tableId;
    }

    /** The value stored under {@code key} (all key columns), or null. */
    public Object[] get(Object[] key) {
        readingPending();
        byte[] k = encodeKey(key, key.length);
        byte[] v = uncommitted(new StoreKey(k, lastDistEnd));
        if (v == null) {
            v = committed.get(Keyspace.DATA, k);
        }
        return v == null || v == TOMBSTONE ? null : valueCodec.decode(v);
    }

    /** As {@link #get} of a key {@link #encode encoded} by this table. */
    public Object[] get(StoreKey key) {
        readingPending();
        byte[] v = uncommitted(key);
        if (v == null) {
            v = committed.get(Keyspace.DATA, key.bytes);
        }
        return v == null || v == TOMBSTONE ? null : valueCodec.decode(v);
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
        readingPending();
        Object[][] out = new Object[keys.size()][];
        List<byte[]> unknown = new java.util.ArrayList<>();
        int[] positions = new int[keys.size()];
        for (int i = 0; i < out.length; i++) {
            StoreKey k = keys.get(i);
            byte[] v = uncommitted(k);
            if (v == null) {
                positions[unknown.size()] = i;
                unknown.add(k.bytes);
            } else {
                out[i] = v == TOMBSTONE ? null : valueCodec.decode(v);
            }
        }
        List<byte[]> committedValues = committed.getAll(Keyspace.DATA, unknown);
        for (int j = 0; j < unknown.size(); j++) {
            byte[] v = committedValues.get(j);
            out[positions[j]] = v == null ? null : valueCodec.decode(v);
        }
        return out;
    }

    /** The write of {@code k} since the last flush, else the one handed over at it; null: neither. */
    private byte[] uncommitted(StoreKey k) {
        byte[] v = pending.get(k);
        if (v == null && flushed != null) {
            v = flushed.get(k);
        }
        return v;
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
        write(k, lastDistEnd, null, valueCodec.encode(value, valueScratch));
    }

    /** As {@link #put(Object[], Object[])} of a key {@link #encode encoded} by this table. */
    public void put(StoreKey key, Object[] value) {
        write(key.bytes, key.distEnd, key, valueCodec.encode(value, valueScratch));
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
        int vnode = VirtualNodes.of(pk);
        key[0] = (byte) (tableId >>> 24);
        key[1] = (byte) (tableId >>> 16);
        key[2] = (byte) (tableId >>> 8);
        key[3] = (byte) tableId;
        key[4] = (byte) (vnode >>> 8);
        key[5] = (byte) vnode;
        System.arraycopy(pk, 0, key, TableKeys.PREFIX_LENGTH, pk.length);
        write(key, key.length, null, value);
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
        write(k, lastDistEnd, null, TOMBSTONE);
    }

    /** As {@link #delete(Object[])} of a key {@link #encode encoded} by this table. */
    public void delete(StoreKey key) {
        write(key.bytes, key.distEnd, key, TOMBSTONE);
    }

    /** @param known {@code key} as a store key when the caller has one, else null */
    private void write(byte[] key, int distEnd, StoreKey known, byte[] value) {
        if (appending) {
            if (run.append(key, distEnd, value)) {
                return;
            }
            if (unordered) {
                run.appendUnordered(key, distEnd, value);
                return;
            }
            stopAppending();
        }
        StoreKey k = known != null ? known : new StoreKey(key, distEnd);
        pending.put(k, value);
        if (sortedPending != null) {
            sortedPending
                    .computeIfAbsent(k.distributionKey(), d -> new TreeMap<>(Arrays::compareUnsigned))
                    .put(k.bytes, value);
        }
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
        StoreKey distributionKey = new StoreKey(from, lastDistEnd).distributionKey();
        // never null: keys start with a table id below 0xffffffff
        return merged(from, TableKeys.prefixEnd(from), distributionKey);
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
        StoreKey distributionKey = new StoreKey(from, lastDistEnd).distributionKey();
        return merged(from, TableKeys.prefixEnd(distributionKey.bytes), distributionKey);
    }

    /**
     * Pending writes of {@code distributionKey} over the writes handed over at the last flush over
     * committed state, keys in [from, to).
     */
    private ValueIterator merged(byte[] from, byte[] to, StoreKey distributionKey) {
        readingPending();
        if (sortedPending == null) {
            sortedPending = sortedByDistributionKey(pending);
        }
        Iterator<Map.Entry<byte[], byte[]>> mine = inRange(sortedPending, distributionKey, from, to);
        if (flushed != null) {
            if (sortedFlushed == null) {
                sortedFlushed = sortedByDistributionKey(flushed);
            }
            Iterator<Map.Entry<byte[], byte[]>> handedOver = inRange(sortedFlushed, distributionKey, from, to);
            if (handedOver.hasNext()) {
                mine = mine.hasNext() ? new Shadowing(mine, handedOver) : handedOver;
            }
        }
        return new ValueIterator(mine, committed.scan(Keyspace.DATA, from, to));
    }

    private static Map<StoreKey, NavigableMap<byte[], byte[]>> sortedByDistributionKey(Map<StoreKey, byte[]> writes) {
        Map<StoreKey, NavigableMap<byte[], byte[]>> sorted = new HashMap<>();
        writes.forEach(
                (k, v) -> sorted.computeIfAbsent(k.distributionKey(), d -> new TreeMap<>(Arrays::compareUnsigned))
                        .put(k.bytes, v));
        return sorted;
    }

    private static Iterator<Map.Entry<byte[], byte[]>> inRange(
            Map<StoreKey, NavigableMap<byte[], byte[]>> sorted, StoreKey distributionKey, byte[] from, byte[] to) {
        NavigableMap<byte[], byte[]> mine = sorted.get(distributionKey);
        return mine == null
                ? java.util.Collections.emptyIterator()
                : mine.subMap(from, true, to, false).entrySet().iterator();
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
     * From now until the next flush the pending writes are kept in {@link #pending}: those of
     * {@link #run} move there; at a read, so do those of {@link #flushedRun} into {@link #flushed}.
     * Called before every read through the pending writes and on a write out of key order.
     */
    private void stopAppending() {
        if (appending) {
            appending = false;
            run.moveInto(pending);
        }
    }

    /** Before a read through the pending writes: see {@link #readThrough}. */
    private void readingPending() {
        readThrough = true;
        readThisEpoch = true;
        stopAppending();
        if (flushedRun != null) {
            flushed = new HashMap<>();
            flushedRun.moveInto(flushed);
            flushedRun = null;
        }
    }

    /**
     * Moves every write since the last flush into {@code writes} (each key once; in no particular
     * order, which the epoch's write buffer does not need). They stay readable through
     * this table until the next flush, by which time the caller has made them durable (see
     * {@link #flushed}).
     *
     * @return the number of writes handed over
     */
    public int flush(StateWrites writes) {
        // the last flush's writes are durable now (see flushed): their layer goes at this flush
        AscendingWrites spare = flushedRun;
        flushedRun = null;
        if (run.size() > 0) {
            // appended throughout the epoch, so pending is empty
            int n = run.size();
            run.handOver(writes, TOMBSTONE);
            flushed = null;
            sortedFlushed = null;
            flushedRun = run;
            if (spare != null) {
                spare.clear();
            }
            run = spare != null ? spare : new AscendingWrites();
            appending = appendsNextEpoch();
            return n;
        }
        appending = appendsNextEpoch();
        int n = 0;
        for (Map.Entry<StoreKey, byte[]> e : pending.entrySet()) {
            if (e.getValue() == TOMBSTONE) {
                writes.delete(e.getKey().bytes);
            } else {
                writes.put(e.getKey().bytes, e.getValue());
            }
            n++;
        }
        if (n == 0) {
            // the caller waited for the last flush's writes to be stored before this one
            flushed = null;
            sortedFlushed = null;
        } else {
            flushed = pending;
            // a scan this epoch already sorted them: keep that order rather than sort again
            sortedFlushed = sortedPending;
            // sized for as many writes as this epoch's: a backfill's checkpoints each write about as
            // many, and growing a map from 16 entries by doubling had been a twentieth of a join's actor CPU
            pending = new HashMap<>(capacityFor(n));
        }
        sortedPending = null;
        return n;
    }

    /**
     * Whether the epoch after this flush starts appending: a table that allows any order does
     * unless this epoch read through its writes (a live join side probed every epoch stays on the
     * map, as moving each epoch's run into it, and the handed-over run into {@link #flushed} at the
     * next epoch's first read, would hash every write twice); any other table only until its first
     * read ever. At a flush.
     */
    private boolean appendsNextEpoch() {
        boolean read = readThisEpoch;
        readThisEpoch = false;
        return unordered ? !read : !readThrough;
    }

    /** A {@link HashMap} capacity that holds {@code writes} entries without growing (its load factor is 0.75). */
    private static int capacityFor(int writes) {
        return (int) Math.min(1 << 30, writes / 3L * 4 + 16);
    }

    /** The number of keys written since the last {@link #flush}: what the next flush hands over. */
    public int pendingCount() {
        return pending.size() + run.size();
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
        private final byte[] bytes;
        private final int distEnd;
        private final int hash;

        StoreKey(byte[] bytes, int distEnd) {
            this(bytes, distEnd, ByteHash.of(bytes));
        }

        private StoreKey(byte[] bytes, int distEnd, int hash) {
            this.bytes = bytes;
            this.distEnd = distEnd;
            this.hash = hash;
        }

        /**
         * The key of {@code bytes} (kept, not copied), encoded by {@link StateTable#encodeKey(ByteWriter,
         * Object[], Object)} of the table that will use it, which returned {@code distEnd}.
         */
        public static StoreKey of(byte[] bytes, int distEnd) {
            return new StoreKey(bytes, distEnd);
        }

        /** The key's table id, vnode and distribution key columns, as a key of its own. */
        StoreKey distributionKey() {
            byte[] prefix = Arrays.copyOf(bytes, distEnd);
            return new StoreKey(prefix, distEnd, ByteHash.of(prefix));
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

    /**
     * Two sorted runs of writes as one, in key order; on a key both hold, the newer run's write
     * wins and the older one's is skipped. One thread.
     */
    private static final class Shadowing implements Iterator<Map.Entry<byte[], byte[]>> {
        private final Iterator<Map.Entry<byte[], byte[]>> newer;
        private final Iterator<Map.Entry<byte[], byte[]>> older;
        private Map.Entry<byte[], byte[]> nextNewer;
        private Map.Entry<byte[], byte[]> nextOlder;

        Shadowing(Iterator<Map.Entry<byte[], byte[]>> newer, Iterator<Map.Entry<byte[], byte[]>> older) {
            this.newer = newer;
            this.older = older;
            this.nextNewer = newer.hasNext() ? newer.next() : null;
            this.nextOlder = older.hasNext() ? older.next() : null;
        }

        @Override
        public boolean hasNext() {
            return nextNewer != null || nextOlder != null;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int cmp = nextNewer == null
                    ? 1
                    : nextOlder == null ? -1 : Arrays.compareUnsigned(nextNewer.getKey(), nextOlder.getKey());
            Map.Entry<byte[], byte[]> out;
            if (cmp <= 0) {
                out = nextNewer;
                nextNewer = newer.hasNext() ? newer.next() : null;
                if (cmp == 0) {
                    nextOlder = older.hasNext() ? older.next() : null;
                }
            } else {
                out = nextOlder;
                nextOlder = older.hasNext() ? older.next() : null;
            }
            return out;
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
                    if (v != TOMBSTONE) {
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
