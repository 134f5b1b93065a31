package io.tributary.meta.ingest;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where a source's split positions are stored: one row per split in the source's own state table
 * ({@code SourceDef.positionsTableId}, removed with the table), keyed by the memcomparable split
 * id. The value is {@code [rows ingested: 8][inputs skipped: 8][position bytes]}, so the counters
 * shown in {@code source_progress} survive restarts and commit with the rows they count.
 * Stateless and thread-safe.
 */
final class SourcePositions {
    private static final int HEADER = 16;

    private SourcePositions() {}

    /** A split's committed state; {@code position} null means the split has not been read yet. */
    record Committed(byte[] position, long rows, long skipped) {
        static final Committed NONE = new Committed(null, 0, 0);
    }

    static byte[] key(int positionsTableId, String split) {
        ByteWriter w = new ByteWriter(16 + split.length());
        KeyCodec.encodeValue(w, DataType.TEXT, split);
        return TableKeys.rowKey(positionsTableId, w.toByteArray());
    }

    static void stage(WriteBuffer buffer, byte[] key, Committed committed) {
        byte[] value = ByteBuffer.allocate(HEADER + committed.position().length)
                .putLong(committed.rows())
                .putLong(committed.skipped())
                .put(committed.position())
                .array();
        buffer.put(Keyspace.DATA, key, value);
    }

    /** The split's committed state in {@code view}, or {@link Committed#NONE}. */
    static Committed read(ReadView view, byte[] key) {
        byte[] value = view.get(Keyspace.DATA, key);
        if (value == null) {
            return Committed.NONE;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        return new Committed(Arrays.copyOfRange(value, HEADER, value.length), b.getLong(), b.getLong());
    }
}
