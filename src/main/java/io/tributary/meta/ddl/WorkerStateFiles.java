package io.tributary.meta.ddl;

import io.tributary.common.TributaryException;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.storage.SortedFile;
import io.tributary.storage.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker's finished state for a view, written by the server into sorted files as it is read from
 * the jobs database and then ingested into the store in one atomic write ({@link #ingest}), instead
 * of going through the store's write path in batches: the server's share of a takeover is then
 * reading the rows and writing a file, with no memtable, WAL or flush that the writers' commits
 * share. A worker stages the view's table and each state table in key order, so each table is one
 * run of ascending keys; a key that does not ascend starts another file, and of files that hold
 * one key the later wins ({@link StateStore#write(io.tributary.storage.WriteBuffer, List)}), as the
 * later of two row writes would. Each key is checked to be of the view's own tables before it is
 * written. The results thread of {@link RemoteViewSnapshots} (through {@link
 * RemoteViewAdoption#adopt}); one thread.
 */
final class WorkerStateFiles implements JobPlacement.PairConsumer, AutoCloseable {
    private final StateStore store;
    private final String viewName;
    private final int[] tables;
    private final List<SortedFile> files = new ArrayList<>();
    private SortedFile current;

    /**
     * @param tables the view's table and state tables: the only tables a key may be of
     */
    WorkerStateFiles(StateStore store, String viewName, int[] tables) {
        this.store = store;
        this.viewName = viewName;
        this.tables = tables;
        this.current = store.newSortedFile();
        if (current != null) {
            files.add(current);
        }
    }

    /** Whether the store makes sorted files; when not, nothing may be accepted (write the state through the store instead). */
    boolean available() {
        return current != null;
    }

    /** @throws TributaryException 22023 when the key is not of one of the view's tables, or the value is missing */
    @Override
    public void accept(byte[] key, byte[] value) {
        if (value == null || !RemoteViewAdoption.ofTables(tables, key)) {
            throw RemoteViewAdoption.foreignState(viewName);
        }
        if (!current.above(key, key.length)) {
            current.finish();
            current = store.newSortedFile();
            files.add(current);
        }
        current.put(key, key.length, value);
    }

    /**
     * Applies every pair accepted so far in one atomic, durable write (nothing when none was).
     *
     * @return the pairs written
     */
    long ingest() {
        if (current.pairs() == 0) {
            return 0;
        }
        current.finish();
        store.write(store.newWriteBuffer(), files);
        long pairs = 0;
        for (SortedFile f : files) {
            pairs += f.pairs();
        }
        return pairs;
    }

    /** Deletes the files that were not ingested. */
    @Override
    public void close() {
        for (SortedFile f : files) {
            f.close();
        }
    }
}
