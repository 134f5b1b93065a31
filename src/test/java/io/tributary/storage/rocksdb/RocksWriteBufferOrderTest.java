package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order of a commit's batch: point writes between range deletions go to RocksDB in key order
 * (so that its memtable inserts follow each other), each key's writes and every range deletion
 * keep their order, and the committed state is that of the writes in the order made.
 */
class RocksWriteBufferOrderTest {
    private static final Keyspace[] SPACES = {Keyspace.DATA, Keyspace.CHANGELOG};

    @TempDir
    Path dir;

    /** One write read back from an image; {@code second} is the value or range end, null for a delete. */
    private record Write(int type, int family, byte[] key, byte[] second) {
        boolean rangeDeletion() {
            return type == 0xE || type == 0xF;
        }
    }

    @Test
    void pointWritesGoInKeyOrderAndKeepTheirMeaning() {
        RocksStateStore store = RocksStateStore.open(dir.resolve("rocks"));
        try {
            Random random = new Random(29);
            // the model: per keyspace, each key's value after the writes in the order made
            List<TreeMap<byte[], byte[]>> model = new ArrayList<>();
            for (int s = 0; s < SPACES.length; s++) {
                model.add(new TreeMap<>(Arrays::compareUnsigned));
            }
            // per keyspace and key, the sequence of written values (null for a delete) in order
            Map<String, List<byte[]>> perKey = new HashMap<>();
            int rangeDeletions = 0;
            byte[] image;
            try (RocksWriteBuffer buffer = (RocksWriteBuffer) store.newWriteBuffer()) {
                for (int i = 0; i < 3000; i++) {
                    int s = random.nextInt(SPACES.length);
                    byte[] key = key(random);
                    int op = random.nextInt(100);
                    if (op < 2) {
                        byte[] end = key(random);
                        byte[] from = Arrays.compareUnsigned(key, end) <= 0 ? key : end;
                        byte[] to = from == key ? end : key;
                        buffer.deleteRange(SPACES[s], from, to);
                        model.get(s).subMap(from, true, to, false).clear();
                        rangeDeletions++;
                        continue;
                    }
                    byte[] value = op < 70 ? ("v" + i).getBytes() : null;
                    if (value == null) {
                        buffer.delete(SPACES[s], key);
                        model.get(s).remove(key);
                    } else {
                        buffer.put(SPACES[s], key, value);
                        model.get(s).put(key, value);
                    }
                    perKey.computeIfAbsent(s + ":" + Arrays.toString(key), k -> new ArrayList<>())
                            .add(value);
                }
                image = buffer.image();
                store.commit(1, buffer);
            }

            List<Write> writes = parse(image);
            assertEquals(3000, writes.size());
            int familyOf0 = store.familyId(SPACES[0].ordinal());
            Map<String, List<byte[]>> imagePerKey = new HashMap<>();
            int seenRangeDeletions = 0;
            Map<Integer, byte[]> lastKeyPerFamily = new HashMap<>();
            for (Write w : writes) {
                if (w.rangeDeletion()) {
                    seenRangeDeletions++;
                    lastKeyPerFamily.clear();
                    continue;
                }
                byte[] last = lastKeyPerFamily.put(w.family(), w.key());
                assertTrue(
                        last == null || Arrays.compareUnsigned(last, w.key()) <= 0,
                        "point writes between range deletions in key order: " + Arrays.toString(last) + " then "
                                + Arrays.toString(w.key()));
                int s = w.family() == familyOf0 ? 0 : 1;
                imagePerKey
                        .computeIfAbsent(s + ":" + Arrays.toString(w.key()), k -> new ArrayList<>())
                        .add(w.second());
            }
            assertEquals(rangeDeletions, seenRangeDeletions);
            assertEquals(perKey.keySet(), imagePerKey.keySet());
            for (Map.Entry<String, List<byte[]>> e : perKey.entrySet()) {
                List<byte[]> got = imagePerKey.get(e.getKey());
                assertEquals(e.getValue().size(), got.size(), e.getKey());
                for (int i = 0; i < got.size(); i++) {
                    assertArrayEquals(e.getValue().get(i), got.get(i), e.getKey() + " write " + i);
                }
            }

            ReadView view = store.latest();
            try {
                for (int s = 0; s < SPACES.length; s++) {
                    for (int k = 0; k < 256; k++) {
                        byte[] key = {(byte) 7, (byte) k};
                        assertArrayEquals(model.get(s).get(key), view.get(SPACES[s], key), SPACES[s] + " " + k);
                    }
                }
            } finally {
                view.close();
            }
        } finally {
            store.close();
        }
    }

    /** A key of few distinct values, so that keys are written several times. */
    private static byte[] key(Random random) {
        return new byte[] {7, (byte) random.nextInt(256)};
    }

    /** Reads a batch image in the layout {@link WriteBatchImage} documents. */
    private static List<Write> parse(byte[] image) {
        ByteBuffer in = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        in.position(8);
        int count = in.getInt();
        List<Write> writes = new ArrayList<>();
        while (in.hasRemaining()) {
            int type = in.get();
            int family = 0;
            if (type == 0x4 || type == 0x5 || type == 0xE) {
                family = varint(in);
            }
            byte[] key = bytes(in);
            byte[] second = type == 0x0 || type == 0x4 ? null : bytes(in);
            writes.add(new Write(type, family, key, second));
        }
        assertEquals(count, writes.size());
        return writes;
    }

    private static byte[] bytes(ByteBuffer in) {
        byte[] b = new byte[varint(in)];
        in.get(b);
        return b;
    }

    private static int varint(ByteBuffer in) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.get() & 0xff;
            v |= (b & 0x7f) << shift;
            if (b < 0x80) {
                return v;
            }
        }
    }
}
