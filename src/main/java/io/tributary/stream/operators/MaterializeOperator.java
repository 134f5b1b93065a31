package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.Values;
import io.tributary.plan.Field;
import io.tributary.plan.MaterializeNode;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.storage.TableKeys;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import io.tributary.stream.StoredLayout;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Writes a materialized view's rows: INSERT stores the row under its stream key, DELETE removes
 * it, and every change is passed on to the views built on this one.
 *
 * <p>The rows live in a state table whose id is the view's relation id, keyed by the stream key
 * columns in plain memcomparable order with the whole key as distribution key, and holding the
 * full row: exactly the layout of a table's rows ({@code TableKeys}), so batch SELECTs read the
 * view like a table. Each stored value is made the canonical value of its field's type first
 * (an INTEGER computed for a BIGINT column becomes a Long), because readers decode with the
 * view's column types; the changes passed on carry the same canonical rows.
 */
public final class MaterializeOperator implements Operator {
    /**
     * Fewer pairs than this in an interval's file are read back into the pending writes rather
     * than ingested: a view whose rows come in no useful order (an aggregate's groups) puts only
     * the few that happen to ascend in a file, and a tiny file per actor and checkpoint would add
     * to level 0's file count, which triggers compactions.
     */
    public static final long MIN_INGESTED_PAIRS = 4096;

    /**
     * {@code -Dtributary.min_ingested_pairs=N} replaces {@link #MIN_INGESTED_PAIRS} for a server's
     * views (1: every file with rows is ingested, so crash tests cover its ingestion).
     */
    public static final String MIN_INGESTED_PAIRS_PROPERTY = "tributary.min_ingested_pairs";

    private final int[] keyColumns;
    private final DataType[] types;
    /** Per field, the Java class of its canonical values; a value of another class is converted. */
    private final Class<?>[] canonical;

    private final StateTable rows;
    /** The key of the row being written, reused: the state table encodes it before it returns. */
    private final Object[] key;
    /**
     * The last stored layout of an input chunk found to be this view's own (same key columns, same
     * column types), whose rows' bytes are copied as they are; null: none yet.
     */
    private StoredLayout sameLayout;
    /**
     * Makes the files stored snapshot rows are written to (a backfilling job's operator), or null:
     * they go to the state table's pending writes (also once the store answered that it makes none).
     */
    private Supplier<SortedFile> files;
    /** The file this checkpoint interval's stored rows go to; null until the first such row. */
    private SortedFile file;
    /** The store key of the stored row being written, reused. */
    private byte[] storedKey = new byte[64];
    /** The store key of the decoded row being written while files are made, reused. */
    private final ByteWriter keyScratch = new ByteWriter(64);
    /**
     * The highest store key written to the pending writes since the last barrier, in its first
     * {@link #highestPendingLength} bytes (-1: none) while files are made: a put goes to the file
     * only above it, so the file holds the first write of each of its keys in the interval and
     * every later one is a pending write, which the checkpoint applies after the file.
     */
    private byte[] highestPending = new byte[64];

    private int highestPendingLength = -1;
    /** See {@link #MIN_INGESTED_PAIRS}. */
    private final long minIngestedPairs;

    /** @param committed the latest committed state, read when the view's rows are looked up; not closed here */
    public MaterializeOperator(MaterializeNode node, ReadView committed) {
        this(node, committed, null);
    }

    /**
     * @param committed the latest committed state, read when the view's rows are looked up; not closed here
     * @param files for a job being backfilled, makes the files its snapshot rows stored as they are
     *     go to ({@code StateStore.newSortedFile}, which may answer null); null: no files
     */
    public MaterializeOperator(MaterializeNode node, ReadView committed, Supplier<SortedFile> files) {
        this(node, committed, files, Long.getLong(MIN_INGESTED_PAIRS_PROPERTY, MIN_INGESTED_PAIRS));
    }

