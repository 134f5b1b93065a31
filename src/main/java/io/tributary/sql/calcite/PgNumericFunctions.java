package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * PostgreSQL's {@code numeric ^ numeric} ({@code power}), {@code log(numeric, numeric)} and the
 * one-argument {@code sqrt}, {@code exp}, {@code ln}, {@code log} and {@code log10} of a numeric,
 * with PostgreSQL 14's result scales and errors, registered as schema functions by {@link
 * CatalogSchema}: {@link NumericFunctionCalls} sends {@code ^} and {@code power} of a NUMERIC with
 * an integer or NUMERIC to {@code pg_numeric_power} (PostgreSQL's operator resolution; of integers
 * alone, or with a float, they stay double precision), every two-argument {@code log} to {@code
 * pg_numeric_log} (PostgreSQL has only the numeric one), and the one-argument functions of a
 * NUMERIC here too (PostgreSQL's numeric overloads, typed numeric, where Calcite computes a
 * double). NULL in gives NULL out. Pure functions, called by generated code on any thread.
 */
public final class PgNumericFunctions {
    /** PostgreSQL's {@code NUMERIC_MIN_SIG_DIGITS}: the least significant digits of a result. */
    private static final int MIN_SIG_DIGITS = 16;
    /** PostgreSQL's {@code NUMERIC_MAX_DISPLAY_SCALE}. */
    private static final int MAX_DISPLAY_SCALE = 1000;
    /** PostgreSQL's {@code NUMERIC_MAX_RESULT_SCALE}. */
    private static final int MAX_RESULT_SCALE = 2000;
    /** Decimal digits before the point a PostgreSQL numeric can hold (32767 base-10000 digits). */
    private static final int MAX_INTEGER_DIGITS = 131072;

    private static final double LN_10 = 2.302585092994046;
    private static final double LOG10_E = 0.434294481903252;

    private PgNumericFunctions() {}

