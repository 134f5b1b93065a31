package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * SUM / SUM0 of SMALLINT, INTEGER or BIGINT values into an integer result type. The sum is kept
 * exactly, in a {@code long} while it fits and in a {@link BigInteger} while it does not, so it
 * returns into range exactly when values are removed. A sum outside the result type reads NULL
 * (PostgreSQL would fail the query; a view cannot) and logs a warning once.
 */
final class IntegralSumAccumulator implements Accumulator {
    private final DataType type;
    private final boolean zeroWhenEmpty;
    private final OnceWarning overflow;
    private long sum;
    /** The sum while it lies outside {@code long}'s range, else null. */
    private BigInteger wide;

    private long count;

    IntegralSumAccumulator(DataType type, boolean zeroWhenEmpty, OnceWarning overflow, BigDecimal sum, long count) {
        this.type = type;
        this.zeroWhenEmpty = zeroWhenEmpty;
        this.overflow = overflow;
        this.count = count;
        set(sum.toBigIntegerExact());
    }

    @Override
    public void add(Object value, int sign) {
        add(((Number) value).longValue(), sign);
    }

    /** {@link #add(Object, int)} of a value already unboxed (an interval's field, for {@link IntervalSumAccumulator}). */
    void add(long x, int sign) {
        count += sign;
        if (wide == null) {
            try {
                sum = sign > 0 ? Math.addExact(sum, x) : Math.subtractExact(sum, x);
                return;
            } catch (ArithmeticException outOfLongRange) {
                wide = BigInteger.valueOf(sum);
            }
        }
        BigInteger bx = BigInteger.valueOf(x);
        set(sign > 0 ? wide.add(bx) : wide.subtract(bx));
    }

    private void set(BigInteger exact) {
        if (exact.bitLength() < Long.SIZE) {
            sum = exact.longValue();
            wide = null;
        } else {
            wide = exact;
        }
    }

    @Override
    public Object result() {
        if (count == 0) {
            return zeroWhenEmpty ? narrow(0) : null;
        }
        if (wide != null) {
            overflow.log();
            return null;
        }
        Object r = narrow(sum);
        if (r == null) {
            overflow.log();
        }
        return r;
    }

    /** {@code v} as the result type, or null when it does not fit. */
    private Object narrow(long v) {
        return switch (type.kind()) {
            case SMALLINT -> v == (short) v ? (Object) (short) v : null;
            case INTEGER -> v == (int) v ? (Object) (int) v : null;
            default -> v;
        };
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = wide != null ? new BigDecimal(wide) : BigDecimal.valueOf(sum);
        row[at + 1] = count;
    }
}
