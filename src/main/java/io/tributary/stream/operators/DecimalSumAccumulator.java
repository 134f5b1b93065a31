package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;

/**
 * SUM / SUM0 into a NUMERIC result: exact arithmetic that keeps the inputs' scale and never
 * rounds, as {@link BigDecimal} addition does (the sum's scale is the largest of its terms'). The
 * result's scale is raised (never lowered) to the result type's scale when it has one, so it is a
 * canonical value of that type.
 *
 * <p>The sum is kept as an unscaled {@code long} and a scale while both fit (every term with at
 * most 18 digits, scale 0 to 18, and the sum within {@code long}), so adding a row allocates no
 * sum; the first term or sum that does not fit moves it, exactly, to a {@link BigDecimal} until
 * the group is empty again. Either way the value, its scale and what {@link #save} stores are
 * those of BigDecimal addition of the same terms.
 *
 * <p>Known difference from PostgreSQL: with inputs of mixed scales (unconstrained NUMERIC), the
 * scale is the largest seen since the group last had no values, even after the value that brought
 * it was removed ({@code 1.50 + 2.5 - 1.50} reads {@code 2.50}; PostgreSQL says {@code 2.5}).
 */
final class DecimalSumAccumulator implements Accumulator {
    /** Terms with more digits than this may not have a {@code long} unscaled value. */
    static final int LONG_DIGITS = 18;

    /** 10 to the power of each index up to {@link #LONG_DIGITS}; {@link FlatInserts} rescales by it too. */
    static final long[] POWERS_OF_TEN = new long[LONG_DIGITS + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final DataType type;
    private final boolean zeroWhenEmpty;
    /** The sum's unscaled value at {@link #scale}, while {@link #wide} is null. */
    private long unscaled;

    private int scale;
    /** The sum while it does not fit {@link #unscaled} and {@link #scale}, else null. */
    private BigDecimal wide;

    private long count;

    DecimalSumAccumulator(DataType type, boolean zeroWhenEmpty, BigDecimal sum, long count) {
        this.type = type;
        this.zeroWhenEmpty = zeroWhenEmpty;
        this.count = count;
        set(sum);
    }

    @Override
    public void add(Object value, int sign) {
        count += sign;
        if (count == 0) {
            // back to a plain zero when empty, so a scale brought by removed values does not linger
            unscaled = 0;
            scale = 0;
            wide = null;
            return;
        }
        if (wide == null && addCompact(value, sign)) {
            return;
        }
        BigDecimal x = decimal(value);
        BigDecimal sum = wide != null ? wide : BigDecimal.valueOf(unscaled, scale);
        set(sign > 0 ? sum.add(x) : sum.subtract(x));
    }

    /**
     * Adds {@code terms} values (non-null, at least one) whose exact sum is {@code sum}, as that
     * many {@link #add} calls would: {@link FlatInserts}' sums of a group's inserted rows, folded in.
     */
    void addSum(BigDecimal sum, long terms) {
        count += terms;
        if (wide == null && addCompact(sum, 1)) {
            return;
        }
        set((wide != null ? wide : BigDecimal.valueOf(unscaled, scale)).add(sum));
    }

    /** Adds {@code value} to the compact sum and returns true, or returns false having changed nothing. */
    private boolean addCompact(Object value, int sign) {
        long x;
        int xScale;
        if (value instanceof BigDecimal d) {
            if (!compact(d)) {
                return false;
            }
            xScale = d.scale();
            x = unscaled(d);
        } else if (value instanceof Float || value instanceof Double) {
            return false;
        } else {
            x = ((Number) value).longValue();
            xScale = 0;
        }
        try {
            long sum = unscaled;
            int to = Math.max(scale, xScale);
            sum = Math.multiplyExact(sum, POWERS_OF_TEN[to - scale]);
            x = Math.multiplyExact(x, POWERS_OF_TEN[to - xScale]);
            unscaled = sign > 0 ? Math.addExact(sum, x) : Math.subtractExact(sum, x);
            scale = to;
            return true;
        } catch (ArithmeticException outOfLongRange) {
            return false;
        }
    }

    /** Whether {@code d} has a {@code long} unscaled value at a scale of 0 to {@link #LONG_DIGITS}. */
    static boolean compact(BigDecimal d) {
        return d.scale() >= 0 && d.scale() <= LONG_DIGITS && d.precision() <= LONG_DIGITS;
    }

    /** The unscaled value of a {@link #compact} {@code d}. */
    static long unscaled(BigDecimal d) {
        // without unscaledValue()'s BigInteger: a scale-0 view of the same digits, which does not
        // escape, so the JIT can drop it
        return d.scaleByPowerOfTen(d.scale()).longValue();
    }

    private static BigDecimal decimal(Object value) {
        return value instanceof BigDecimal d
                ? d
                : value instanceof Float || value instanceof Double
                        ? BigDecimal.valueOf(((Number) value).doubleValue())
                        : BigDecimal.valueOf(((Number) value).longValue());
    }

    /** Takes {@code sum} exactly, compact when it fits. */
    private void set(BigDecimal sum) {
        if (sum.scale() >= 0 && sum.scale() <= LONG_DIGITS && sum.precision() <= LONG_DIGITS) {
            unscaled = sum.unscaledValue().longValue();
            scale = sum.scale();
            wide = null;
        } else {
            wide = sum;
        }
    }

    private BigDecimal sum() {
        return wide != null ? wide : BigDecimal.valueOf(unscaled, scale);
    }

    @Override
    public Object result() {
        if (count == 0) {
            return zeroWhenEmpty ? scaled(BigDecimal.ZERO) : null;
        }
        return scaled(sum());
    }

    private BigDecimal scaled(BigDecimal v) {
        return type.scale() > v.scale() ? v.setScale(type.scale()) : v;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = count == 0 ? BigDecimal.ZERO : sum();
        row[at + 1] = count;
    }
}
