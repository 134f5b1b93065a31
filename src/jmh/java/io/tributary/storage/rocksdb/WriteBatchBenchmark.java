package io.tributary.storage.rocksdb;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Handing a commit's writes to RocksDB: one JNI {@code put} per write into a native batch, against
 * the batch's image built in Java ({@link WriteBatchImage}) and handed over in one call. Writes
 * are {@code bench load}-sized (14-byte keys, 20-byte rows) into the default column family.
 * Figures are per write; nothing is written to a database.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriteBatchBenchmark {
    static {
        RocksDB.loadLibrary();
    }

    private static final int WRITES = 16384;
    private final byte[][] keys = new byte[WRITES][];
    private final byte[][] values = new byte[WRITES][];
    private int imageSize;

    @Setup
    public void setUp() {
        long size = WriteBatchImage.HEADER;
        for (int i = 0; i < WRITES; i++) {
            keys[i] = ByteBuffer.allocate(14)
                    .putInt(42)
                    .putShort((short) i)
                    .putLong(i)
                    .array();
            values[i] = ByteBuffer.allocate(20)
                    .putLong(i)
                    .putInt(i % 1000)
                    .putDouble(i * 0.5)
                    .array();
            size += WriteBatchImage.size(0, keys[i], values[i]);
        }
        imageSize = (int) size;
    }

    @Benchmark
    @OperationsPerInvocation(WRITES)
    public long putByPut() throws RocksDBException {
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < WRITES; i++) {
                batch.put(keys[i], values[i]);
            }
            return batch.getDataSize();
        }
    }

    @Benchmark
    @OperationsPerInvocation(WRITES)
    public long image() {
        WriteBatchImage image = new WriteBatchImage(imageSize);
        for (int i = 0; i < WRITES; i++) {
            image.put(0, keys[i], values[i]);
        }
        try (WriteBatch batch = new WriteBatch(image.toByteArray())) {
            return batch.getDataSize();
        }
    }
}
