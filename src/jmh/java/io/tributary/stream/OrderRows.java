package io.tributary.stream;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Rows shaped like {@code bench backfill}'s orders (id BIGINT, customer_id INTEGER, amount
 * NUMERIC(12,2), status TEXT), generated from a fixed seed, for the microbenchmarks.
 */
public final class OrderRows {
    private OrderRows() {}

    /** {@code count} orders with ids from {@code firstId}, customers among {@code customers}. */
    public static Object[][] orders(long firstId, int count, int customers) {
        SplittableRandom random = new SplittableRandom(firstId);
        String[] statuses = {"new", "paid", "shipped", "returned"};
        Object[][] rows = new Object[count][];
        for (int i = 0; i < count; i++) {
            rows[i] = new Object[] {
                firstId + i,
                random.nextInt(customers) + 1,
                BigDecimal.valueOf(random.nextLong(1, 100_000_00), 2),
                statuses[random.nextInt(statuses.length)]
            };
        }
        return rows;
    }

    /** {@code rows} as insert chunks of {@link Chunk#TARGET_SIZE} rows; a last partial chunk is left out. */
    public static Chunk[] insertChunks(Object[][] rows) {
        Chunk[] chunks = new Chunk[rows.length / Chunk.TARGET_SIZE];
        for (int c = 0; c < chunks.length; c++) {
            chunks[c] =
                    Chunk.of(Op.INSERT, Arrays.copyOfRange(rows, c * Chunk.TARGET_SIZE, (c + 1) * Chunk.TARGET_SIZE));
        }
        return chunks;
    }
}
