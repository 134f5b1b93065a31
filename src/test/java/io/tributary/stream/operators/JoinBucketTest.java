package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JoinBucketTest {
    private static byte[] key(int k) {
        return ("k" + k).getBytes(StandardCharsets.UTF_8);
    }

    /** The rows in position order, holes skipped, as "key:degree". */
    private static List<String> rows(JoinBucket b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < b.limit(); i++) {
            Object[] row = b.values(i);
            if (row != null) {
                out.add(row[0] + ":" + b.degree(i));
            }
        }
        return out;
    }

    @Test
    void addReplaceAndRemoveKeepInsertionOrder() {
        JoinBucket b = new JoinBucket();
        byte[] buf = new byte[16];
        for (int k = 0; k < 5; k++) {
            byte[] key = key(k);
            System.arraycopy(key, 0, buf, 0, key.length);
            // a longer buffer than the key: only its first keyLength bytes count
            assertEquals(1, b.add(buf, key.length, new Object[] {k}, k));
        }
        assertEquals(0, b.add(key(2), key(2).length, new Object[] {2}, 20));
        assertEquals(1, b.remove(key(1), key(1).length));
        assertEquals(0, b.remove(key(1), key(1).length));
        assertEquals(0, b.remove(key(9), key(9).length));
        assertEquals(List.of("0:0", "2:20", "3:3", "4:4"), rows(b));
        assertEquals(4, b.size());
        for (int k : new int[] {0, 2, 3, 4}) {
            assertEquals(1, b.remove(key(k), key(k).length));
        }
        assertEquals(0, b.size());
        assertEquals(0, b.limit());
        assertEquals(1, b.add(key(7), key(7).length, new Object[] {7}, 0));
        assertEquals(List.of("7:0"), rows(b));
    }

    /** Random adds, replacements and removals past the scan bound agree with an insertion-ordered map. */
    @Test
    void agreesWithALinkedHashMapUnderChurn() {
        Random random = new Random(11);
        for (int round = 0; round < 20; round++) {
            JoinBucket b = new JoinBucket();
            Map<Integer, Long> expected = new LinkedHashMap<>();
            int keys = 1 + random.nextInt(200);
            for (int step = 0; step < 3000; step++) {
                int k = random.nextInt(keys);
                byte[] key = key(k);
                if (random.nextInt(3) == 0) {
                    assertEquals(expected.remove(k) != null ? 1 : 0, b.remove(key, key.length));
                } else {
                    long degree = random.nextInt(5);
                    boolean present = expected.containsKey(k);
                    expected.put(k, degree);
                    assertEquals(present ? 0 : 1, b.add(key, key.length, new Object[] {k}, degree));
                }
                assertEquals(expected.size(), b.size());
            }
            List<String> want = new ArrayList<>();
            expected.forEach((k, d) -> want.add(k + ":" + d));
            assertEquals(want, rows(b));
        }
    }
}
