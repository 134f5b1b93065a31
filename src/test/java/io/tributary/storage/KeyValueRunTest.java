package io.tributary.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeyValueRunTest {
    /** A key of a two-byte prefix that does not ascend (a hash, like a vnode) and an ascending long. */
    private static byte[] key(long n) {
        return ByteBuffer.allocate(10)
                .putShort((short) (n * 7919 % 65_521))
                .putLong(n)
                .array();
    }

    @Test
    void pairsAreReadBackAcrossChunksAndFoundByTheirOrderedBytes() {
        KeyValueRun run = new KeyValueRun(2);
        byte[] big = new byte[(1 << 20) + 5];
        Arrays.fill(big, (byte) 3);
        int n = 60_000;
        byte[] least = null;
        byte[] greatest = null;
        for (long i = 0; i < n; i++) {
            byte[] k = key(i * 2);
            assertTrue(run.ascendsAfterLast(k, k.length));
            // one value larger than a chunk gets a chunk of its own
            byte[] v = i == 30_000 ? big : ("v" + i).getBytes();
            run.add(k, k.length, v, v.length);
            least = least == null || Arrays.compareUnsigned(k, least) < 0 ? k : least;
            greatest = greatest == null || Arrays.compareUnsigned(k, greatest) > 0 ? k : greatest;
        }
        assertEquals(n, run.size());
        assertArrayEquals(least, run.least());
        assertArrayEquals(greatest, run.greatest());
        assertFalse(run.ascendsAfterLast(key(0), 10));
        for (int i = 0; i < n; i += 997) {
            assertArrayEquals(key(i * 2L), run.key(i));
            assertEquals(i, run.indexOf(key(i * 2L)));
            assertEquals(-1, run.indexOf(key(i * 2L + 1)));
        }
        assertArrayEquals(big, run.value(30_000));
        assertArrayEquals("v30001".getBytes(), run.value(30_001));
        byte[] otherPrefix = key(4);
        otherPrefix[0]++;
        assertEquals(-1, run.indexOf(otherPrefix));
    }

    @Test
    void aCopiedPairHoldsItsKeyAndValueWhereTheLengthsSay() {
        KeyValueRun run = new KeyValueRun(2);
        byte[] big = new byte[(1 << 20) + 5];
        Arrays.fill(big, (byte) 3);
        for (long i = 0; i < 3; i++) {
            byte[] k = key(i);
            byte[] v = i == 1 ? big : new byte[(int) i * 3];
            run.add(k, k.length, v, v.length);
        }
        assertEquals(8 + 10 + big.length, run.largestPair());
        ByteBuffer into = ByteBuffer.allocateDirect(run.largestPair());
        for (int i = 0; i < 3; i++) {
            int k = run.copyPair(i, into);
            assertEquals(10, k);
            byte[] key = new byte[k];
            into.get(4, key);
            assertArrayEquals(run.key(i), key);
            byte[] value = new byte[into.position() - 8 - k];
            into.get(8 + k, value);
            assertArrayEquals(run.value(i), value);
        }
    }
}
