package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.Epoch;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.StateWrites;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ValueTable}'s batched path ({@link ValueTable#addUncounted} of inserts and removals,
 * counted at the next read or flush) writes exactly the bytes its row-at-a-time path ({@link
 * ValueTable#change}) writes, epoch
 * after epoch over real RocksDB stores, with values that repeat within and across epochs (so counts
 * come from pending and committed state), removals in between, NULL group keys and negative, large
 * and differently scaled NUMERICs.
 */
class ValueTableTest {
    @TempDir
    Path dir;

    @Test
    void uncountedInsertsWriteTheSameStateAsCountedOnes() {
        for (boolean descending : new boolean[] {false, true}) {
            try (StateStore batched = RocksStateStore.open(dir.resolve("batched" + descending));
                    StateStore counted = RocksStateStore.open(dir.resolve("counted" + descending))) {
                compare(batched, counted, descending, new Random(descending ? 11 : 7));
            }
        }
    }

    private static void compare(StateStore batchedStore, StateStore countedStore, boolean descending, Random random) {
        List<DataType> groupTypes = List.of(DataType.INTEGER, DataType.TEXT);
        ValueTable batched = new ValueTable(42, groupTypes, DataType.NUMERIC, descending, batchedStore.latest());
        ValueTable counted = new ValueTable(42, groupTypes, DataType.NUMERIC, descending, countedStore.latest());
        List<Object[]> present = new ArrayList<>();
        for (int epoch = 0; epoch < 12; epoch++) {
            for (int i = 0; i < 3_000; i++) {
                if (!present.isEmpty() && random.nextInt(5) == 0) {
                    Object[] gone = present.remove(random.nextInt(present.size()));
                    Object[] group = {gone[0], gone[1]};
                    if (random.nextBoolean()) {
                        assertEquals(counted.change(group, gone[2], -1), batched.change(group, gone[2], -1));
                    } else {
                        // MIN/MAX's removals: counted with the inserts at the next read or flush
                        counted.change(group, gone[2], -1);
                        batched.addUncounted(group, gone[2], -1);
                    }
                    continue;
                }
                Object[] group = {random.nextInt(10) == 0 ? null : random.nextInt(40), "g" + random.nextInt(3)};
                BigDecimal value = value(random);
                batched.addUncounted(group, value, 1);
                counted.change(group, value, 1);
                present.add(new Object[] {group[0], group[1], value});
                if (random.nextInt(500) == 0) {
                    assertEquals(counted.first(group), batched.first(group));
                }
            }
            assertEquals(commit(countedStore, counted), commit(batchedStore, batched), "epoch " + epoch);
        }
    }

    private static BigDecimal value(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> BigDecimal.valueOf(random.nextInt(200) - 100, 2);
            case 1 -> new BigDecimal("123456789012345678901234567890.5").negate();
            case 2 -> BigDecimal.valueOf(Long.MAX_VALUE - random.nextInt(3), random.nextInt(3));
            default -> BigDecimal.valueOf(random.nextInt(50));
        };
    }

    /** Flushes {@code table} into one committed epoch of {@code store}; returns the writes, hex key to hex value. */
    private static Map<String, String> commit(StateStore store, ValueTable table) {
        Map<String, String> writes = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        long epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            table.flush(new StateWrites() {
                @Override
                public void put(byte[] key, byte[] value) {
                    writes.put(hex.formatHex(key), hex.formatHex(value));
                    buffer.put(Keyspace.DATA, key, value);
                }

                @Override
                public void delete(byte[] key) {
                    writes.put(hex.formatHex(key), "deleted");
                    buffer.delete(Keyspace.DATA, key);
                }
            });
            store.commit(epoch, buffer);
        }
        return writes;
    }
}
