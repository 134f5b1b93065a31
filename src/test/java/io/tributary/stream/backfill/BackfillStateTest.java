package io.tributary.stream.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BackfillStateTest {

    @Test
    void vnodePositionsSurviveTheirEncoding() {
        VnodeProgress p = new VnodeProgress(17, 42);
        p.phase = VnodeProgress.Phase.LOG;
        p.epoch = 99;
        p.reading = 120;
        p.lastPk = new byte[] {1, 2, 3};
        p.rows = 1000;
        p.logRows = 7;
        VnodeProgress back = VnodeProgress.decode(17, p.encode());
        assertEquals(VnodeProgress.Phase.LOG, back.phase);
        assertEquals(99, back.epoch);
        assertEquals(120, back.reading);
        assertArrayEquals(new byte[] {1, 2, 3}, back.lastPk);
        assertEquals(1000, back.rows);
        assertEquals(7, back.logRows);

        VnodeProgress fresh = VnodeProgress.decode(3, new VnodeProgress(3, 5).encode());
        assertEquals(VnodeProgress.Phase.SNAPSHOT, fresh.phase);
        assertEquals(5, fresh.epoch);
        assertNull(fresh.lastPk, "no key read yet is not the same as an empty key");
    }

    @Test
    void progressKeysSortByVnodeThenSource() {
        byte[] a = VnodeProgress.key(9, 1, 0);
        byte[] b = VnodeProgress.key(9, 1, 1);
        byte[] c = VnodeProgress.key(9, 2, 0);
        assertTrue(java.util.Arrays.compareUnsigned(a, b) < 0);
        assertTrue(java.util.Arrays.compareUnsigned(b, c) < 0);
    }

    @Test
    void aPausedRateGrantsNothingAndALimitGrantsAboutItsRate() throws InterruptedException {
        BackfillRate rate = new BackfillRate(0);
        BackfillRate.Bucket bucket = rate.new Bucket();
        Thread.sleep(50);
        assertEquals(0, bucket.take(1024));

        rate.set(2000);
        long granted = 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < 500_000_000L) {
            granted += bucket.take(1024);
            Thread.sleep(5);
        }
        // 0.5 s at 2000 rows/s, plus at most the one-second burst the bucket may have filled
        assertTrue(granted >= 800 && granted <= 1200 + 2000, "granted " + granted);

        rate.set(BackfillRate.UNLIMITED);
        assertEquals(1024, bucket.take(1024));
    }
}
