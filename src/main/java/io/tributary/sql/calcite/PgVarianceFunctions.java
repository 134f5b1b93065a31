package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * The final steps of PostgreSQL's {@code variance}, {@code var_samp}, {@code var_pop},
 * {@code stddev}, {@code stddev_samp} and {@code stddev_pop}, from the sum, the sum of squares and
 * the count that {@link VarianceCalls} has the aggregation compute. Registered in the root schema
 * as {@code pg_<method>} ({@link #register}), called by reflection from generated code in queries
 * and views; strict: a NULL operand (no rows, or the NULL count of a sample of one) gives NULL.
 *
 * <p>Exact arguments: {@code numeric_stddev_internal}'s arithmetic, {@code (n·Σx² − (Σx)²) /
 * (n·(n−1))} (or {@code n·n}) divided with {@code numeric / numeric}'s scale, the square root
 * rounded to that scale, and 0 when rounding made the numerator negative. Float arguments: the
 * same formula in double, as Calcite computed it before (PostgreSQL's float accumulator differs
 * only in the last bits). Pure functions, safe on any thread.
 */
@Strict
public final class PgVarianceFunctions {
    private PgVarianceFunctions() {}

    /** Adds the functions under their {@code pg_} names; see {@link CatalogSchema#registerFunctions}. */
    static void register(SchemaPlus root) {
        for (java.lang.reflect.Method m : PgVarianceFunctions.class.getMethods()) {
            if (m.getDeclaringClass() == PgVarianceFunctions.class) {
                root.add("pg_" + m.getName(), ScalarFunctionImpl.create(m));
            }
        }
    }

    public static BigDecimal var_samp(BigDecimal sum, BigDecimal squares, long count) {
        return variance(sum, squares, count, true);
    }

    public static BigDecimal var_pop(BigDecimal sum, BigDecimal squares, long count) {
        return variance(sum, squares, count, false);
    }

    public static BigDecimal stddev_samp(BigDecimal sum, BigDecimal squares, long count) {
        return sqrt(variance(sum, squares, count, true));
    }

    public static BigDecimal stddev_pop(BigDecimal sum, BigDecimal squares, long count) {
        return sqrt(variance(sum, squares, count, false));
    }

    public static double var_samp(double sum, double squares, long count) {
        return variance(sum, squares, count, true);
    }

    public static double var_pop(double sum, double squares, long count) {
        return variance(sum, squares, count, false);
    }

    public static double stddev_samp(double sum, double squares, long count) {
        return Math.pow(variance(sum, squares, count, true), 0.5);
    }

    public static double stddev_pop(double sum, double squares, long count) {
        return Math.pow(variance(sum, squares, count, false), 0.5);
    }

    private static BigDecimal variance(BigDecimal sum, BigDecimal squares, long count, boolean sample) {
        BigDecimal n = BigDecimal.valueOf(count);
        BigDecimal numerator = n.multiply(squares).subtract(sum.multiply(sum));
        if (numerator.signum() <= 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal denominator = sample ? n.multiply(BigDecimal.valueOf(count - 1)) : n.multiply(n);
        return PgArithmeticFunctions.numericDivide(numerator, denominator);
    }

    /** The square root of {@code v} in {@code v}'s scale, rounded half away from zero (PostgreSQL's {@code sqrt_var}). */
    private static BigDecimal sqrt(BigDecimal v) {
        if (v.signum() == 0) {
            return v;
        }
        // every digit the scale keeps, and guard digits, before the one rounding
        return v.sqrt(new MathContext(v.precision() + 8, RoundingMode.DOWN)).setScale(v.scale(), RoundingMode.HALF_UP);
    }

    private static double variance(double sum, double squares, long count, boolean sample) {
        double v = (squares - sum * sum / count) / (sample ? count - 1 : count);
        // rounding can make it negative, where PostgreSQL's accumulator never is
        return Math.max(v, 0);
    }
}
