package io.tributary.meta;

import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import java.util.List;
import java.util.Optional;

/** Forwards everything to another store; close() does not close it. */
public class DelegatingStore implements StateStore {
    private final StateStore inner;

    public DelegatingStore(StateStore inner) {
        this.inner = inner;
    }

    @Override
    public ReadView snapshot() {
        return inner.snapshot();
    }

    @Override
    public ReadView latest() {
        return inner.latest();
    }

    @Override
    public WriteBuffer newWriteBuffer() {
        return inner.newWriteBuffer();
    }

    @Override
    public void commit(long epoch, WriteBuffer buffer) {
        inner.commit(epoch, buffer);
    }

    @Override
    public void write(WriteBuffer buffer) {
        inner.write(buffer);
    }

    @Override
    public io.tributary.storage.SortedFile newSortedFile() {
        return inner.newSortedFile();
    }

    @Override
    public long committedEpoch() {
        return inner.committedEpoch();
    }

    @Override
    public PinnedSnapshot pin(String name) {
        return inner.pin(name);
    }

    @Override
    public void flushMemory() {
        inner.flushMemory();
    }

    @Override
    public Optional<ReadView> openPinned(String name) {
        return inner.openPinned(name);
    }

    @Override
    public void unpin(String name) {
        inner.unpin(name);
    }

    @Override
    public List<String> pinned() {
        return inner.pinned();
    }

    @Override
    public void close() {}
}
