package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.StreamNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import io.tributary.stream.StoredLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One input of a {@link HashJoinOperator}: its rows in a state table keyed by (join key columns,
 * stream key columns) and distributed by the join key, with the value being the row plus, for a
 * padded side, its degree (BIGINT). In front of the table sits a cache of join key to
 * {@link JoinBucket}, bounded in join keys and in rows (evicting by CLOCK, see {@link ByteKeyMap}),
 * so a probe is one cache hit or one prefix scan. The cache is looked up with the join key's
 * encoding in the caller's reused buffer, so a hit allocates nothing.
 * Every write goes to the table and, when the key is cached, to the cached bucket too, so the
 * cache never disagrees with the table.
 *
 * <p>Held mode. A side whose table holds nothing in the actor's vnodes when it is first used (a
 * view being built, or one over empty tables) starts <em>held</em>: the cache then holds every row
 * of the table, so a probe that misses it is answered "no rows" without a store scan, and a new
 * join key gets a bucket on its first insert. That is what keeps a backfill's probes off the store
 * (each would open an iterator and, once per epoch, sort the epoch's pending writes): the small
 * dimension side is probed by every row of the big side, and the big side by every dimension row
 * while both are read side by side. Memory stays bounded: once the side holds more than {@code
 * heldRows} rows it leaves held mode for good, dropping its buckets (a side that large is rarely
 * probed by the same key soon), and from then on is the bounded cache in front of the table. A side
 * that starts with stored rows (a restart, a remote build taken over) is never held. Sides cleaned
 * by a watermark ({@link #cleanBy}) are never held either: cleaning deletes past the cache. A held
 * side also leaves held mode once it took in {@link #RELEASE_ROWS} rows in a row while the other
 * side, which had brought rows before, brought none ({@link #tookRows}): in a snapshot backfill
 * that means the other side's snapshot is read, so nothing probes this side any more and holding
 * the rest of a big side's rows would only cost a bucket entry per row and the young collections
 * that copy them (a later probe scans the store, as for a side past its bound). One actor
 * thread.
 */
final class JoinSide {
    private final int width;
    private final int[] keyColumns;
    private final int[] streamKey;
    private final List<DataType> keyTypes;
    private final List<DataType> streamKeyTypes;
    private final boolean padded;
    private final StateTable table;
    private final ByteKeyMap<JoinBucket> cache = new ByteKeyMap<>(1024);
    private final int cacheKeys;
    /** Rows this side may hold in held mode; 0: never held. */
    private final int heldRows;
    /** The actor's vnodes, ascending, or null for all: where the table must be empty to start held. */
    private final int[] ownedVnodes;
    /** For a table other actors write too (a dimension join's left side): which scanned rows are ours; else null. */
    private final OwnedRows owner;
    /** Held mode (see the class comment): null until the first use decides it, then true or false. */
    private Boolean held;
    /** Rows held by cached buckets; the cache is bounded in rows too, since one key may have millions. */
    private long cachedRows;
    /** Whether the other side ever brought rows ({@link #otherTookRows}). */
    private boolean otherSeen;
    /** Rows this side took in since the other side last brought any. */
    private long rowsSinceOther;
    /** Whether a quiet other side ends held mode ({@link #tookRows}); not for a broadcast side. */
    private boolean releasedByQuietOther = true;

    /** The stored layout {@link #storesAs} last answered for, and its answer (actor thread). */
    private StoredLayout checkedLayout;

    private boolean storesAsChecked;

    private final ByteWriter scratch = new ByteWriter(64);
    /**
     * The state table key of the row being written, reused: the table encodes a key before it
     * returns, so a big side's insert allocates no key array per row.
     */
    private final Object[] keyScratch;
    /** A padded side's row and degree being written, reused as {@link #keyScratch}; null if not padded. */
    private final Object[] valueScratch;
    /** With cleaning ({@link #cleanBy}): the join keys with stored rows; otherwise null. */
    private JoinKeyIndex index;
    /** With cleaning: the rows' column that says when they may go. */
    private int timeColumn = -1;

    /**
     * @param keyColumns this side's join key columns
     * @param padded whether unmatched rows of this side appear NULL-padded (then degrees are kept)
     * @param cacheKeys how many join keys the cache holds at most (at least 1)
     * @param heldRows how many rows the side may hold in held mode; 0 turns held mode off
     * @param ownedVnodes the vnodes whose rows of the table are the actor's, ascending, or null for
     *     every vnode (a table every actor writes whole, or one whose rows the actor tells by {@code
     *     owner})
     * @param owner which rows a scan finds are the actor's, for a table the actors share without
     *     owning its vnodes (a dimension join's left side); null: every row found
     */
    JoinSide(
            StreamNode input,
            int[] keyColumns,
            boolean padded,
            int tableId,
            ReadView committed,
            int cacheKeys,
            int heldRows,
            int[] ownedVnodes,
            OwnedRows owner) {
        List<DataType> types = input.fields().stream().map(Field::type).toList();
        this.width = types.size();
        this.keyColumns = keyColumns.clone();
        this.streamKey = input.streamKey().clone();
        this.keyTypes = pick(types, keyColumns);
        this.streamKeyTypes = pick(types, streamKey);
        this.padded = padded;
        this.keyScratch = new Object[keyColumns.length + streamKey.length];
        this.valueScratch = padded ? new Object[width + 1] : null;
        List<DataType> tableKey = new ArrayList<>(keyTypes);
        tableKey.addAll(streamKeyTypes);
        List<DataType> value = new ArrayList<>(types);
        if (padded) {
            value.add(DataType.BIGINT);
        }
        this.table = new StateTable(tableId, tableKey, null, keyColumns.length, value, committed);
        if (!padded) {
            // one write per row taken in (no degrees rewritten), and read only while the other
            // side's rows come: a backfill's big side is appended, not hashed, once those are in
            table.appendUnordered();
        }
        if (cacheKeys < 1) {
            throw new IllegalArgumentException("the join cache must hold at least one key");
        }
        this.cacheKeys = cacheKeys;
        this.heldRows = heldRows;
        this.ownedVnodes = ownedVnodes == null ? null : ownedVnodes.clone();
        this.owner = owner;
    }

    /**
     * Whether the cache holds every row of the table (see the class comment), deciding it at the
     * first call: before this side's first write, so its table's committed state is all there is.
     */
    private boolean held() {
        if (held == null) {
            held = heldRows > 0 && index == null && table.committedEmpty(ownedVnodes);
        }
        return held;
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

    /**
     * Whether {@code row}'s join key can equal anything: no column is NULL unless its pair is
     * null-safe ({@code nullSafe}, in join key order).
     */
    boolean canMatch(Object[] row, boolean[] nullSafe) {
        for (int i = 0; i < keyColumns.length; i++) {
            if (row[keyColumns[i]] == null && !nullSafe[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the memcomparable encoding of {@code row}'s join key into {@code out} (reset first);
     * sides with key types of the same encoding agree on it, so the other side's cache can be
     * probed with it.
     */
    void encodeJoinKey(Object[] row, ByteWriter out) {
        out.reset();
        KeyCodec.encode(out, keyTypes, row, keyColumns);
    }

    /**
     * This side's rows whose join key is SQL-equal to the probe's, {@code key} holding its encoding
     * ({@link #encodeJoinKey}) and {@code probe} the probing row of the other side, whose join key
     * columns are {@code probeKeyColumns}: from the cache or else one prefix scan whose result is
     * then cached. Callers may change the rows' degrees, writing each change back with {@link
     * #writeDegree}.
     */
    JoinBucket bucket(ByteWriter key, Object[] probe, int[] probeKeyColumns) {
        int id = cache.find(key.array(), key.length());
        if (id >= 0) {
            return cache.get(id);
        }
        if (held()) {
            return JoinBucket.EMPTY;
        }
        Object[] joinKey = new Object[probeKeyColumns.length];
        for (int i = 0; i < joinKey.length; i++) {
            joinKey[i] = probe[probeKeyColumns[i]];
        }
        JoinBucket bucket = new JoinBucket();
        try (StateTable.ValueIterator it = table.scan(joinKey)) {
            while (it.hasNext()) {
                Object[] stored = it.next();
                Object[] row = Arrays.copyOf(stored, width);
                if (owner != null && !owner.owns(row)) {
                    continue; // another actor's left row: it joins that actor's output
                }
                encodeStreamKey(row);
                bucket.add(scratch.array(), scratch.length(), row, padded ? (Long) stored[width] : 0);
            }
        }
        if (bucket.size() <= MAX_CACHED_ROWS) {
            cache.put(key.array(), key.length(), bucket);
            cachedRows += bucket.size();
            evict();
        }
        return bucket;
    }

    /**
     * Whether this side is held now (see the class comment): then {@link #heldEntry} and {@link
     * #heldBucketOf} answer every probe, and its cache changes only by this side's own inserts and
     * deletes.
     */
    boolean isHeld() {
        return held == Boolean.TRUE;
    }

    /**
     * For a side that {@link #isHeld}, the first half of a probe: the cache entry of the join key
     * encoded in {@code key}, or -1 for none (no rows). Touches nothing else, so it reads no store.
     * Valid until this side's next insert or delete.
     */
    int heldEntry(ByteWriter key) {
        return cache.find(key.array(), key.length());
    }

    /** The second half: the bucket of {@code entry} ({@link #heldEntry}), or the empty one for -1. */
    JoinBucket heldBucketOf(int entry) {
        return entry >= 0 ? cache.get(entry) : JoinBucket.EMPTY;
    }

    /** This side's join key columns, in join key order; callers must not change them. */
    int[] keyColumns() {
        return keyColumns;
    }

    /** Rows the cache may hold over all its buckets. */
    static final long MAX_CACHED_ROWS = 200_000;

    /**
     * Rows a held side takes in with none from the other side before it leaves held mode (see the
     * class comment). An actor reads at most 8 messages (chunks of at most 1,024 rows) per channel
     * before it steps its backfills again, so while both sides still bring rows the gaps stay below
     * this with up to two upstream actors per input (a 2-core server's parallelism); with more, a
     * side may be let go early, which costs scans, not results.
     */
    static final long RELEASE_ROWS = 32_768;

    /**
     * Counts {@code rows} changes this side is about to take in, leaving held mode when the other
     * side has gone quiet (see the class comment). The operator calls it once per input chunk,
     * before applying the chunk's changes.
     */
    void tookRows(int rows) {
        rowsSinceOther += rows;
        if (held == Boolean.TRUE && releasedByQuietOther && otherSeen && rowsSinceOther > RELEASE_ROWS) {
            release();
        }
    }

    /**
     * Keeps held mode however long the other side is quiet (only the held-row bound ends it): for a
     * dimension join's broadcast side, which every actor takes in whole, in bursts far longer than
     * {@link #RELEASE_ROWS} while its left rows wait, and which every left row probes. Letting it go
     * made each left row's probe a store scan (JFR of {@code bench backfill}'s join: a tenth of the
     * join actors' samples).
     */
    void keepHeldWhileOtherQuiet() {
        releasedByQuietOther = false;
    }

    /** The other side is about to take in a chunk of changes (see {@link #tookRows}). */
    void otherTookRows() {
        otherSeen = true;
        rowsSinceOther = 0;
    }

    /** Leaves held mode for good, dropping every bucket: from now on the cache is bounded. */
    private void release() {
        held = false;
        cache.clear();
        cachedRows = 0;
    }

    /**
     * Drops buckets not used lately while the cache holds too many keys or rows; in held mode,
     * leaves it once the side holds more than its held rows.
     */
    private void evict() {
        if (held == Boolean.TRUE) {
            if (cachedRows > heldRows) {
                release();
            }
            return;
        }
        while (cache.size() > 0 && (cache.size() > cacheKeys || cachedRows > MAX_CACHED_ROWS)) {
            int victim = cache.victim();
            cachedRows -= cache.get(victim).size();
            cache.remove(victim);
        }
    }

    /**
     * Makes this side index its join keys by its rows' column {@code timeColumn} (a TIMESTAMP), so
     * {@link #forgetUpTo} can drop rows. Before any row is inserted.
     */
    void cleanBy(int timeColumn) {
        this.timeColumn = timeColumn;
        index = new JoinKeyIndex(timeColumn);
    }

    /**
     * Indexes the join keys of the rows committed in {@code vnodes}, once, when a cleaning operator
     * starts; nothing for a side that is not cleaned.
     */
    void indexStored(int[] vnodes) {
        if (index == null) {
            return;
        }
        ByteWriter key = new ByteWriter(32);
        for (int vnode : vnodes) {
            try (StateTable.ValueIterator it = table.scanCommittedVnode(vnode)) {
                while (it.hasNext()) {
                    Object[] row = it.next();
                    encodeJoinKey(row, key);
                    index.add(key, row, keyColumns);
                }
            }
        }
    }

    /**
     * Deletes every row whose time column is at most {@code upTo}, from the table and the cache, and
     * indexes a key whose rows were not all that old again under its least remaining time. Only
     * with {@link #cleanBy}; the caller proves no such row gets another change or match.
     *
     * @return how many rows were deleted
     */
    int forgetUpTo(long upTo) {
        int deleted = 0;
        ByteWriter key = null;
        for (JoinKeyIndex.Entry e : index.removeUpTo(upTo)) {
            List<Object[]> rows = new ArrayList<>();
            Object[] earliestKept = null;
            try (StateTable.ValueIterator it = table.scan(e.values())) {
                while (it.hasNext()) {
                    Object[] row = it.next();
                    Long time = (Long) row[timeColumn];
                    if (time == null) {
                        continue; // never finished, never indexed
                    }
                    if (time <= upTo) {
                        rows.add(row);
                    } else if (earliestKept == null || time < (Long) earliestKept[timeColumn]) {
                        earliestKept = row;
                    }
                }
            }
            for (Object[] row : rows) {
                table.delete(tableKey(row));
            }
            deleted += rows.size();
            int id = cache.find(e.encoded(), e.encoded().length);
            if (id >= 0) {
                cachedRows -= cache.get(id).size();
                cache.remove(id);
            }
            if (earliestKept != null) {
                if (key == null) {
                    key = new ByteWriter(32);
                }
                encodeJoinKey(earliestKept, key);
                index.add(key, earliestKept, keyColumns);
            }
        }
        return deleted;
    }

    /**
     * Whether this side stores its rows' values exactly as rows of {@code layout} are stored (no
     * degree column, the same column types), so {@link #insert} can put a snapshot row's stored
     * bytes instead of encoding the row again (a dimension join's big side: its input is the
     * upstream table's rows as they are).
     */
    boolean storesAs(StoredLayout layout) {
        if (layout != checkedLayout) {
            checkedLayout = layout;
            storesAsChecked = !padded && table.storesValuesAs(layout);
        }
        return storesAsChecked;
    }

    /**
     * Stores a new row whose join key is encoded in {@code key}, with {@code degree} current
     * matches; {@code stored} is the row's value already encoded as this side stores it (see {@link
     * #storesAs}), kept, or null to encode {@code row}.
     */
    void insert(ByteWriter key, Object[] row, long degree, byte[] stored) {
        boolean held = held();
        if (stored != null) {
            table.putEncodedValue(tableKey(row), stored);
        } else {
            table.put(tableKey(row), value(row, degree));
        }
        if (index != null) {
            index.add(key, row, keyColumns);
        }
        int id = cache.find(key.array(), key.length());
        if (id < 0 && held) {
            id = cache.put(key.array(), key.length(), new JoinBucket());
        }
        if (id >= 0) {
            encodeStreamKey(row);
            cachedRows += cache.get(id).add(scratch.array(), scratch.length(), row, degree);
            evict();
        }
    }

    /** Removes a stored row whose join key is encoded in {@code key}. */
    void delete(ByteWriter key, Object[] row) {
        table.delete(tableKey(row));
        int id = cache.find(key.array(), key.length());
        if (id >= 0) {
            JoinBucket bucket = cache.get(id);
            encodeStreamKey(row);
            cachedRows -= bucket.remove(scratch.array(), scratch.length());
            if (held() && bucket.size() == 0) {
                // held keys are bounded by held rows: no empty bucket stays
                cache.remove(id);
            }
        }
    }

    /** Persists a changed degree, {@code degree}, of a row obtained from {@link #bucket}. */
    void writeDegree(Object[] row, long degree) {
        table.put(tableKey(row), value(row, degree));
    }

    /** Hands every state write since the last flush to the epoch's commit. */
    void flush(StateWrites writes) {
        table.flush(writes);
    }

    /** {@code row}'s state table key in {@link #keyScratch}, valid until the next call. */
    private Object[] tableKey(Object[] row) {
        Object[] key = keyScratch;
        for (int i = 0; i < keyColumns.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        for (int i = 0; i < streamKey.length; i++) {
            key[keyColumns.length + i] = row[streamKey[i]];
        }
        return key;
    }

    /** {@code row} as stored: itself, or for a padded side with {@code degree} in {@link #valueScratch}. */
    private Object[] value(Object[] row, long degree) {
        if (!padded) {
            return row;
        }
        Object[] value = valueScratch;
        System.arraycopy(row, 0, value, 0, width);
        value[width] = degree;
        return value;
    }

    /** Encodes {@code row}'s stream key into {@link #scratch}, which a bucket copies only for a new row. */
    private void encodeStreamKey(Object[] row) {
        scratch.reset();
        KeyCodec.encode(scratch, streamKeyTypes, row, streamKey);
    }
}
