package io.tributary.stream;

import java.math.BigDecimal;
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
}
