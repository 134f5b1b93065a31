package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ByteKeyMapTest {
    /** Random puts, finds and removes agree with a HashMap over the same keys, through growth and churn. */
    @Test
    void agreesWithHashMapUnderChurn() {
        Random random = new Random(11);
        ByteKeyMap<Integer> map = new ByteKeyMap<>(4);
        Map<ByteBuffer, Integer> expected = new HashMap<>();
        byte[] buf = new byte[64];
        for (int step = 0; step < 200_000; step++) {
            // few distinct lengths and values so keys collide in prefixes and in hash buckets
            int len = 1 + random.nextInt(10);
            for (int i = 0; i < len; i++) {
                buf[i] = (byte) random.nextInt(4);
            }
            ByteBuffer k = ByteBuffer.wrap(java.util.Arrays.copyOf(buf, len));
            int id = map.find(buf, len);
            Integer want = expected.get(k);
            if (want == null) {
                assertEquals(-1, id);
                if (random.nextInt(3) > 0) {
                    int newId = map.put(buf, len, step);
                    assertArrayEquals(k.array(), map.key(newId));
                    expected.put(k, step);
                }
            } else {
                assertEquals(want, map.get(id));
                if (random.nextInt(2) == 0) {
                    map.remove(id);
                    expected.remove(k);
                }
            }
            assertEquals(expected.size(), map.size());
        }
        int live = 0;
        for (int id = 0; id < map.idLimit(); id++) {
            if (map.live(id)) {
                live++;
                assertEquals(expected.get(ByteBuffer.wrap(map.key(id))), map.get(id));
            }
        }
        assertEquals(expected.size(), live);
    }

    /**
     * Keys short enough to be kept in their slot stay apart from each other and from longer keys
     * where packing could confuse them: the empty key, zero bytes of different lengths, 0xff
     * bytes, and the longest kept key beside one a byte longer with the same first bytes.
     */
    @Test
    void keysKeptInTheirSlotsStayDistinct() {
        byte[][] keys = {
            {},
            {0},
            {0, 0},
            {0, 0, 0, 0, 0, 0, 0},
            {0, 0, 0, 0, 0, 0, 0, 0},
            {-1},
            {-1, -1, -1, -1, -1, -1, -1},
            {-1, -1, -1, -1, -1, -1, -1, -1},
            {1, 2, 3, 4, 5, 6, 7},
            {1, 2, 3, 4, 5, 6, 7, 0},
            {7, 1, 2, 3, 4, 5, 6}
        };
        ByteKeyMap<Integer> map = new ByteKeyMap<>(2);
        for (int i = 0; i < keys.length; i++) {
            assertEquals(-1, map.find(keys[i], keys[i].length), "key " + i + " before its put");
            map.put(keys[i], keys[i].length, i);
        }
        for (int i = 0; i < keys.length; i++) {
            byte[] padded = java.util.Arrays.copyOf(keys[i], keys[i].length + 3);
            assertEquals(i, map.get(map.find(padded, keys[i].length)), "key " + i);
        }
        map.remove(map.find(keys[3], keys[3].length));
        assertEquals(-1, map.find(keys[3], keys[3].length));
        assertEquals(4, map.get(map.find(keys[4], keys[4].length)));
        assertEquals(2, map.get(map.find(keys[2], keys[2].length)));
    }

    /** The clock spares an entry referenced since the hand last passed it. */
    @Test
    void victimSparesRecentlyReferencedEntries() {
        ByteKeyMap<String> map = new ByteKeyMap<>(8);
        int a = map.put(new byte[] {1}, 1, "a");
        int b = map.put(new byte[] {2}, 1, "b");
        int c = map.put(new byte[] {3}, 1, "c");
        // every entry starts referenced: the first sweep clears all bits and takes the first one
        assertEquals(a, map.victim());
        map.get(b);
        int v = map.victim();
        assertNotEquals(b, v);
        assertTrue(v == c || v == a);
        Set<Integer> seen = new HashSet<>();
        while (map.size() > 0) {
            int id = map.victim();
            assertTrue(seen.add(id));
            map.remove(id);
        }
        assertEquals(-1, map.victim());
    }

    @Test
    void clearEmptiesAndStaysUsable() {
        ByteKeyMap<String> map = new ByteKeyMap<>(2);
        for (int i = 0; i < 100; i++) {
            map.put(new byte[] {(byte) i, 7}, 2, "v" + i);
        }
        map.clear();
        assertEquals(0, map.size());
        assertEquals(-1, map.find(new byte[] {5, 7}, 2));
        int id = map.put(new byte[] {5, 7}, 2, "again");
        assertEquals("again", map.get(map.find(new byte[] {5, 7}, 2)));
        assertEquals(0, id);
    }
}
