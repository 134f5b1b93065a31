package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link DecimalSumAccumulator}'s compact {@code long} path gives what BigDecimal addition of the
 * same terms gives, scale included, in its result and its saved state: random adds and removes
 * of terms at and past the boundaries of {@code long} (so sums leave its range and come back),
 * of mixed and large scales, integers and doubles, through empty groups and reloads from saved
 * state.
 */
class DecimalSumAccumulatorTest {
    @Test
    void compactSumsEqualBigDecimalSumsAcrossLongsBoundary() {
        DataType type = DataType.numeric(38, 2);
        Random random = new Random(5);
        for (int run = 0; run < 200; run++) {
            DecimalSumAccumulator acc = new DecimalSumAccumulator(type, run % 2 == 0, BigDecimal.ZERO, 0);
            BigDecimal expected = BigDecimal.ZERO;
            List<Object> present = new ArrayList<>();
            for (int step = 0; step < 300; step++) {
                boolean remove = !present.isEmpty() && random.nextInt(3) == 0;
                Object term = remove ? present.remove(random.nextInt(present.size())) : term(random);
                int sign = remove ? -1 : 1;
                if (!remove) {
                    present.add(term);
                }
                acc.add(term, sign);
                BigDecimal x = term instanceof BigDecimal d
                        ? d
                        : term instanceof Double v ? BigDecimal.valueOf(v) : BigDecimal.valueOf((Long) term);
                expected = present.isEmpty() ? BigDecimal.ZERO : sign > 0 ? expected.add(x) : expected.subtract(x);
                Object[] saved = new Object[2];
                acc.save(saved, 0);
                assertEquals(expected, saved[0], "saved sum, run " + run + " step " + step);
                assertEquals((long) present.size(), saved[1]);
                BigDecimal result = present.isEmpty()
                        ? (run % 2 == 0 ? BigDecimal.ZERO.setScale(2) : null)
                        : expected.scale() < 2 ? expected.setScale(2) : expected;
                assertEquals(result, acc.result(), "result, run " + run + " step " + step);
                if (random.nextInt(20) == 0) {
                    acc = new DecimalSumAccumulator(type, run % 2 == 0, (BigDecimal) saved[0], (Long) saved[1]);
                }
            }
        }
    }

    private static Object term(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> BigDecimal.valueOf(Long.MAX_VALUE - random.nextInt(1000), 2);
            case 1 -> BigDecimal.valueOf(Long.MIN_VALUE + random.nextInt(1000), 2);
            case 2 -> BigDecimal.valueOf(random.nextLong(), random.nextInt(20));
            case 3 -> BigDecimal.valueOf(999_999_999_999_999_999L, 18).negate();
            case 4 -> new BigDecimal("12345678901234567890.123");
            case 5 -> (long) random.nextInt(1000) - 500;
            case 6 -> random.nextInt(1000) / 8.0;
            default -> BigDecimal.valueOf(random.nextInt(100_000) - 50_000, 2);
        };
    }
}
