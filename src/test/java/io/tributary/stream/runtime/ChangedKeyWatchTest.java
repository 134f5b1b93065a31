package io.tributary.stream.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangedKeyWatchTest {
    private static final List<DataType> KEY_TYPES = List.of(DataType.BIGINT);

    private static byte[] pk(long id) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encode(w, KEY_TYPES, new Object[] {"x", id}, new int[] {1});
        return w.toByteArray();
    }

    @Test
    void listsEachChangedKeyOnceWhateverTheChange() {
        ChangedKeyWatch watch = new ChangedKeyWatch(7, new int[] {1}, KEY_TYPES);
        watch.dispatch(Chunk.of(Op.INSERT, new Object[] {"a", 3L}, new Object[] {"b", 1L}));
        watch.dispatch(Chunk.of(Op.DELETE, new Object[] {"a", 3L}));
        watch.dispatch(Chunk.of(Op.INSERT, new Object[] {"c", 2L}, new Object[] {"d", 3L}));
        List<byte[]> keys = watch.take();
        keys.sort(Comparator.comparing(k -> k, Arrays::compareUnsigned));
        assertEquals(3, keys.size());
        assertArrayEquals(pk(1), keys.get(0));
        assertArrayEquals(pk(2), keys.get(1));
        assertArrayEquals(pk(3), keys.get(2));
        assertFalse(watch.overflowed());
    }

    @Test
    void givesUpPastItsBound() {
        ChangedKeyWatch watch = new ChangedKeyWatch(7, new int[] {1}, KEY_TYPES);
        Object[][] rows = new Object[4096][];
        long id = 0;
        while (id <= ChangedKeyWatch.MAX_KEYS) {
            for (int i = 0; i < rows.length; i++) {
                rows[i] = new Object[] {"r", id++};
            }
            watch.dispatch(Chunk.of(Op.INSERT, rows));
        }
        assertTrue(watch.overflowed());
        assertEquals(List.of(), watch.take());
    }

    @Test
    void takeStartsANewListAndATruncateReplacesTheKeys() {
        ChangedKeyWatch watch = new ChangedKeyWatch(7, new int[] {1}, KEY_TYPES);
        watch.dispatch(Chunk.of(Op.INSERT, new Object[] {"a", 1L}));
        assertEquals(1, watch.take().size());
        assertEquals(List.of(), watch.take());
        watch.dispatch(Chunk.of(Op.DELETE, new Object[] {"a", 1L}, new Object[] {"b", 2L}));
        watch.truncated();
        watch.dispatch(Chunk.of(Op.INSERT, new Object[] {"c", 3L}));
        assertTrue(watch.wasTruncated());
        List<byte[]> keys = watch.take();
        assertEquals(1, keys.size());
        assertArrayEquals(pk(3), keys.get(0));
        assertFalse(watch.wasTruncated());
    }
}
