package io.tributary.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ByteHashTest {
    /**
     * Memcomparable integers that differ only in their last bytes (a GROUP BY over customer ids)
     * spread over a hash table's slots about as random values would: 50,000 keys in 2^17 slots
     * fill ~41,500 of them at random; Arrays.hashCode filled 6,321.
     */
    @Test
    void sequentialKeysSpreadOverLowBits() {
        Set<Integer> slots = new HashSet<>();
        Set<Integer> hashes = new HashSet<>();
        ByteWriter w = new ByteWriter(16);
        for (int i = 1; i <= 50_000; i++) {
            w.reset();
            KeyCodec.encodeValue(w, DataType.INTEGER, i);
            int h = ByteHash.of(w.array(), 0, w.length());
            hashes.add(h);
            slots.add(h & ((1 << 17) - 1));
        }
        assertEquals(50_000, hashes.size());
        assertTrue(slots.size() > 40_000, "slots used: " + slots.size());
    }

    @Test
    void hashesTheRangeOnly() {
        byte[] a = {9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 9};
        byte[] b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        assertEquals(ByteHash.of(b), ByteHash.of(a, 1, 11));
    }
}
