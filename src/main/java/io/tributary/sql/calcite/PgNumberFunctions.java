package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * PostgreSQL's number functions that Calcite lacks, registered as schema functions by {@link
 * CatalogSchema} under their method names (public static, called by reflection from generated code;
 * boxed so NULL passes through as NULL). Pure functions, safe on any thread.
 */
public final class PgNumberFunctions {
    private PgNumberFunctions() {}

    /** {@code to_number(text, template)}: the number the template reads from the text ({@link io.tributary.common.types.PgNumberFormat#parse}). */
    public static BigDecimal to_number(String text, String template) {
        return text == null || template == null ? null : io.tributary.common.types.PgNumberFormat.parse(text, template);
    }

    /** {@code div(numeric, numeric)}: the quotient truncated toward zero, scale 0; 22012 for a zero divisor. */
    public static BigDecimal div(BigDecimal a, BigDecimal b) {
        if (a == null || b == null) {
            return null;
        }
        if (b.signum() == 0) {
            throw new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        return a.divide(b, 0, RoundingMode.DOWN);
    }

    /**
     * The largest {@code factorial} argument whose result has at most the 131072 digits before
     * the point that PostgreSQL's numeric holds.
     */
    private static final long LARGEST_FACTORIAL = 32177;

    /**
     * {@code factorial(int8)}: n! as numeric, 1 for 0; 22003 for a negative argument, as
     * PostgreSQL's {@code numeric_fac}, and for one whose result overflows numeric.
     */
    public static BigDecimal factorial(Long n) {
        if (n == null) {
            return null;
        }
        if (n < 0) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "factorial of a negative number is undefined");
        }
        if (n > LARGEST_FACTORIAL) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        }
        BigInteger product = BigInteger.ONE;
        for (long i = 2; i <= n; i++) {
            product = product.multiply(BigInteger.valueOf(i));
        }
        return new BigDecimal(product);
    }

    /** {@code gcd(int4, int4)}: never negative; 22003 when it is 2^31. */
    public static Integer gcd(Integer a, Integer b) {
        return a == null || b == null ? null : (int) checked(gcd((long) a, (long) b), Integer.MAX_VALUE, "integer");
    }

    /** {@code gcd(int8, int8)}: never negative; 22003 when it is 2^63. */
    public static Long gcd(Long a, Long b) {
        if (a == null || b == null) {
            return null;
        }
        BigInteger g = BigInteger.valueOf(a).gcd(BigInteger.valueOf(b));
        if (g.bitLength() > 63) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
        return g.longValue();
    }

    /** {@code lcm(int4, int4)}: never negative, 0 when either is 0; 22003 past int4. */
    public static Integer lcm(Integer a, Integer b) {
        if (a == null || b == null) {
            return null;
        }
        Long l = lcm((long) a, (long) b);
        return (int) checked(l, Integer.MAX_VALUE, "integer");
    }

    /** {@code lcm(int8, int8)}: never negative, 0 when either is 0; 22003 past int8. */
    public static Long lcm(Long a, Long b) {
        if (a == null || b == null) {
            return null;
        }
        if (a == 0 || b == 0) {
            return 0L;
        }
        BigInteger x = BigInteger.valueOf(a);
        BigInteger y = BigInteger.valueOf(b);
        BigInteger l = x.divide(x.gcd(y)).multiply(y).abs();
        if (l.bitLength() > 63) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
        return l.longValue();
    }

    /** {@code scale(numeric)}: the number of decimal digits after the point. */
    public static Integer scale(BigDecimal x) {
        return x == null ? null : Math.max(x.scale(), 0);
    }

    /** {@code min_scale(numeric)}: the fewest decimal digits after the point that hold the value exactly. */
    public static Integer min_scale(BigDecimal x) {
        return x == null ? null : Math.max(x.stripTrailingZeros().scale(), 0);
    }

    /** {@code trim_scale(numeric)}: the value without trailing fractional zeros. */
    public static BigDecimal trim_scale(BigDecimal x) {
        if (x == null) {
            return null;
        }
        BigDecimal t = x.stripTrailingZeros();
        return t.scale() < 0 ? t.setScale(0) : t;
    }

    /**
     * {@code width_bucket(numeric, numeric, numeric, int)}: the bucket of {@code operand} among
     * {@code count} equal buckets from {@code low} to {@code high} (either direction), 0 before the
     * first, {@code count + 1} after the last; computed exactly.
     */
    public static Integer width_bucket(BigDecimal operand, BigDecimal low, BigDecimal high, Integer count) {
        if (operand == null || low == null || high == null || count == null) {
            return null;
        }
        checkBuckets(count, low.compareTo(high) == 0);
        boolean up = low.compareTo(high) < 0;
        if (up ? operand.compareTo(low) < 0 : operand.compareTo(low) > 0) {
            return 0;
        }
        if (up ? operand.compareTo(high) >= 0 : operand.compareTo(high) <= 0) {
            return lastBucket(count);
        }
        BigDecimal offset = up ? operand.subtract(low) : low.subtract(operand);
        BigDecimal width = up ? high.subtract(low) : low.subtract(high);
        return offset.multiply(BigDecimal.valueOf(count))
                        .divide(width, 0, RoundingMode.FLOOR)
                        .intValueExact()
                + 1;
    }

    /** {@code width_bucket(float8, float8, float8, int)}: as the numeric form, in double arithmetic. */
    public static Integer width_bucket(Double operand, Double low, Double high, Integer count) {
        return operand == null || low == null || high == null || count == null
                ? null
                : widthBucket(operand, low, high, count);
    }

    /** The float8 {@code width_bucket}, unboxed for generated code ({@link PgScalarFunctions#widthBucketFloat8}). */
    static int widthBucket(double operand, double low, double high, int count) {
        checkBuckets(count, low == high);
        if (Double.isNaN(operand) || Double.isNaN(low) || Double.isNaN(high)) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET, "operand, lower bound, and upper bound cannot be NaN");
        }
        if (Double.isInfinite(low) || Double.isInfinite(high)) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET, "lower and upper bounds must be finite");
        }
        boolean up = low < high;
        if (up ? operand < low : operand > low) {
            return 0;
        }
        if (up ? operand >= high : operand <= high) {
            return lastBucket(count);
        }
        double fraction = up ? (operand - low) / (high - low) : (low - operand) / (low - high);
        return (int) (count * fraction) + 1;
    }

    private static void checkBuckets(int count, boolean equalBounds) {
        if (count <= 0) {
            throw new TributaryException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET, "count must be greater than zero");
        }
        if (equalBounds) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET, "lower bound cannot equal upper bound");
        }
    }

    private static int lastBucket(int count) {
        if (count == Integer.MAX_VALUE) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        return count + 1;
    }

    /** {@code to_hex(int4)}: the two's complement hex digits, lower case. */
    public static String to_hex(Integer x) {
        return x == null ? null : Integer.toHexString(x);
    }

    /** {@code to_hex(int8)}. */
    public static String to_hex(Long x) {
        return x == null ? null : Long.toHexString(x);
    }

    private static long checked(long value, long max, String type) {
        if (value > max) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type + " out of range");
        }
        return value;
    }
}
