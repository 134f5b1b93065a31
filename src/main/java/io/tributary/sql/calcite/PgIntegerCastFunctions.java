package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's casts to smallint, integer and bigint of a value that may not fit: 22003 {@code
 * smallint out of range}, {@code integer out of range} or {@code bigint out of range}, as
 * PostgreSQL's {@code int84}, {@code numeric_int4}, {@code dtoi8} and their kin say (Calcite's
 * checks said {@code value 40000 out of range} or {@code Overflow}, and a float NaN became 0).
 * Called by the code Calcite generates for the calls {@link IntegerCasts} puts in a plan (by
 * reflection; the methods must stay public and static), with an operand {@code pg_round} has
 * already rounded as PostgreSQL rounds. Strict: a NULL operand gives NULL without a call. Pure
 * functions of their operands, safe on any thread.
 */
@Strict
public final class PgIntegerCastFunctions {
    /** 2^63, the first double past bigint's range (every double below it and from -2^63 fits). */
    private static final double TWO_TO_63 = 9223372036854775808.0;

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private PgIntegerCastFunctions() {}

    /** {@code bigint::smallint} (and {@code integer::smallint}, widened to bigint first). */
    public static short int8Int2(long x) {
        if (x < Short.MIN_VALUE || x > Short.MAX_VALUE) {
            throw outOfRange("smallint");
        }
        return (short) x;
    }

    /** {@code bigint::integer}. */
    public static int int8Int4(long x) {
        if (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE) {
            throw outOfRange("integer");
        }
        return (int) x;
    }

    /** {@code numeric::smallint} of a value without a fraction. */
    public static short numericInt2(BigDecimal x) {
        return int8Int2(numericInt8As(x, "smallint"));
    }

    /** {@code numeric::integer} of a value without a fraction. */
    public static int numericInt4(BigDecimal x) {
        return int8Int4(numericInt8As(x, "integer"));
    }

    /** {@code numeric::bigint} of a value without a fraction. */
    public static long numericInt8(BigDecimal x) {
        return numericInt8As(x, "bigint");
    }

    /** {@code float8::smallint} of an integral value (NaN is out of range, as in PostgreSQL). */
    public static short float8Int2(double x) {
        if (!(x >= Short.MIN_VALUE && x < Short.MAX_VALUE + 1.0)) {
            throw outOfRange("smallint");
        }
        return (short) x;
    }

    /** {@code float8::integer} of an integral value (NaN is out of range). */
    public static int float8Int4(double x) {
        if (!(x >= Integer.MIN_VALUE && x < Integer.MAX_VALUE + 1.0)) {
            throw outOfRange("integer");
        }
        return (int) x;
    }

    /** {@code float8::bigint} of an integral value (NaN is out of range). */
    public static long float8Int8(double x) {
        if (!(x >= -TWO_TO_63 && x < TWO_TO_63)) {
            throw outOfRange("bigint");
        }
        return (long) x;
    }

    /** {@code x} as a long; 22003 naming {@code type} when it is beyond bigint's range. */
    private static long numericInt8As(BigDecimal x, String type) {
        if (x.compareTo(LONG_MIN) < 0 || x.compareTo(LONG_MAX) > 0) {
            throw outOfRange(type);
        }
        return x.longValue();
    }

    private static TributaryException outOfRange(String type) {
        return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type + " out of range");
    }
}
