package io.tributary.storage.rocksdb;

import io.tributary.common.codec.ByteHash;
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.SortedFile;
import io.tributary.storage.SortedPositions;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Writes kept in Java, in order, until they are applied: as one native {@code WriteBatch} at a
 * commit, or as an ingested SST file for {@link RocksStateStore#write}. Beside the writes, an
 * index of which keys this buffer wrote and their values after it, for uniqueness checks and for
 * the old rows DML hands to streaming jobs.
 * RocksDB's indexed batch was measured at over 5 µs per put and lookup; this costs a fraction.
 * Keys and values are held, not copied: callers hand over arrays they no longer change.
 */
final class RocksWriteBuffer implements WriteBuffer {
    private static final int MULTI_GET_CHUNK = 4096;
    private static final byte PUT = 0;
    private static final byte DELETE = 1;
    /** Key is the range's start, value its end. */
    private static final byte DELETE_RANGE = 2;
    /** The pairs of a {@link KeyValueRun}; key and value slots are null, the run is in {@link #runs}. */
    private static final byte RUN = 3;

    private final RocksStateStore store;
    /**
     * The writes in order: at each position the operation, the keyspace ordinal, the key and the
     * value (null for a delete). Parallel arrays, so that a write allocates nothing here and
     * hashes nothing: checkpoints and loads that never look a key up never pay for it.
     */
    private final List<byte[]> keys = new ArrayList<>();

    private final List<byte[]> values = new ArrayList<>();
    /** The runs put, in order, with the write position of each. */
    private final List<KeyValueRun> runs = new ArrayList<>();

    private final List<Integer> runPositions = new ArrayList<>();
    /** Pairs in {@link #runs}. */
    private long runPairs;

    /** The sorted files put ({@link #putFile}), ingested by the commit ahead of the batch. */
    private final List<RocksSortedFile> files = new ArrayList<>();
    /** Per file, the start and the exclusive end of its key range, which the commit records for undo. */
    private final List<byte[]> fileRanges = new ArrayList<>();

    private long filePairs;
    /** How many files were put when the save point was set. */
    private int filesAtSavePoint;

    private byte[] ops = new byte[64];
    private byte[] keyspaces = new byte[64];
    /**
     * Which keys this buffer wrote and their values after it ({@link #DELETED} when removed), for
     * the writes before {@link #indexed}. Brought up to date on the first lookup after writes: a
     * bulk load whose epoch commits before anyone asks never pays for indexing its rows.
     */
    private final Map<IndexKey, byte[]> written = new HashMap<>();

    private int indexed;
    /** The index's mark for a key this buffer deletes (compared by identity). */
    private static final byte[] DELETED = new byte[0];
    /** While a save point is set: how many writes there were at it, and index changes to undo. */
    private int savePoint = -1;

    private List<Object[]> undo;

    RocksWriteBuffer(RocksStateStore store) {
        this.store = store;
    }

    /** A buffered key with its keyspace; hash cached because every key is hashed at least twice. */
    private static final class IndexKey {
        private final int keyspace;
        private final byte[] key;
        private final int hash;

        IndexKey(int keyspace, byte[] key) {
            this.keyspace = keyspace;
            this.key = key;
            this.hash = ByteHash.of(key) * 31 + this.keyspace;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IndexKey k && k.keyspace == keyspace && Arrays.equals(k.key, key);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Override
    public void put(Keyspace keyspace, byte[] key, byte[] value) {
        append(PUT, keyspace, key, value);
    }

    @Override
    public void delete(Keyspace keyspace, byte[] key) {
        append(DELETE, keyspace, key, null);
    }

    @Override
    public void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        append(DELETE_RANGE, keyspace, from, toExclusive);
    }

    @Override
    public void putRun(Keyspace keyspace, KeyValueRun run) {
        runs.add(run);
        runPositions.add(keys.size());
        runPairs += run.size();
        append(RUN, keyspace, null, null);
    }

    /** The run written at position {@code at}. */
    private KeyValueRun runAt(int at) {
        for (int r = runs.size() - 1; r >= 0; r--) {
            if (runPositions.get(r) == at) {
                return runs.get(r);
            }
        }
        throw new IllegalStateException("no run at write " + at);
    }

    private void append(byte op, Keyspace keyspace, byte[] key, byte[] value) {
        int at = keys.size();
        if (at == ops.length) {
            ops = Arrays.copyOf(ops, at * 2);
            keyspaces = Arrays.copyOf(keyspaces, at * 2);
        }
        ops[at] = op;
        keyspaces[at] = (byte) keyspace.ordinal();
        keys.add(key);
        values.add(value);
    }

    /**
     * Brings the index up to date. Under a save point, writes made after it are remembered with
     * the value they replaced, to undo them.
     */
    private void foldIndex() {
        for (int i = indexed; i < keys.size(); i++) {
            if (ops[i] == DELETE_RANGE) {
                continue;
            }
            if (ops[i] == RUN) {
                // rare: a lookup in the epoch of a bulk load indexes the load's pairs as copies
                KeyValueRun run = runAt(i);
                for (int p = 0; p < run.size(); p++) {
                    IndexKey key = new IndexKey(keyspaces[i], run.key(p));
                    byte[] previous = written.put(key, run.value(p));
                    if (undo != null && i >= savePoint) {
                        undo.add(new Object[] {key, previous});
                    }
                }
                continue;
            }
            IndexKey key = new IndexKey(keyspaces[i], keys.get(i));
            byte[] previous = written.put(key, ops[i] == PUT ? values.get(i) : DELETED);
            if (undo != null && i >= savePoint) {
                undo.add(new Object[] {key, previous});
            }
        }
        indexed = keys.size();
    }

    @Override
    public void setSavePoint() {
        if (undo != null) {
            throw new IllegalStateException("a save point is already set");
        }
        undo = new ArrayList<>();
        savePoint = keys.size();
        filesAtSavePoint = files.size();
    }

    @Override
    public void rollbackToSavePoint() {
        if (undo == null) {
            throw new IllegalStateException("no save point is set");
        }
        keys.subList(savePoint, keys.size()).clear();
        values.subList(savePoint, values.size()).clear();
        while (!runs.isEmpty() && runPositions.get(runs.size() - 1) >= savePoint) {
            runPairs -= runs.remove(runs.size() - 1).size();
            runPositions.remove(runPositions.size() - 1);
        }
        indexed = Math.min(indexed, savePoint);
        while (files.size() > filesAtSavePoint) {
            RocksSortedFile f = files.remove(files.size() - 1);
            filePairs -= f.pairs();
            f.close();
            fileRanges.subList(fileRanges.size() - 2, fileRanges.size()).clear();
        }
        for (int i = undo.size() - 1; i >= 0; i--) {
            IndexKey key = (IndexKey) undo.get(i)[0];
            byte[] previous = (byte[]) undo.get(i)[1];
            if (previous == null) {
                written.remove(key);
            } else {
                written.put(key, previous);
            }
        }
        undo = null;
        savePoint = -1;
    }

    @Override
    public void releaseSavePoint() {
        if (undo == null) {
            throw new IllegalStateException("no save point is set");
        }
        undo = null;
        savePoint = -1;
    }

    @Override
    public boolean exists(Keyspace keyspace, byte[] key) {
        return get(keyspace, key) != null;
    }

    @Override
    public boolean[] existAll(Keyspace keyspace, List<byte[]> keys) {
        List<byte[]> values = getAll(keyspace, keys);
        boolean[] out = new boolean[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i) != null;
        }
        return out;
    }

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        foldIndex();
        byte[] mine = written.get(new IndexKey(keyspace.ordinal(), key));
        if (mine != null) {
            return mine == DELETED ? null : mine;
        }
        try {
            return store.db().get(store.handle(keyspace), key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void forEachWritten(
            Keyspace keyspace, byte[] from, byte[] toExclusive, java.util.function.BiConsumer<byte[], byte[]> action) {
        foldIndex();
        int ordinal = keyspace.ordinal();
        for (Map.Entry<IndexKey, byte[]> e : written.entrySet()) {
            byte[] key = e.getKey().key;
            if (e.getKey().keyspace == ordinal
                    && Arrays.compareUnsigned(key, from) >= 0
                    && Arrays.compareUnsigned(key, toExclusive) < 0) {
                action.accept(key, e.getValue() == DELETED ? null : e.getValue());
            }
        }
    }

    @Override
    public List<byte[]> getAll(Keyspace keyspace, List<byte[]> keys) {
        foldIndex();
        byte[][] out = new byte[keys.size()][];
        // positions of the keys this buffer did not write: the committed state answers for them
        int[] unknown = new int[out.length];
        int unknownCount = 0;
        for (int i = 0; i < out.length; i++) {
            byte[] mine = written.isEmpty() ? null : written.get(new IndexKey(keyspace.ordinal(), keys.get(i)));
            if (mine != null) {
                out[i] = mine == DELETED ? null : mine;
            } else {
                unknown[unknownCount++] = i;
            }
        }
        ColumnFamilyHandle cf = store.handle(keyspace);
        if (unknownCount >= RANGE_PROBE_MIN_KEYS && noneCommittedBetween(cf, keys, unknown, unknownCount)) {
            return Arrays.asList(out);
        }
        try {
            for (int from = 0; from < unknownCount; from += MULTI_GET_CHUNK) {
                int to = Math.min(unknownCount, from + MULTI_GET_CHUNK);
                List<byte[]> chunkKeys = new ArrayList<>(to - from);
                List<ColumnFamilyHandle> handles = new ArrayList<>(to - from);
                for (int j = from; j < to; j++) {
                    chunkKeys.add(keys.get(unknown[j]));
                    handles.add(cf);
                }
                List<byte[]> values = store.db().multiGetAsList(handles, chunkKeys);
                for (int j = from; j < to; j++) {
                    out[unknown[j]] = values.get(j - from);
                }
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        return Arrays.asList(out);
    }

    /** From this many keys on, one seek may save a batched read of every key. */
    private static final int RANGE_PROBE_MIN_KEYS = 256;

    /**
     * Whether the committed state holds no key between the least and the greatest of
     * {@code keys} at the first {@code count} {@code positions}: then none of them exists, and one
     * seek answered what a batched read of each key would have. Bulk loads into a new table, or
     * past its greatest key, are answered this way.
     */
    private boolean noneCommittedBetween(ColumnFamilyHandle cf, List<byte[]> keys, int[] positions, int count) {
        byte[] least = keys.get(positions[0]);
        byte[] greatest = least;
        for (int i = 1; i < count; i++) {
            byte[] k = keys.get(positions[i]);
            if (Arrays.compareUnsigned(k, least) < 0) {
                least = k;
            } else if (Arrays.compareUnsigned(k, greatest) > 0) {
                greatest = k;
            }
        }
        return noneCommittedBetween(cf, least, greatest);
    }

    /** Whether the committed state holds no key in {@code [least, greatest]}. */
    private boolean noneCommittedBetween(ColumnFamilyHandle cf, byte[] least, byte[] greatest) {
        try (RocksIterator it = store.db().newIterator(cf)) {
            it.seek(least);
            if (!it.isValid()) {
                it.status();
                return true;
            }
            return Arrays.compareUnsigned(it.key(), greatest) > 0;
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    /**
     * Whether the committed state holds no key between the least and greatest of {@code run}'s
     * keys within each vnode the run writes: one seek when its whole range is empty (a new
     * table), else one per vnode (a load whose keys lie above a table's greatest).
     */
    private boolean noneCommittedWithin(ColumnFamilyHandle cf, KeyValueRun run) {
        if (noneCommittedBetween(cf, run.least(), run.greatest())) {
            return true;
        }
        int[] bounds = RunIngestion.vnodeBounds(run);
        try (RocksIterator it = store.db().newIterator(cf)) {
            for (int b = 0; b < bounds.length; b += 2) {
                byte[] last = run.key(bounds[b + 1]);
                it.seek(run.key(bounds[b]));
                if (it.isValid() && Arrays.compareUnsigned(it.key(), last) <= 0) {
                    return false;
                }
                it.status();
            }
            return true;
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public int firstExisting(Keyspace keyspace, KeyValueRun run) {
        if (run.size() == 0) {
            return -1;
        }
        foldIndex();
        if (!noneCommittedWithin(store.handle(keyspace), run)) {
            // loading among committed rows: ask for every key, as a batch of single puts would
            List<byte[]> keyList = new ArrayList<>(run.size());
            for (int i = 0; i < run.size(); i++) {
                keyList.add(run.key(i));
            }
            List<byte[]> found = getAll(keyspace, keyList);
            for (int i = 0; i < found.size(); i++) {
                if (found.get(i) != null) {
                    return i;
                }
            }
            return -1;
        }
        // nothing committed in the run's range: only this buffer's own writes can hold its keys
        int first = -1;
        for (Map.Entry<IndexKey, byte[]> e : written.entrySet()) {
            if (e.getKey().keyspace == keyspace.ordinal() && e.getValue() != DELETED) {
                int at = run.indexOf(e.getKey().key);
                if (at >= 0 && (first < 0 || at < first)) {
                    first = at;
                }
            }
        }
        return first;
    }

    /**
     * The write positions of the runs that {@link RocksStateStore#commit} may ingest as SST files
     * ahead of this buffer's batch, with the same outcome as writing them in the batch: runs of
     * the data keyspace of at least {@code minPairs} pairs, all of one table, no committed key
     * between their least and greatest keys within each vnode (so removing those ranges undoes them
     * exactly), no
     * earlier write of this buffer to any of their keys (the batch, applied after the ingestion,
     * would otherwise reorder it), ranges disjoint from each other, and no range deletion anywhere
     * in the buffer. Called by the committing thread before the commit; reads the committed state.
     */
    List<Integer> ingestableRuns(int minPairs) {
        if (runs.isEmpty()) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (ops[i] == DELETE_RANGE) {
                return List.of();
            }
        }
        for (int r = 0; r < runs.size(); r++) {
            int at = runPositions.get(r);
            KeyValueRun run = runs.get(r);
            if (keyspaces[at] != Keyspace.DATA.ordinal()
                    || run.size() < minPairs
                    || !Arrays.equals(run.least(), 0, 4, run.greatest(), 0, 4)
                    || writtenEarlier(run, at)
                    || overlapsChosen(run, out)
                    || !noneCommittedWithin(store.handle(Keyspace.DATA), run)) {
                continue;
            }
            out.add(at);
        }
        return out;
    }

    /** Whether a write before position {@code at} touched one of {@code run}'s keys. */
    private boolean writtenEarlier(KeyValueRun run, int at) {
        for (int i = 0; i < at; i++) {
            if (keyspaces[i] != Keyspace.DATA.ordinal()) {
                continue;
            }
            if (ops[i] == RUN) {
                KeyValueRun other = runAt(i);
                if (other.size() > 0
                        && Arrays.compareUnsigned(other.least(), run.greatest()) <= 0
                        && Arrays.compareUnsigned(run.least(), other.greatest()) <= 0) {
                    for (int p = 0; p < other.size(); p++) {
                        if (run.indexOf(other.key(p)) >= 0) {
                            return true;
                        }
                    }
                }
            } else if (run.indexOf(keys.get(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    private boolean overlapsChosen(KeyValueRun run, List<Integer> chosen) {
        for (int at : chosen) {
            KeyValueRun other = runAt(at);
            if (Arrays.compareUnsigned(other.least(), run.greatest()) <= 0
                    && Arrays.compareUnsigned(run.least(), other.greatest()) <= 0) {
                return true;
            }
        }
        return false;
    }

    /** The run written at position {@code at}, for ingestion. */
    KeyValueRun run(int at) {
        return runAt(at);
    }

    /**
     * Takes the run at position {@code at} out of the batch, once it has been ingested: it stays a
     * write of no pairs, so positions and save points keep their meaning.
     */
    void dropRun(int at) {
        for (int r = runs.size() - 1; r >= 0; r--) {
            if (runPositions.get(r) == at) {
                runPairs -= runs.get(r).size();
                runs.set(r, new KeyValueRun(0));
                return;
            }
        }
        throw new IllegalStateException("no run at write " + at);
    }

    @Override
    public void putFile(SortedFile file, byte[] from, byte[] toExclusive) {
        RocksSortedFile rocks = (RocksSortedFile) file;
        rocks.finishedPath();
        files.add(rocks);
        fileRanges.add(from);
        fileRanges.add(toExclusive);
        filePairs += file.pairs();
    }

    /** The finished files put, in order, for the commit's ingestion. */
    List<java.nio.file.Path> filePaths() {
        List<java.nio.file.Path> out = new ArrayList<>(files.size());
        for (RocksSortedFile f : files) {
            out.add(f.finishedPath());
        }
        return out;
    }

    /** Per file put, its range's start then its exclusive end. */
    List<byte[]> fileRanges() {
        return fileRanges;
    }

    @Override
    public long size() {
        return keys.size() - runs.size() + runPairs + filePairs;
    }

    /**
     * Applies every write in one atomic native batch, handed over as its serialized image in one
     * JNI call ({@link WriteBatchImage}); a batch too large for one Java array goes put by put.
     */
    void writeTo(RocksDB db, WriteOptions options) {
        long size = imageSize();
        try (WriteBatch batch = size <= MAX_IMAGE ? new WriteBatch(image((int) size)) : writeByWrite()) {
            db.write(options, batch);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    /** The batch's image, as {@link #writeTo} hands it over when it fits one array. */
    byte[] image() {
        return image(Math.toIntExact(imageSize()));
    }

    private long imageSize() {
        long size = WriteBatchImage.HEADER;
        for (int i = 0; i < keys.size(); i++) {
            int cf = store.familyId(keyspaces[i]);
            if (ops[i] == RUN) {
                KeyValueRun run = runAt(i);
                for (int p = 0; p < run.size(); p++) {
                    size += WriteBatchImage.size(cf, run.keyLength(p), run.valueLength(p));
                }
            } else {
                size += WriteBatchImage.size(cf, keys.get(i), values.get(i));
            }
        }
        return size;
    }

    /** Largest image built in Java: below the JVM's array limit with room to spare. */
    private static final long MAX_IMAGE = Integer.MAX_VALUE - 64;

    /**
     * The batch's image, with each stretch of puts and deletes between two range deletions or runs
     * in key order (equal keys in the order written, so the last write of a key still wins, and
     * no point write moves across a range deletion or a run). RocksDB inserts a batch into the
     * memtable's skip list in the batch's order, reusing the previous insert's path: keys in order
     * take a few steps each, keys in write order (a statement's rows, then each view's state
     * tables) a full descent with a cache miss per level. That descent was about a quarter of the
     * whole process's CPU in perf of {@code bench stream} with three views.
     */
    private byte[] image(int size) {
        WriteBatchImage image = new WriteBatchImage(size);
        int from = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (ops[i] == RUN || ops[i] == DELETE_RANGE) {
                putPointWrites(image, from, i);
                addWrite(image, i);
                from = i + 1;
            }
        }
        putPointWrites(image, from, keys.size());
        return image.toByteArray();
    }

    /** Adds the puts and deletes at positions {@code [from, to)} to {@code image} in key order. */
    private void putPointWrites(WriteBatchImage image, int from, int to) {
        if (to - from < 2) {
            for (int i = from; i < to; i++) {
                addWrite(image, i);
            }
            return;
        }
        int[] sorted = new SortedPositions(keys.subList(from, to).toArray(new byte[0][])).sorted();
        for (int rank : sorted) {
            addWrite(image, from + rank);
        }
    }

    private void addWrite(WriteBatchImage image, int i) {
        int cf = store.familyId(keyspaces[i]);
        switch (ops[i]) {
            case PUT -> image.put(cf, keys.get(i), values.get(i));
            case DELETE -> image.delete(cf, keys.get(i));
            case RUN -> {
                KeyValueRun run = runAt(i);
                for (int p = 0; p < run.size(); p++) {
                    image.put(cf, run.chunk(p), run.keyAt(p), run.keyLength(p), run.valueAt(p), run.valueLength(p));
                }
            }
            default -> image.deleteRange(cf, keys.get(i), values.get(i));
        }
    }

    private WriteBatch writeByWrite() throws RocksDBException {
        Keyspace[] spaces = Keyspace.values();
        WriteBatch batch = new WriteBatch();
        try {
            for (int i = 0; i < keys.size(); i++) {
                ColumnFamilyHandle cf = store.handle(spaces[keyspaces[i]]);
                switch (ops[i]) {
                    case PUT -> batch.put(cf, keys.get(i), values.get(i));
                    case DELETE -> batch.delete(cf, keys.get(i));
                    case RUN -> {
                        KeyValueRun run = runAt(i);
                        for (int p = 0; p < run.size(); p++) {
                            batch.put(cf, run.key(p), run.value(p));
                        }
                    }
                    default -> batch.deleteRange(cf, keys.get(i), values.get(i));
                }
            }
            return batch;
        } catch (RocksDBException | RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /**
     * Whether {@link #writeSorted} can take these writes: only puts and deletes, all in
     * {@code keyspace}, and at least one.
     */
    boolean onlyPointWritesTo(Keyspace keyspace) {
        for (int i = 0; i < keys.size(); i++) {
            if (ops[i] == DELETE_RANGE || ops[i] == RUN || keyspaces[i] != keyspace.ordinal()) {
                return false;
            }
        }
        return !keys.isEmpty();
    }

    /** Receives the net writes in ascending unsigned key order. */
    interface SortedSink {
        /** @param value null for a delete */
        void accept(byte[] key, byte[] value) throws RocksDBException;
    }

    /** Hands the last write of each key to {@code sink} in key order; for {@link #onlyPointWritesTo} buffers. */
    void writeSorted(SortedSink sink) throws RocksDBException {
        byte[][] k = keys.toArray(new byte[0][]);
        SortedPositions order = new SortedPositions(k);
        int[] sorted = order.sorted();
        for (int i = 0; i < sorted.length; i++) {
            int at = sorted[i];
            // of equal keys, the last write sorts last and wins
            if (i + 1 < sorted.length && order.sameKey(i, i + 1)) {
                continue;
            }
            sink.accept(k[at], ops[at] == PUT ? values.get(at) : null);
        }
    }

    @Override
    public void close() {
        keys.clear();
        values.clear();
        written.clear();
        runs.clear();
        runPositions.clear();
        runPairs = 0;
        for (RocksSortedFile f : files) {
            f.close();
        }
        files.clear();
        fileRanges.clear();
        filePairs = 0;
    }
}
