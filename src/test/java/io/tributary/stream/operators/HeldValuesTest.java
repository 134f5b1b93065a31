package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link HeldValues}' search and extremes against a sorted map of the same keys: random byte keys of 0-12 bytes drawn
 * from few byte values, so that keys share their first 8 bytes, extend one another by zero bytes
 * and tie on {@link HeldValues#head}, which the search must then settle on the whole keys.
 */
class HeldValuesTest {
    private static final java.util.Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    @Test
    void extremesAndSizesFollowTheKeysInUnsignedOrder() {
        for (long seed = 1; seed <= 20; seed++) {
            Random rnd = new Random(seed);
            HeldValues held = new HeldValues();
            TreeMap<byte[], Long> expected = new TreeMap<>(ORDER);
            for (int step = 0; step < 2_000; step++) {
                byte[] key = new byte[rnd.nextInt(13)];
                for (int i = 0; i < key.length; i++) {
                    key[i] = (byte) new int[] {0, 1, 0x7f, 0x80, 0xff}[rnd.nextInt(5)];
                }
                long count = expected.getOrDefault(key, 0L);
                int sign = count > 0 && rnd.nextInt(3) == 0 ? -1 : 1;
                held.change(key, key.length, key, sign);
                expected.put(key, count + sign);
                // entries without occurrences stay until writeTo (not called here), so every key seen counts
                assertEquals(expected.size(), held.size(), "seed " + seed + " step " + step);
                byte[] max = null;
                byte[] min = null;
                for (var e : expected.entrySet()) {
                    if (e.getValue() > 0) {
                        min = min == null ? e.getKey() : min;
                        max = e.getKey();
                    }
                }
                assertEquals(Arrays.toString(max), keyAt(held, held.extreme(true)), "seed " + seed + " step " + step);
                assertEquals(Arrays.toString(min), keyAt(held, held.extreme(false)), "seed " + seed + " step " + step);
            }
        }
    }

    @Test
    void removingAValueNotHeldThrows() {
        HeldValues held = new HeldValues();
        byte[] key = {1, 2};
        assertThrows(IllegalStateException.class, () -> held.change(key, 2, key, -1));
        held.change(key, 2, key, 1);
        held.change(key, 2, key, -1);
        assertThrows(IllegalStateException.class, () -> held.change(key, 2, key, -1));
    }

    private static String keyAt(HeldValues held, int i) {
        return i < 0 ? "null" : Arrays.toString(held.key(i));
    }
}