    /**
     * {@code base ^ exponent} of numerics: an integral exponent multiplies exactly, rounded to at
     * least 16 decimals (or the base's scale); another goes through {@code exp(exponent *
     * ln(base))} with 16 significant digits at least (or either operand's scale), as PostgreSQL's
     * {@code power_var} chooses them.
     *
     * @throws TributaryException 2201F for zero to a negative power or a negative base to a
     *     non-integral one; 22003 when the result overflows numeric
     */
    public static BigDecimal pg_numeric_power(BigDecimal base, BigDecimal exponent) {
        if (base == null || exponent == null) {
            return null;
        }
        boolean integral =
                exponent.signum() == 0 || exponent.stripTrailingZeros().scale() <= 0;
        if (base.signum() == 0 && exponent.signum() < 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER, "zero raised to a negative power is undefined");
        }
        if (base.signum() < 0 && !integral) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER,
                    "a negative number raised to a non-integer power yields a complex result");
        }
        if (integral && exponent.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            int rscale = scale(MIN_SIG_DIGITS, base);
            return integerPower(base, exponent.intValueExact(), rscale);
        }
        if (base.signum() == 0) {
            return BigDecimal.ZERO.setScale(MIN_SIG_DIGITS);
        }
        // the result's decimal weight, estimated as PostgreSQL does from ln(base) * exponent to
        // about 8 significant digits, each rounded to that scale: the rounding decides the scale
        int lowScale = Math.min(Math.max(8 - lnWeight(base), 0), MAX_DISPLAY_SCALE);
        double lnResult = NumericTranscendental.ln(base, lowScale + 20)
                .setScale(lowScale, RoundingMode.HALF_UP)
                .multiply(exponent)
                .setScale(lowScale, RoundingMode.HALF_UP)
                .doubleValue();
        if (Math.abs(lnResult) > MAX_RESULT_SCALE * 3.01) {
            if (lnResult > 0) {
                throw overflow();
            }
            return BigDecimal.ZERO.setScale(MAX_DISPLAY_SCALE);
        }
        int weight = (int) (lnResult * LOG10_E);
        int rscale = scale(scale(MIN_SIG_DIGITS - weight, base), exponent);
        int digits = Math.max(weight, 0) + rscale + 10;
        BigDecimal exponentDigits = exponent.abs().setScale(0, RoundingMode.CEILING);
        BigDecimal ln = NumericTranscendental.ln(base, digits + exponentDigits.precision() + 5);
        BigDecimal product = ln.multiply(exponent);
        return checked(NumericTranscendental.exp(product, digits).setScale(rscale, RoundingMode.HALF_UP));
    }

    /**
     * {@code log(base, x)}: {@code ln(x) / ln(base)} with 16 significant digits at least (or
     * either argument's scale), as PostgreSQL's {@code log_var} chooses them.
     *
     * @throws TributaryException 2201E for a base or argument at or below zero; 22012 for base 1
     */
    public static BigDecimal pg_numeric_log(BigDecimal base, BigDecimal x) {
        if (base == null || x == null) {
            return null;
        }
        checkLogArgument(base);
        checkLogArgument(x);
        int rscale = scale(scale(MIN_SIG_DIGITS - (lnWeight(x) - lnWeight(base)), base), x);
        if (base.compareTo(BigDecimal.ONE) == 0) {
            throw new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        int digits = rscale + 20 + Math.abs(lnWeight(x)) + Math.abs(lnWeight(base));
        BigDecimal quotient = NumericTranscendental.ln(x, digits)
                .divide(NumericTranscendental.ln(base, digits), new MathContext(digits, RoundingMode.HALF_EVEN));
        return quotient.setScale(rscale, RoundingMode.HALF_UP);
    }

    /**
     * {@code sqrt(x)} of a numeric: at least 16 significant digits (or {@code x}'s scale), rounded
     * half away from zero, as PostgreSQL's {@code numeric_sqrt} chooses its scale from {@code x}'s
     * weight in base-10000 digits.
     *
     * @throws TributaryException 2201F for a negative {@code x}
     */
    public static BigDecimal pg_numeric_sqrt(BigDecimal x) {
        if (x == null) {
            return null;
        }
        if (x.signum() < 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER, "cannot take square root of a negative number");
        }
        int weight = x.signum() == 0 ? 0 : Math.floorDiv(x.precision() - x.scale() - 1, 4);
        int rscale = scale(MIN_SIG_DIGITS - ((weight + 1) * 4 / 2 - 1), x);
        if (x.signum() == 0) {
            return BigDecimal.ZERO.setScale(rscale);
        }
        // the exact square root's digits to rscale + 1 decimals, truncated (x times an even power of
        // ten is a whole number since rscale >= x's scale), then rounded once, half up, as PostgreSQL
        BigInteger scaled = x.movePointRight(2 * (rscale + 1)).toBigIntegerExact();
        BigInteger[] lastDigit = scaled.sqrt().divideAndRemainder(BigInteger.TEN);
        BigInteger rounded = lastDigit[1].intValue() >= 5 ? lastDigit[0].add(BigInteger.ONE) : lastDigit[0];
        return new BigDecimal(rounded, rscale);
    }

    /**
     * {@code exp(x)} of a numeric: at least 16 significant digits (or {@code x}'s scale), as
     * PostgreSQL's {@code numeric_exp}; 0 at that scale when {@code x} is 6000 or less below zero.
     *
     * @throws TributaryException 22003 when {@code x} is 6000 or more
     */
    public static BigDecimal pg_numeric_exp(BigDecimal x) {
        if (x == null) {
            return null;
        }
        double weight = Math.max(Math.min(x.doubleValue() * LOG10_E, MAX_RESULT_SCALE), -MAX_RESULT_SCALE);
        int rscale = scale(MIN_SIG_DIGITS - (int) weight, x);
        if (Math.abs(x.doubleValue()) >= MAX_RESULT_SCALE * 3) {
            if (x.signum() > 0) {
                throw overflow();
            }
            return BigDecimal.ZERO.setScale(rscale);
        }
        int digits = Math.max((int) weight, 0) + rscale + 10;
        return checked(NumericTranscendental.exp(x, Math.max(digits, 1)).setScale(rscale, RoundingMode.HALF_UP));
    }

    /**
     * {@code ln(x)} of a numeric: at least 16 significant digits (or {@code x}'s scale), as
     * PostgreSQL's {@code numeric_ln}.
     *
     * @throws TributaryException 2201E for {@code x} at or below zero
     */
    public static BigDecimal pg_numeric_ln(BigDecimal x) {
        if (x == null) {
            return null;
        }
        checkLogArgument(x);
        int weight = lnWeight(x);
        int rscale = scale(MIN_SIG_DIGITS - weight, x);
        int digits = Math.max(weight, 0) + rscale + 10;
        return NumericTranscendental.ln(x, digits).setScale(rscale, RoundingMode.HALF_UP);
    }

    /**
     * {@code log(x)} and {@code log10(x)} of a numeric: PostgreSQL defines both as {@code log(10,
     * x)}.
     *
     * @throws TributaryException 2201E for {@code x} at or below zero
     */
    public static BigDecimal pg_numeric_log10(BigDecimal x) {
        return x == null ? null : pg_numeric_log(BigDecimal.TEN, x);
    }

    /**
     * {@code rscale} raised to {@code x}'s scale and kept within PostgreSQL's display scales (0 to
     * 1000), as PostgreSQL clamps each result scale; twice for two operands.
     */
    private static int scale(int rscale, BigDecimal x) {
        return Math.min(Math.max(Math.max(rscale, x.scale()), 0), MAX_DISPLAY_SCALE);
    }

    private static void checkLogArgument(BigDecimal v) {
        if (v.signum() <= 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_LOGARITHM,
                    v.signum() == 0 ? "cannot take logarithm of zero" : "cannot take logarithm of a negative number");
        }
    }

    /** {@code base ^ exponent} rounded to {@code rscale} decimals, as PostgreSQL's {@code power_var_int}. */
    private static BigDecimal integerPower(BigDecimal base, int exponent, int rscale) {
        if (exponent == 0) {
            return BigDecimal.ONE.setScale(rscale);
        }
        if (base.signum() == 0) {
            return BigDecimal.ZERO.setScale(rscale);
        }
        // the result's decimal weight: beyond numeric's range it overflows, below the scale it is 0
        double weight = exponent * log10(base.abs());
        if (weight > MAX_INTEGER_DIGITS) {
            throw overflow();
        }
        if (weight + 1 < -rscale) {
            return BigDecimal.ZERO.setScale(rscale);
        }
        BigDecimal magnitude = base.pow(Math.abs(exponent));
        if (exponent > 0) {
            return checked(magnitude.setScale(rscale, RoundingMode.HALF_UP));
        }
        return magnitude.signum() == 0
                ? BigDecimal.ZERO.setScale(rscale)
                : BigDecimal.ONE.divide(magnitude, rscale, RoundingMode.HALF_UP);
    }

    /** The decimal logarithm of {@code v > 0}, from its leading digits (no double overflow). */
    private static double log10(BigDecimal v) {
        BigDecimal lead = v.round(new MathContext(17));
        return Math.log10(lead.unscaledValue().doubleValue()) - lead.scale();
    }

    /**
     * PostgreSQL's {@code estimate_ln_dweight}: the decimal weight of {@code ln(v)}, from {@code v
     * - 1} near 1 and elsewhere from the leading two base-10000 digits of {@code v} as PostgreSQL
     * stores it (5 to 8 decimal digits, by where the groups fall): the estimate decides the result's
     * scale, so it must be PostgreSQL's own, not a better one.
     */
    private static int lnWeight(BigDecimal v) {
        if (v.compareTo(new BigDecimal("0.9")) >= 0 && v.compareTo(new BigDecimal("1.1")) <= 0) {
            BigDecimal x = v.subtract(BigDecimal.ONE);
            return x.signum() == 0 ? 0 : x.precision() - x.scale() - 1;
        }
        int weight = Math.floorDiv(v.precision() - v.scale() - 1, 4);
        BigDecimal groups = v.movePointLeft(4 * weight); // in [1, 10000)
        int first = groups.intValue();
        BigDecimal rest = groups.subtract(BigDecimal.valueOf(first));
        double digits = first;
        int dweight = weight * 4;
        if (rest.signum() != 0) {
            digits = digits * 10000 + rest.movePointRight(4).intValue();
            dweight -= 4;
        }
        double ln = Math.log(digits) + dweight * LN_10;
        return (int) Math.log10(Math.abs(ln));
    }

    private static BigDecimal checked(BigDecimal result) {
        if (result.precision() - result.scale() > MAX_INTEGER_DIGITS) {
            throw overflow();
        }
        return result;
    }

    private static TributaryException overflow() {
        return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    }
}
