package io.tributary.stream;

import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A RocksDB state store in a fresh temporary directory, for microbenchmarks whose operators need
 * real storage. A benchmark opens one in its trial setup and closes it in its trial teardown;
 * closing deletes the directory, so no run sees another's data.
 */
public final class ScratchStore implements AutoCloseable {
    private final Path dir;
    private final StateStore store;
    private final ReadView latest;

    private ScratchStore(Path dir, StateStore store) {
        this.dir = dir;
        this.store = store;
        this.latest = store.latest();
    }

    /** Opens an empty store in a new temporary directory. */
    public static ScratchStore open() throws IOException {
        Path dir = Files.createTempDirectory("tributary-jmh");
        // a sub-directory, so the ingest and pins directories the store keeps beside it are deleted with it
        return new ScratchStore(dir, RocksStateStore.open(dir.resolve("state")));
    }

    /** The store's latest committed state; valid until {@link #close()}. */
    public ReadView latest() {
        return latest;
    }

    /** Closes the read view and the store, then deletes the directory. */
    @Override
    public void close() throws IOException {
        latest.close();
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
