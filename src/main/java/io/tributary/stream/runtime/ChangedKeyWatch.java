package io.tributary.stream.runtime;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The primary keys of a table's rows that changed since the watch began, for work that reads a
 * snapshot of the table outside the barrier lock and then brings its result up to date with the
 * rows changed meanwhile (an index build, see {@code meta.ddl.IndexBuild}). It listens to the
 * table's change feed like a change-log recorder, but keeps only the encoded keys, in memory: the
 * work it serves starts over after a restart. A key may be listed whose change was then not
 * committed (its epoch failed); a committed change is never missed, since every writer of the
 * table sends its changes to the feed under the barrier lock before its epoch commits.
 *
 * <p>Memory is bounded: past {@link #MAX_KEYS} distinct keys the watch stops listing and says so
 * ({@link #overflowed}), and its user gives up. A TRUNCATE of the table ({@link #truncated}) is a
 * mark instead of a key per row: every row the user read before it is gone, so the listed keys
 * (and an overflow) are dropped, and the user starts over from a snapshot taken after it.
 *
 * <p>Made by {@link StreamRuntime#watchKeys} and released by {@link StreamRuntime#releaseWatch},
 * both under the barrier lock. {@link #dispatch} and {@link #truncated} run on whichever session
 * thread stages the table's changes (DML, TRUNCATE, a transaction's COMMIT), always under that
 * lock, and {@link #take}, {@link #overflowed} and {@link #wasTruncated} must be called with it
 * held too.
 */
public final class ChangedKeyWatch implements Dispatcher {
    /** Distinct keys listed at most: about 100 MB of keys and set entries. */
    public static final int MAX_KEYS = 1_000_000;

    private final int tableId;
    private final int[] keyColumns;
    private final List<DataType> keyTypes;
    private final ByteWriter keyWriter = new ByteWriter(64);
    private final Set<ByteBuffer> changed = new HashSet<>();
    private boolean overflowed;
    private boolean truncated;

    ChangedKeyWatch(int tableId, int[] keyColumns, List<DataType> keyTypes) {
        this.tableId = tableId;
        this.keyColumns = keyColumns;
        this.keyTypes = keyTypes;
    }

    int tableId() {
        return tableId;
    }

    @Override
    public void dispatch(Chunk chunk) {
        for (int i = 0; i < chunk.size() && !overflowed; i++) {
            keyWriter.reset();
            KeyCodec.encode(keyWriter, keyTypes, chunk.row(i), keyColumns);
            changed.add(ByteBuffer.wrap(keyWriter.toByteArray()));
            if (changed.size() > MAX_KEYS) {
                overflowed = true;
                changed.clear();
            }
        }
    }

    /** Whether more than {@link #MAX_KEYS} keys changed: {@link #keys} is then incomplete. */
    public boolean overflowed() {
        return overflowed;
    }

    /**
     * The table was truncated (after its rows' deletes were dispatched): the keys listed so far,
     * and an overflow, no longer matter, since no row from before is left.
     */
    void truncated() {
        changed.clear();
        overflowed = false;
        truncated = true;
    }

    /**
     * Whether the table was truncated since the watch began or since the last {@link #take}: the
     * user's snapshot is then void (the TRUNCATE's epoch may even have failed, so the user must
     * read a new snapshot rather than assume the table empty).
     */
    public boolean wasTruncated() {
        return truncated;
    }

    @Override
    public void barrier(Barrier barrier) {}

    /**
     * The encoded primary keys (as {@code TableKeys.rowKey} takes them) changed since the watch
     * began or since the last call, each once; the watch then starts a new list (and forgets a
     * TRUNCATE). Meant to be taken at an epoch boundary together with a snapshot, which then holds
     * every change of the keys returned.
     */
    public List<byte[]> take() {
        List<byte[]> out = new ArrayList<>(changed.size());
        for (ByteBuffer k : changed) {
            out.add(k.array());
        }
        changed.clear();
        truncated = false;
        return out;
    }
}
