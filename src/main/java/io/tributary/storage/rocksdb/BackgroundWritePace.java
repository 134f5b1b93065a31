package io.tributary.storage.rocksdb;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Caps the rate at which background work writes files, so a backfill's checkpoint never takes the
 * disk from the foreground's synced commits. A checkpoint's SST file goes to the page cache as fast
 * as the checkpoint thread makes it and reaches the disk in one burst at its final sync (SstFileWriter
 * also starts write-back every megabyte); while the disk drains that burst, an epoch's small synced
 * write of the write-ahead log waits behind it. On the 2-core machines we measure on, a 64 MB burst
 * raised a 4 kB write's fdatasync p99 from 12-18 ms to 79-90 ms; the same bytes paced at about 60 MB/s
 * kept it at 21-24 ms (a whole-disk rate of 170 MB/s).
 *
 * <p>A token bucket over the file's bytes, shared by every writer of one store (one bucket for the
 * disk): a writer reports its file's size as it grows and sleeps until the bucket allows it.
 * RocksDB's own flushes and compactions are paced by RocksDB's rate limiter at the same rate
 * ({@link RocksSharedStore}). Bulk loads are not paced: their statement is the foreground.
 *
 * <p>Thread-safe; {@link #paced} blocks the calling (background) thread only.
 */
final class BackgroundWritePace {
    /** {@code -Dtributary.background_write_mb=0} turns pacing off (for comparisons). */
    static final String RATE_PROPERTY = "tributary.background_write_mb";

    static final long DEFAULT_MB_PER_SECOND = 64;

    /** How much may be written at once after an idle spell; also the granularity of the sleeps. */
    private static final long BURST_BYTES = 4L << 20;

    private final long bytesPerSecond;
    /** When the bucket is empty again, in System.nanoTime() terms; guarded by this. */
    private long emptyAtNanos = System.nanoTime();

    /** @param bytesPerSecond the cap; 0 or less for none */
    BackgroundWritePace(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    /** The pace the JVM's {@value #RATE_PROPERTY} property sets, {@value #DEFAULT_MB_PER_SECOND} MB/s by default. */
    static BackgroundWritePace fromSystemProperty() {
        long mb = Long.getLong(RATE_PROPERTY, DEFAULT_MB_PER_SECOND);
        return new BackgroundWritePace(mb << 20);
    }

    /** Bytes per second allowed, 0 when unpaced. */
    long bytesPerSecond() {
        return Math.max(0, bytesPerSecond);
    }

    /**
     * Accounts {@code bytes} more written and sleeps while the writers are ahead of the rate by more
     * than a burst. Returns at once when unpaced, and for an interrupted thread, whose interrupt
     * stays set for its caller to act on: pacing only ever delays a write, never fails it.
     */
    void paced(long bytes) {
        if (bytesPerSecond <= 0 || bytes <= 0) {
            return;
        }
        long wakeAt;
        synchronized (this) {
            long now = System.nanoTime();
            long burstNanos = TimeUnit.SECONDS.toNanos(BURST_BYTES) / bytesPerSecond;
            // an idle bucket holds at most one burst
            if (emptyAtNanos < now - burstNanos) {
                emptyAtNanos = now - burstNanos;
            }
            emptyAtNanos += TimeUnit.SECONDS.toNanos(bytes) / bytesPerSecond;
            wakeAt = emptyAtNanos - burstNanos;
        }
        long wait;
        while ((wait = wakeAt - System.nanoTime()) > 0
                && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(wait);
        }
    }
}
