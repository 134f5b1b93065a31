package io.tributary.stream.runtime;

import io.tributary.storage.Keyspace;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.StateWrites;

/** State writes going into a {@link WriteBuffer}'s data keyspace, where every state table lives. */
public record DataWrites(WriteBuffer buffer) implements StateWrites {
    @Override
    public void put(byte[] key, byte[] value) {
        buffer.put(Keyspace.DATA, key, value);
    }

    @Override
    public void delete(byte[] key) {
        buffer.delete(Keyspace.DATA, key);
    }
}
