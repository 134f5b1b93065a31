package io.tributary.storage.rocksdb;

import io.tributary.storage.SortedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BiConsumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;

/**
 * A {@link SortedFile} as an SST file in the store's ingest directory, written with the store's
 * options and paced like a checkpoint's ({@link BackgroundWritePace}): its writer reports the
 * file's growth every {@value #PACE_EVERY_PAIRS} puts and may sleep there. A file a crash leaves
 * behind is removed when the store opens next.
 */
final class RocksSortedFile implements SortedFile {
    private static final long PACE_EVERY_PAIRS = 1024;

    private final RocksSharedStore shared;
    private final Path path;
    private final PairBuffer pair = new PairBuffer();
    /** Null until the first put, and again once closed. */
    private SstOutput writer;

    /** A copy of the last key put, in the first {@link #lastKeyLength} bytes; -1: none yet. */
    private byte[] lastKey = new byte[64];

    private int lastKeyLength = -1;
    private long pairs;
    private long pacedBytes;
    private boolean finished;
    private boolean closed;

    RocksSortedFile(RocksSharedStore shared, Path path) {
        this.shared = shared;
        this.path = path;
    }

    @Override
    public void put(byte[] key, int keyLength, byte[] value, int valueLength) {
        if (!above(key, keyLength)) {
            throw new IllegalArgumentException("sorted file keys must ascend");
        }
        if (finished || closed) {
            throw new IllegalStateException("the sorted file is finished");
        }
        try {
            if (writer == null) {
                writer = shared.openSst(path);
            }
            pair.fill(key, keyLength, value, valueLength);
            writer.put(pair.key, pair.value);
            // the file's size is a JNI call: asked every so many pairs
            if ((++pairs & (PACE_EVERY_PAIRS - 1)) == 0) {
                long size = writer.fileSize();
                shared.checkpointPace().paced(size - pacedBytes);
                pacedBytes = size;
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        if (lastKey.length < keyLength) {
            lastKey = new byte[Math.max(keyLength, lastKey.length * 2)];
        }
        System.arraycopy(key, 0, lastKey, 0, keyLength);
        lastKeyLength = keyLength;
    }

    @Override
    public boolean above(byte[] key, int keyLength) {
        return lastKeyLength < 0 || Arrays.compareUnsigned(key, 0, keyLength, lastKey, 0, lastKeyLength) > 0;
    }

    @Override
    public long pairs() {
        return pairs;
    }

    @Override
    public void finish() {
        if (writer == null) {
            throw new IllegalStateException("an empty sorted file cannot be finished");
        }
        try {
            shared.checkpointPace().paced(writer.fileSize() - pacedBytes);
            writer.finish();
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        finished = true;
    }

    @Override
    public void forEach(BiConsumer<byte[], byte[]> sink) {
        Path file = finishedPath();
        // a file read once and deleted: its blocks stay out of the store's shared block cache
        try (SstFileReader reader = new SstFileReader(shared.sstReaderOptions());
                ReadOptions read = new ReadOptions().setFillCache(false)) {
            reader.open(file.toString());
            try (SstFileReaderIterator it = reader.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    sink.accept(it.key(), it.value());
                }
                it.status();
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    /** The finished file, for an ingestion. */
    Path finishedPath() {
        if (!finished || closed) {
            throw new IllegalStateException("the sorted file is not finished");
        }
        return path;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (writer != null) {
            writer.close();
            writer = null;
        }
        try {
            Files.deleteIfExists(path);
        } catch (java.io.IOException e) {
            // a leftover is removed at the next open
        }
    }
}
