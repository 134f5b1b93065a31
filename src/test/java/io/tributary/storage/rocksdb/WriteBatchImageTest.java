package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;

/** The Java-built image against the batch RocksDB builds itself from the same writes, byte for byte. */
class WriteBatchImageTest {
    static {
        RocksDB.loadLibrary();
    }

    @TempDir
    Path dir;

    @Test
    void imageIsTheBatchRocksDbBuilds() throws Exception {
        List<ColumnFamilyDescriptor> descriptors = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                new ColumnFamilyDescriptor("one".getBytes()),
                new ColumnFamilyDescriptor("two".getBytes()));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
                RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles);
                WriteBatch expected = new WriteBatch()) {
            Random random = new Random(11);
            List<Object[]> writes = new ArrayList<>();
            // lengths around the varint boundaries (127/128, 16383/16384) and empty values
            int[] lengths = {0, 1, 127, 128, 300, 16383, 16384, 70000};
            for (int i = 0; i < 400; i++) {
                int family = random.nextInt(handles.size());
                byte[] key = bytes(random, lengths[random.nextInt(lengths.length - 1)] + 1);
                byte[] value = bytes(random, lengths[random.nextInt(lengths.length)]);
                int op = random.nextInt(3);
                writes.add(new Object[] {op, family, key, value});
                ColumnFamilyHandle h = handles.get(family);
                switch (op) {
                    case 0 -> expected.put(h, key, value);
                    case 1 -> expected.delete(h, key);
                    default -> expected.deleteRange(h, key, value);
                }
            }
            long size = WriteBatchImage.HEADER;
            for (Object[] w : writes) {
                int id = handles.get((int) w[1]).getID();
                size += WriteBatchImage.size(id, (byte[]) w[2], (int) w[0] == 1 ? null : (byte[]) w[3]);
            }
            WriteBatchImage image = new WriteBatchImage((int) size);
            for (Object[] w : writes) {
                int id = handles.get((int) w[1]).getID();
                switch ((int) w[0]) {
                    case 0 -> image.put(id, (byte[]) w[2], (byte[]) w[3]);
                    case 1 -> image.delete(id, (byte[]) w[2]);
                    default -> image.deleteRange(id, (byte[]) w[2], (byte[]) w[3]);
                }
            }
            byte[] built = image.toByteArray();
            assertArrayEquals(expected.data(), built);
            try (WriteBatch fromImage = new WriteBatch(built)) {
                assertEquals(expected.count(), fromImage.count());
                assertArrayEquals(expected.data(), fromImage.data());
            }
            handles.forEach(ColumnFamilyHandle::close);
        }
    }

    private static byte[] bytes(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }
}
