package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;

/**
 * PostgreSQL's integer bit operators ({@code & | # ~ << >>}) and its prefix {@code @} (absolute
 * value), {@code |/} (square root) and {@code ||/} (cube root), which {@link PgOperatorText}
 * writes as calls of these functions (Calcite's grammar lacks the operators). Registered as schema
 * functions by {@link CatalogSchema} under their method names, called by reflection from the code
 * Calcite generates, in queries and materialized views alike. Each integer width has its overload
 * so the result keeps PostgreSQL's type ({@code int2 & int2} is {@code int2}); shift counts are
 * {@code int4} and wrap as PostgreSQL's C shifts do on the hardware it runs on. NULL in gives NULL
 * out; pure functions, safe on any thread.
 */
public final class PgOperatorFunctions {
    private PgOperatorFunctions() {}

    /** {@code s ^@ prefix}: {@code starts_with}, under the operator's {@code ?column?} label. */
    public static Boolean pg_op_starts_with(String s, String prefix) {
        return PgTextFunctions.starts_with(s, prefix);
    }

    /** {@code a & b}. */
    public static Short pg_op_bitand(Short a, Short b) {
        return a == null || b == null ? null : (short) (a & b);
    }

    public static Integer pg_op_bitand(Integer a, Integer b) {
        return a == null || b == null ? null : a & b;
    }

    public static Long pg_op_bitand(Long a, Long b) {
        return a == null || b == null ? null : a & b;
    }

    /** {@code a | b}. */
    public static Short pg_op_bitor(Short a, Short b) {
        return a == null || b == null ? null : (short) (a | b);
    }

    public static Integer pg_op_bitor(Integer a, Integer b) {
        return a == null || b == null ? null : a | b;
    }

    public static Long pg_op_bitor(Long a, Long b) {
        return a == null || b == null ? null : a | b;
    }

    /** {@code a # b}: exclusive or. */
    public static Short pg_op_bitxor(Short a, Short b) {
        return a == null || b == null ? null : (short) (a ^ b);
    }

    public static Integer pg_op_bitxor(Integer a, Integer b) {
        return a == null || b == null ? null : a ^ b;
    }

    public static Long pg_op_bitxor(Long a, Long b) {
        return a == null || b == null ? null : a ^ b;
    }

    /** {@code ~a}. */
    public static Short pg_op_bitnot(Short a) {
        return a == null ? null : (short) ~a;
    }

    public static Integer pg_op_bitnot(Integer a) {
        return a == null ? null : ~a;
    }

    public static Long pg_op_bitnot(Long a) {
        return a == null ? null : ~a;
    }

    /** {@code a << n}. */
    public static Short pg_op_shl(Short a, Integer n) {
        return a == null || n == null ? null : (short) (a << n);
    }

    public static Integer pg_op_shl(Integer a, Integer n) {
        return a == null || n == null ? null : a << n;
    }

    public static Long pg_op_shl(Long a, Integer n) {
        return a == null || n == null ? null : a << n;
    }

    /** {@code a >> n}: arithmetic (sign-extending) shift. */
    public static Short pg_op_shr(Short a, Integer n) {
        return a == null || n == null ? null : (short) (a >> n);
    }

    public static Integer pg_op_shr(Integer a, Integer n) {
        return a == null || n == null ? null : a >> n;
    }

    public static Long pg_op_shr(Long a, Integer n) {
        return a == null || n == null ? null : a >> n;
    }

    /** {@code @ a}: 22003 for the smallest value of the type, which has no positive counterpart. */
    public static Short pg_op_abs(Short a) {
        if (a == null) {
            return null;
        }
        if (a == Short.MIN_VALUE) {
            throw outOfRange("smallint");
        }
        return (short) Math.abs(a);
    }

    public static Integer pg_op_abs(Integer a) {
        if (a == null) {
            return null;
        }
        if (a == Integer.MIN_VALUE) {
            throw outOfRange("integer");
        }
        return Math.abs(a);
    }

    public static Long pg_op_abs(Long a) {
        if (a == null) {
            return null;
        }
        if (a == Long.MIN_VALUE) {
            throw outOfRange("bigint");
        }
        return Math.abs(a);
    }

    public static BigDecimal pg_op_abs(BigDecimal a) {
        return a == null ? null : a.abs();
    }

    public static Double pg_op_abs(Double a) {
        return a == null ? null : Math.abs(a);
    }

    /** {@code |/ a}: square root; 2201F for a negative operand. */
    public static Double pg_op_sqrt(Double a) {
        return a == null ? null : PgScalarFunctions.float8Sqrt(a);
    }

    /** {@code ||/ a}: cube root. */
    public static Double pg_op_cbrt(Double a) {
        return a == null ? null : Math.cbrt(a);
    }

    private static TributaryException outOfRange(String type) {
        return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type + " out of range");
    }
}
