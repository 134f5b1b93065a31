package io.tributary.stream.runtime;

import io.tributary.storage.SortedFile;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.List;

/**
 * One actor's state writes for one epoch, handed from the actor to the committing thread (the
 * hand-over through {@link BarrierCollector}'s lock publishes them safely).
 */
public final class EpochWrites implements StateWrites {
    private final List<byte[]> keys;
    private final List<byte[]> values;
    /** Files of puts applied before {@link #keys} (see {@link StateWrites#ingest}); a checkpoint's only. */
    private final boolean takesFiles;

    private List<SortedFile> files = List.of();

    public EpochWrites() {
        this(10);
    }

    /**
     * @param expected about how many writes will come: a backfill checkpoint hands over tens of
     *     thousands, and growing the lists to that size by doubling was a tenth of a {@code SELECT *}
     *     backfill's actor samples in JFR
     */
    public EpochWrites(int expected) {
        this(expected, false);
    }

    /** @param takesFiles whether these are a backfill checkpoint's writes, which may carry files */
    public EpochWrites(int expected, boolean takesFiles) {
        keys = new ArrayList<>(expected);
        values = new ArrayList<>(expected);
        this.takesFiles = takesFiles;
    }

    @Override
    public boolean takesFiles() {
        return takesFiles;
    }

    @Override
    public void ingest(SortedFile file) {
        if (!takesFiles) {
            throw new UnsupportedOperationException("an epoch's state writes take no files");
        }
        if (files.isEmpty()) {
            files = new ArrayList<>();
        }
        files.add(file);
    }

    /** The files taken ({@link #ingest}), in order; the committing thread applies them first and closes them. */
    public List<SortedFile> files() {
        return files;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        keys.add(key);
        values.add(value);
    }

    @Override
    public void delete(byte[] key) {
        keys.add(key);
        values.add(null);
    }

    /** Replays the writes in order into {@code sink}. */
    public void replay(StateWrites sink) {
        for (int i = 0; i < keys.size(); i++) {
            byte[] v = values.get(i);
            if (v == null) {
                sink.delete(keys.get(i));
            } else {
                sink.put(keys.get(i), v);
            }
        }
    }
}
