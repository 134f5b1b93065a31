package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The token bucket's contract, with lower bounds only (a loaded machine can only make a sleep
 * longer): bytes beyond one burst take their time at the rate, a burst passes at once, an unpaced
 * bucket never sleeps, and an interrupted writer is not held.
 */
class BackgroundWritePaceTest {
    private static final long MB = 1L << 20;

    @Test
    void bytesBeyondABurstWaitForTheRate() {
        BackgroundWritePace pace = new BackgroundWritePace(8 * MB);
        long start = System.nanoTime();
        // 4 MB pass as the burst; the next 8 MB need a second at 8 MB/s
        for (int i = 0; i < 12; i++) {
            pace.paced(MB);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 950, "12 MB at 8 MB/s with a 4 MB burst took only " + millis + " ms");
    }

    @Test
    void writersShareOneBucket() throws Exception {
        BackgroundWritePace pace = new BackgroundWritePace(8 * MB);
        Thread other = new Thread(() -> {
            for (int i = 0; i < 6; i++) {
                pace.paced(MB);
            }
        });
        long start = System.nanoTime();
        other.start();
        for (int i = 0; i < 6; i++) {
            pace.paced(MB);
        }
        other.join();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 950, "two writers' 12 MB at 8 MB/s took only " + millis + " ms");
    }

    @Test
    void unpacedAndInterruptedWritersDoNotWait() {
        BackgroundWritePace off = new BackgroundWritePace(0);
        long start = System.nanoTime();
        off.paced(1L << 40);
        BackgroundWritePace slow = new BackgroundWritePace(1);
        Thread.currentThread().interrupt();
        try {
            slow.paced(1L << 30);
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt stays set for the caller");
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertFalse(millis > 30_000, "an unpaced or interrupted write waited " + millis + " ms");
    }
}
