package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * PostgreSQL's {@code sum(bigint)}, whose result is NUMERIC and exact however far it leaves
 * bigint's range, as a Calcite user-defined aggregate: the static {@code init}, {@code add} and
 * {@code result}, called by Calcite's generated code on the thread that runs the query, one {@link
 * State} per group or window frame. {@link BigintSumPlans} puts it in the place of Calcite's SUM and
 * $SUM0 over a bigint; Calcite's generated code skips NULL arguments and answers NULL for a SUM
 * that saw none, so {@code result} is called for a non-empty SUM, or for a $SUM0, which is 0 when
 * empty.
 */
public final class PgBigintSum {
    private PgBigintSum() {}

    /** The running sum: a {@code long} while it fits, then the exact {@link BigInteger}. */
    public static final class State {
        long sum;
        /** The sum once it left {@code long}'s range, else null; it never goes back, a query only adds. */
        BigInteger wide;
    }

    public static State init() {
        return new State();
    }

    /** Adds {@code x}: one {@code long} addition while the sum fits. */
    public static State add(State s, long x) {
        if (s.wide == null) {
            long r = s.sum + x;
            // overflow when both operands have the sign the result lacks (Math.addExact's test)
            if (((s.sum ^ r) & (x ^ r)) >= 0) {
                s.sum = r;
                return s;
            }
            s.wide = BigInteger.valueOf(s.sum);
        }
        s.wide = s.wide.add(BigInteger.valueOf(x));
        return s;
    }

    public static BigDecimal result(State s) {
        return s.wide != null ? new BigDecimal(s.wide) : BigDecimal.valueOf(s.sum);
    }
}