    /**
     * As {@link #MaterializeOperator(MaterializeNode, ReadView, Supplier)} with files of fewer
     * than {@code minIngestedPairs} pairs read back into the pending writes at a checkpoint (see
     * {@link #MIN_INGESTED_PAIRS}).
     */
    public MaterializeOperator(
            MaterializeNode node, ReadView committed, Supplier<SortedFile> files, long minIngestedPairs) {
        this.files = files;
        this.minIngestedPairs = minIngestedPairs;
        List<Field> fields = node.fields();
        this.keyColumns = node.streamKey().clone();
        this.key = new Object[keyColumns.length];
        this.types = fields.stream().map(Field::type).toArray(DataType[]::new);
        this.canonical = new Class<?>[types.length];
        for (int i = 0; i < types.length; i++) {
            canonical[i] = canonicalClass(types[i]);
        }
        List<DataType> keyTypes = new ArrayList<>();
        for (int c : keyColumns) {
            keyTypes.add(types[c]);
        }
        this.rows = new StateTable(node.relationId(), keyTypes, null, keyColumns.length, List.of(types), committed);
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        if (storedAsIs(chunk.layout())) {
            // an upstream's snapshot rows, stored exactly as this view stores them (SELECT *):
            // decoding and re-encoding each value would give the same bytes back
            for (int i = 0; i < chunk.size(); i++) {
                putStored(chunk.storedPk(i), chunk.storedValue(i));
            }
            out.forward(chunk);
            return;
        }
        if (files != null) {
            writeToFile(chunk, out);
            return;
        }
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = canonicalize(chunk.row(i));
            for (int k = 0; k < key.length; k++) {
                key[k] = row[keyColumns[k]];
            }
            if (chunk.op(i) == Op.INSERT) {
                rows.put(key, row);
            } else if (!replacedNext(chunk, i)) {
                rows.delete(key);
            }
            out.emit(chunk.op(i), row);
        }
    }

    /**
     * The decoded path of a backfilling job's view: each key is encoded once into a reused buffer;
     * an INSERT whose key sorts after every key written since the last barrier (a join's rows,
     * made in the order its big side's snapshot is read, which is the view's key order when the
     * view is keyed by that side's key) goes to this interval's file, any other change to the
     * pending writes.
     */
    private void writeToFile(Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = canonicalize(chunk.row(i));
            for (int k = 0; k < key.length; k++) {
                key[k] = row[keyColumns[k]];
            }
            Op op = chunk.op(i);
            int distEnd = rows.encodeStoreKey(keyScratch, key);
            byte[] k = keyScratch.array();
            int length = keyScratch.length();
            if (op == Op.INSERT && fileTakes(k, length)) {
                ByteWriter value = rows.encodeValueInScratch(row);
                file.put(k, length, value.array(), value.length());
            } else {
                notePending(k, length);
                StateTable.StoreKey storeKey = StateTable.StoreKey.of(Arrays.copyOf(k, length), distEnd);
                if (op == Op.INSERT) {
                    rows.put(storeKey, row);
                } else if (!replacedNext(chunk, i)) {
                    rows.delete(storeKey);
                }
            }
            out.emit(op, row);
        }
    }

    /**
     * Whether a put of the first {@code length} bytes of {@code k} goes to this interval's file
     * (opened here): above the file's last key and every pending write since the last barrier.
     */
    private boolean fileTakes(byte[] k, int length) {
        if (files == null) {
            return false;
        }
        if (highestPendingLength >= 0
                && Arrays.compareUnsigned(k, 0, length, highestPending, 0, highestPendingLength) <= 0) {
            return false;
        }
        if (file == null) {
            file = files.get();
            if (file == null) {
                // the store makes no files (a worker's recording store): not asked again for every row
                files = null;
                return false;
            }
        }
        return file.above(k, length);
    }

    /** Records a pending write of the first {@code length} bytes of {@code k} (see {@link #highestPending}). */
    private void notePending(byte[] k, int length) {
        if (highestPendingLength >= 0
                && Arrays.compareUnsigned(k, 0, length, highestPending, 0, highestPendingLength) <= 0) {
            return;
        }
        if (highestPending.length < length) {
            highestPending = new byte[Math.max(length, highestPending.length * 2)];
        }
        System.arraycopy(k, 0, highestPending, 0, length);
        highestPendingLength = length;
    }

    /**
     * Whether the change after DELETE {@code i} is an INSERT under the same key (an update: an
     * aggregate's group re-emitted at every checkpoint of its backfill), so its put replaces the
     * row and the delete's write would be overwritten within the epoch anyway. Equal key values
     * encode to equal keys; keys that are equal only as SQL values (1.0 and 1.00) just keep the delete.
     */
    private boolean replacedNext(Chunk chunk, int i) {
        if (i + 1 >= chunk.size() || chunk.op(i + 1) != Op.INSERT) {
            return false;
        }
        Object[] deleted = chunk.row(i);
        Object[] inserted = chunk.row(i + 1);
        for (int c : keyColumns) {
            if (!Objects.equals(deleted[c], inserted[c])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether rows stored with {@code layout} are stored by this view byte for byte alike: same key
     * columns and column types (so the values are canonical for this view's types already), and a
     * state table keyed like a relation. A stored chunk holds INSERTs only.
     */
    private boolean storedAsIs(StoredLayout layout) {
        if (layout == null) {
            return false;
        }
        if (layout == sameLayout) {
            return true;
        }
        if (rows.keyedLikeRelation() && layout.matches(keyColumns, List.of(types))) {
            sameLayout = layout;
            return true;
        }
        return false;
    }

    /**
     * Writes a stored snapshot row to this interval's file when its key sorts after the file's last
     * one and every pending write of the interval (a backfill reads each vnode in key order, vnode
     * after vnode, so nearly all do), else to the pending writes. Either way every later write of
     * the key in this interval, a change-log row of its vnode, goes to the pending writes, which
     * the checkpoint applies after the files.
     */
    private void putStored(byte[] pk, byte[] value) {
        if (files == null) {
            rows.putStored(pk, value);
            return;
        }
        int length = TableKeys.PREFIX_LENGTH + pk.length;
        if (storedKey.length < length) {
            storedKey = new byte[Math.max(length, storedKey.length * 2)];
        }
        rows.storedKey(pk, storedKey);
        if (fileTakes(storedKey, length)) {
            file.put(storedKey, length, value);
        } else {
            if (files != null) {
                notePending(storedKey, length);
            }
            rows.putStored(pk, value);
        }
    }

    /**
     * Makes no more files and puts no more rows in this interval's: the job's joining epoch, which
     * foreground writers wait for, would pace and sync them (its rows go to the pending writes,
     * the file's earlier rows are read back under them at the barrier).
     */
    @Override
    public void onJoinLive() {
        files = null;
    }

    /**
     * Hands this interval's file of rows to a checkpoint's writes, which apply it before the
     * pending writes flushed here; a file too small to ingest ({@link #MIN_INGESTED_PAIRS}) is
     * read back into the pending writes, as below, and when it held fewer rows than the pending
     * writes the view makes no more files. The first epoch barrier (the job joined the epochs, whose
     * writes take no files) ends the files: the rows its file holds (made from the change log
     * read since the last checkpoint) are read back into the pending writes, under any later
     * write of their keys, and later rows go to the pending writes.
     */
    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        if (file != null) {
            if (file.pairs() == 0) {
                file.close();
            } else if (writes.takesFiles() && file.pairs() >= minIngestedPairs) {
                file.finish();
                writes.ingest(file);
            } else {
                if (writes.takesFiles() && file.pairs() < rows.pendingCount()) {
                    // most of the interval's rows came out of key order (an aggregate's groups, in hash
                    // order): later files would be as small, each made, synced and read back for nothing
                    files = null;
                }
                file.finish();
                file.forEach(rows::putUnlessWritten);
                file.close();
            }
            file = null;
        }
        if (!writes.takesFiles()) {
            files = null;
        }
        highestPendingLength = -1;
        rows.flush(writes);
    }

    /** Deletes the file of rows not handed over yet: the job stopped, and restarts from its last checkpoint. */
    @Override
    public void close() {
        if (file != null) {
            file.close();
            file = null;
        }
    }

    /** {@code row} itself when every value is canonical already (the usual case), else a converted copy. */
    private Object[] canonicalize(Object[] row) {
        Object[] out = row;
        for (int i = 0; i < row.length; i++) {
            Object v = row[i];
            if (v != null && !canonical[i].isInstance(v)) {
                if (out == row) {
                    out = row.clone();
                }
                out[i] = Values.assign(v, null, types[i]);
            }
        }
        return out;
    }

    private static Class<?> canonicalClass(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Boolean.class;
            case SMALLINT -> Short.class;
            case INTEGER, DATE -> Integer.class;
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> Long.class;
            case REAL -> Float.class;
            case DOUBLE -> Double.class;
            case NUMERIC -> BigDecimal.class;
            case VARCHAR, TEXT, BPCHAR -> String.class;
            // any list: the expression code converts an array's elements to canonical values already
            case ARRAY -> java.util.List.class;
            case INTERVAL -> Interval.class;
            case BYTEA -> byte[].class;
            case UUID -> java.util.UUID.class;
            case JSON -> io.tributary.common.types.PgJson.class;
            case JSONB -> io.tributary.common.types.PgJsonb.class;
        };
    }

    /** The view's rows written since the last barrier (its change log holds at most one net change per key). */
    @Override
    public long heldChanges() {
        return rows.pendingCount();
    }
}
