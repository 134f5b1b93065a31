package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's float semantics where Java's differ, called by the plans {@link PgFloatCalls}
 * rewrites: NaN equals NaN and is greater than every other float ({@code float8_cmp_internal}),
 * while -0 equals 0; {@code float8::real} is 22003 where the value leaves real's range; a float
 * cast to numeric reads the float printed with {@code DBL_DIG} (15) or {@code FLT_DIG} (6)
 * significant digits, as PostgreSQL 14's {@code float8_numeric} and {@code float4_numeric} do.
 * Strict (NULL gives NULL without a call); primitives in and out, so a row costs no boxing.
 */
@Strict
public final class PgFloatFunctions {
    private static final MathContext DBL_DIG = new MathContext(15, RoundingMode.HALF_EVEN);
    private static final MathContext FLT_DIG = new MathContext(6, RoundingMode.HALF_EVEN);

    private PgFloatFunctions() {}

    /** {@code a = b}: NaN equals NaN. */
    public static boolean floatEq(double a, double b) {
        return a == b || a != a && b != b;
    }

    /** {@code a <> b}. */
    public static boolean floatNe(double a, double b) {
        return !floatEq(a, b);
    }

    /** {@code a < b}: NaN is above every other float. */
    public static boolean floatLt(double a, double b) {
        return a != a ? false : b != b || a < b;
    }

    /** {@code a <= b}. */
    public static boolean floatLe(double a, double b) {
        return b != b || a == a && a <= b;
    }

    /** {@code a > b}. */
    public static boolean floatGt(double a, double b) {
        return floatLt(b, a);
    }

    /** {@code a >= b}. */
    public static boolean floatGe(double a, double b) {
        return floatLe(b, a);
    }

    /**
     * A key whose signed order is PostgreSQL's order of floats ({@code float8_cmp_internal}): NaN
     * above Infinity and equal to every NaN, -0 equal to 0. Sorts and {@code min}/{@code max} of
     * floats go through it ({@link FloatOrderPlans}), as Calcite's comparators convert doubles to
     * BigDecimal (which fails for NaN and infinities) and its {@code max} skips NaN.
     */
    public static long floatOrder(double d) {
        long bits = Double.doubleToLongBits(d + 0.0d);
        // negative doubles order backwards by their bits: flip all but the sign bit
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** The float whose {@link #floatOrder} is {@code key}. */
    public static double floatOfOrder(long key) {
        return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
    }

    /**
     * {@code float8::real} ({@code float8_to_float4}).
     *
     * @throws TributaryException 22003 when a finite value becomes infinite or a non-zero one 0
     */
    public static float float8Float4(double d) {
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
        }
        if (f == 0 && d != 0) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
        }
        return f;
    }

    /** {@code float8::numeric}: the value's 15 significant digits. */
    public static BigDecimal float8Numeric(double d) {
        return printed(d, DBL_DIG);
    }

    /** {@code real::numeric}: the value's 6 significant digits. */
    public static BigDecimal float4Numeric(float f) {
        return printed(f, FLT_DIG);
    }

    /**
     * The numeric {@code %.*g} prints and {@code numeric_in} reads: the binary value rounded to
     * {@code digits} (the same decimal glibc prints), without trailing zeros, scale at least 0.
     *
     * @throws TributaryException 0A000 for NaN and the infinities, which this numeric cannot hold
     */
    private static BigDecimal printed(double d, MathContext digits) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "cannot convert " + (d != d ? "NaN" : "infinity") + " to numeric");
        }
        BigDecimal rounded = new BigDecimal(d).round(digits).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0) : rounded;
    }
}
