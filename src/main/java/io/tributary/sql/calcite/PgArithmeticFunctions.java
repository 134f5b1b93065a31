package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's arithmetic where Calcite's runtime differs, called by the code Calcite generates for
 * the calls {@link PgArithmetic} puts in a plan (by reflection; the methods must stay public and
 * static). Strict: a NULL operand gives NULL without a call. Pure functions of their operands, safe
 * on any thread; nothing allocates but the numeric results.
 */
@Strict
public final class PgArithmeticFunctions {
    /** PostgreSQL's NUMERIC_MIN_SIG_DIGITS: a quotient has at least this many significant digits. */
    private static final int MIN_SIG_DIGITS = 16;
    /** PostgreSQL's NUMERIC_MAX_DISPLAY_SCALE. */
    private static final int MAX_DISPLAY_SCALE = 1000;
    /** Decimal digits per digit of PostgreSQL's base-10000 numeric representation (DEC_DIGITS). */
    private static final int DEC_DIGITS = 4;

    private PgArithmeticFunctions() {}

    /**
     * {@code numeric / numeric} with PostgreSQL's result scale ({@code select_div_scale}): enough
     * decimals for 16 significant digits, at least either operand's scale, rounded half away from
     * zero.
     *
     * @throws TributaryException 22012 when {@code b} is zero
     */
    public static BigDecimal numericDivide(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) {
            throw divisionByZero();
        }
        int qweight = weight(a) - weight(b);
        if (firstDigit(a) <= firstDigit(b)) {
            qweight--;
        }
        int scale = MIN_SIG_DIGITS - qweight * DEC_DIGITS;
        scale = Math.max(scale, displayScale(a));
        scale = Math.max(scale, displayScale(b));
        scale = Math.max(scale, 0);
        scale = Math.min(scale, MAX_DISPLAY_SCALE);
        return a.divide(b, scale, RoundingMode.HALF_UP);
    }

    /**
     * {@code numeric % numeric}: the remainder of the division truncated toward zero (its sign is
     * the dividend's), with the larger of the operands' scales, as PostgreSQL's {@code mod_var}.
     *
     * @throws TributaryException 22012 when {@code b} is zero
     */
    public static BigDecimal numericRemainder(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) {
            throw divisionByZero();
        }
        return a.remainder(b).setScale(Math.max(displayScale(a), displayScale(b)), RoundingMode.UNNECESSARY);
    }

    /** {@code float8 + float8}: 22003 when finite operands overflow (Calcite: Infinity). */
    public static double float8Plus(double a, double b) {
        return checkOverflow(a + b, a, b);
    }

    /** {@code float8 - float8}: 22003 when finite operands overflow. */
    public static double float8Minus(double a, double b) {
        return checkOverflow(a - b, a, b);
    }

    /** {@code float8 * float8}: 22003 on overflow, and on underflow to zero of non-zero operands. */
    public static double float8Times(double a, double b) {
        double r = checkOverflow(a * b, a, b);
        if (r == 0.0 && a != 0.0 && b != 0.0) {
            throw outOfRange("underflow");
        }
        return r;
    }

    /**
     * {@code float8 / float8}: 22012 for a zero divisor (unless the dividend is NaN), 22003 on
     * overflow or underflow, as PostgreSQL's {@code float8div}.
     */
    public static double float8Divide(double a, double b) {
        if (b == 0.0 && !Double.isNaN(a)) {
            throw divisionByZero();
        }
        double r = a / b;
        if (Double.isInfinite(r) && !Double.isInfinite(a)) {
            throw outOfRange("overflow");
        }
        if (r == 0.0 && a != 0.0 && !Double.isInfinite(b)) {
            throw outOfRange("underflow");
        }
        return r;
    }

    /** {@code int2 / int2}: truncated; 22003 for the one quotient that overflows (Calcite wraps it). */
    public static short int2Divide(short a, short b) {
        if (b == -1 && a == Short.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range");
        }
        return (short) (a / b);
    }

    /** {@code int4 / int4}: truncated; 22003 for the one quotient that overflows (Calcite wraps it). */
    public static int int4Divide(int a, int b) {
        if (b == -1 && a == Integer.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        return a / b;
    }

    /** {@code int8 / int8}: truncated; 22003 for the one quotient that overflows. */
    public static long int8Divide(long a, long b) {
        if (b == -1 && a == Long.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
        return a / b;
    }

    /** {@code abs(int2)}: 22003 for the one value without a positive counterpart (Calcite wraps it). */
    public static short int2Abs(short a) {
        if (a == Short.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range");
        }
        return (short) Math.abs(a);
    }

    /** {@code abs(int4)}: 22003 for the one value without a positive counterpart. */
    public static int int4Abs(int a) {
        if (a == Integer.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        return Math.abs(a);
    }

    /** {@code abs(int8)}: 22003 for the one value without a positive counterpart. */
    public static long int8Abs(long a) {
        if (a == Long.MIN_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
        return Math.abs(a);
    }

    private static double checkOverflow(double r, double a, double b) {
        if (Double.isInfinite(r) && !Double.isInfinite(a) && !Double.isInfinite(b)) {
            throw outOfRange("overflow");
        }
        return r;
    }

    /**
     * The weight of the first non-zero base-10000 digit of {@code x} (0 for zero), as PostgreSQL's
     * numeric stores it: a value of 1 to 9999 has weight 0, 10000 weight 1, 0.5 weight -1.
     */
    private static int weight(BigDecimal x) {
        if (x.signum() == 0) {
            return 0;
        }
        return Math.floorDiv(x.precision() - x.scale() - 1, DEC_DIGITS);
    }

    /** The first non-zero base-10000 digit of {@code |x|} (0 for zero). */
    private static int firstDigit(BigDecimal x) {
        if (x.signum() == 0) {
            return 0;
        }
        return x.abs()
                .movePointLeft(weight(x) * DEC_DIGITS)
                .setScale(0, RoundingMode.DOWN)
                .intValueExact();
    }

    /** The display scale PostgreSQL keeps for the value: its decimals, never negative. */
    private static int displayScale(BigDecimal x) {
        return Math.max(0, x.scale());
    }

    private static TributaryException divisionByZero() {
        return new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }

    private static TributaryException outOfRange(String what) {
        return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: " + what);
    }
}
