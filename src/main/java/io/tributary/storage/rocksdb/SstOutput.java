package io.tributary.storage.rocksdb;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * One SST file being written for ingestion, with the shared store's options, so an ingested file
 * reads, compacts and compresses like one the store flushed itself. Opened by
 * {@link RocksSharedStore#openSst}; keys must be put in ascending unsigned order. One thread;
 * {@link #finish} syncs the file, {@link #close} releases the native objects (finished or not).
 */
final class SstOutput implements AutoCloseable {
    private final EnvOptions env;
    private final Options options;
    private final SstFileWriter writer;

    SstOutput(RocksSharedStore shared, Path file) throws RocksDBException {
        this.env = new EnvOptions();
        this.options = new Options(shared.dbOptions(), shared.cfOptions());
        this.writer = new SstFileWriter(env, options);
        try {
            writer.open(file.toString());
        } catch (RocksDBException | RuntimeException e) {
            close();
            throw e;
        }
    }

    void put(byte[] key, byte[] value) throws RocksDBException {
        writer.put(key, value);
    }

    /** Puts the remaining bytes of direct buffers {@code key} and {@code value}. */
    void put(ByteBuffer key, ByteBuffer value) throws RocksDBException {
        writer.put(key, value);
    }

    void delete(byte[] key) throws RocksDBException {
        writer.delete(key);
    }

    /** Bytes written to the file so far (blocks still being filled not counted). */
    long fileSize() throws RocksDBException {
        return writer.fileSize();
    }

    /** Completes and syncs the file; nothing may be put after it. */
    void finish() throws RocksDBException {
        writer.finish();
    }

    @Override
    public void close() {
        writer.close();
        options.close();
        env.close();
    }
}
