package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingValues#find} by the keys' fingerprints: keys packed into a word (INTEGER) and
 * longer ones (NUMERIC, TEXT) whose fingerprints may coincide, which must still be told apart by
 * their bytes.
 */
class PendingValuesTest {
    private static byte[] key(DataType type, Object value) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, type, value);
        return w.toByteArray();
    }

    private static void assertHoldsExactly(List<byte[]> keys) {
        PendingValues pv = new PendingValues();
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            assertEquals(-1, pv.find(k, k.length), "key " + i + " before it was added");
            assertEquals(i, pv.add(k, k.length, i, 1));
        }
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            // found from a longer buffer too: only [0, len) counts
            byte[] padded = java.util.Arrays.copyOf(k, k.length + 5);
            padded[k.length] = 1;
            assertEquals(i, pv.find(padded, k.length), "key " + i);
            assertEquals(i, pv.valueAt(i));
        }
    }

    @Test
    void shortAndLongKeysAreFoundAndToldApart() {
        List<byte[]> keys = new ArrayList<>();
        keys.add(key(DataType.INTEGER, 7));
        keys.add(key(DataType.INTEGER, -7));
        keys.add(key(DataType.numeric(10, 2), new BigDecimal("12345678.91")));
        keys.add(key(DataType.numeric(10, 2), new BigDecimal("-12345678.91")));
        keys.add(key(DataType.numeric(10, 2), new BigDecimal("0.01")));
        keys.add(key(DataType.TEXT, "a longer text value"));
        keys.add(key(DataType.TEXT, ""));
        keys.add(key(DataType.BIGINT, Long.MIN_VALUE));
        assertHoldsExactly(keys);
    }

    /** Long keys of one length that differ only before their last three bytes. */
    @Test
    void longKeysSharingLengthAndEndAreToldApart() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < PendingValues.CAPACITY; i++) {
            keys.add(key(DataType.TEXT, "x" + (char) ('a' + i) + "-same-end"));
        }
        assertHoldsExactly(keys);
    }

    @Test
    void aFullSetHasNoRoomAndMissesOtherKeys() {
        PendingValues pv = new PendingValues();
        for (int i = 0; i < PendingValues.CAPACITY; i++) {
            assertTrue(pv.hasRoom());
            byte[] k = key(DataType.numeric(10, 2), BigDecimal.valueOf(1000 + i, 2));
            pv.add(k, k.length, i, 1);
        }
        assertFalse(pv.hasRoom());
        byte[] other = key(DataType.numeric(10, 2), BigDecimal.valueOf(999, 2));
        assertEquals(-1, pv.find(other, other.length));
    }
}
