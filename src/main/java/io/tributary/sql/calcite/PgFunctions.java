package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;

/**
 * PostgreSQL functions Calcite's libraries lack, registered in the schema. Calcite calls the
 * public static methods by reflection.
 */
public final class PgFunctions {
    private PgFunctions() {}

    /**
     * {@code octet_length(text)}: the length of the UTF-8 encoding, PostgreSQL's server encoding
     * (Calcite counts the bytes of its own charset, UTF-16LE). {@link PgValueSemantics} turns
     * {@code octet_length} into this call.
     */
    public static Integer pg_octet_length(String s) {
        if (s == null) {
            return null;
        }
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * {@code length(text)}: the number of characters (code points, as PostgreSQL counts them in
     * UTF-8). {@code PgValueSemantics} rewrites {@code length} into this call, so that the bytea
     * overload below is chosen for binary values instead of a cast of them to text.
     */
    public static Integer pg_length(String s) {
        return s == null ? null : s.codePointCount(0, s.length());
    }

    /** {@code length(bytea)}: the number of bytes. */
    public static Integer pg_length(org.apache.calcite.avatica.util.ByteString b) {
        return b == null ? null : b.length();
    }

    /** {@code octet_length(bytea)}: the number of bytes. */
    public static Integer pg_octet_length(org.apache.calcite.avatica.util.ByteString b) {
        return b == null ? null : b.length();
    }

    /** {@code version()}: what PostgreSQL clients parse, then what this server is. */
    public static String version() {
        return "PostgreSQL 15.0 (Tributary 0.1.0)";
    }

    /** {@code current_database()} when nothing replaced it: {@code dev}. {@link PgCatalogCalls} replaces each call by the session's own database. */
    public static String current_database() {
        return "dev";
    }

    /** {@code x::numeric} of an integer: scale 0. (These take boxed values so NULL passes through.) */
    public static BigDecimal pg_numeric(Long x) {
        return x == null ? null : BigDecimal.valueOf(x);
    }

    public static BigDecimal pg_numeric(Integer x) {
        return x == null ? null : BigDecimal.valueOf(x);
    }

    public static BigDecimal pg_numeric(Short x) {
        return x == null ? null : BigDecimal.valueOf(x);
    }

    /**
     * {@code x::numeric} of a real: its 6 significant digits ({@link PgFloatFunctions#float4Numeric});
     * its own name, as Calcite cannot rank a REAL among {@code pg_numeric}'s overloads ({@link
     * RealNumericCasts}).
     */
    public static BigDecimal pg_numeric_real(Float x) {
        return x == null ? null : PgFloatFunctions.float4Numeric(x);
    }

    /** {@code x::numeric} of a NUMERIC: unchanged, keeping its scale. */
    public static BigDecimal pg_numeric(BigDecimal x) {
        return x;
    }

    /**
     * {@code x::numeric} of a float as builds before session 41 converted it: its shortest decimal
     * form (PostgreSQL reads 15 significant digits, {@link PgFloatFunctions#float8Numeric}, which
     * today's plans call instead, {@link PgFloatCalls}). Kept, with this name and answer, for the
     * views those builds created: their state holds its answers.
     */
    public static BigDecimal pg_numeric(Double x) {
        if (x == null) {
            return null;
        }
        BigDecimal d = new BigDecimal(Double.toString(x)).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0) : d;
    }

    /** {@code 'text'::numeric}: the digits as written. */
    public static BigDecimal pg_numeric(String x) {
        return x == null ? null : (BigDecimal) PgTextFormat.parse(DataType.NUMERIC, x);
    }

    /**
     * Before a cast to {@code numeric(p,s)} ({@link NumericCast}): rounded half away from zero to
     * {@code s} decimals; 22003 when it does not fit {@code p} digits.
     */
    public static BigDecimal pg_numeric_typmod(BigDecimal x, Integer precision, Integer scale) {
        return x == null ? null : PgScalarFunctions.numericTypmod(x, precision, scale);
    }

    /**
     * Before a cast to an integer type: integers pass through. (Generated code calls these with
     * the argument's own boxed class, so each integer width has its overload. A REAL argument
     * arrives as double precision: {@link RealRounding}.)
     */
    public static Long pg_round(Long x) {
        return x;
    }

    public static Integer pg_round(Integer x) {
        return x;
    }

    public static Short pg_round(Short x) {
        return x;
    }

    /** Before a cast to an integer type: NUMERIC rounds half away from zero, as PostgreSQL does. */
    public static BigDecimal pg_round(BigDecimal x) {
        return x == null ? null : x.setScale(0, java.math.RoundingMode.HALF_UP);
    }

    /** Before a cast to an integer type: floats round half to even, as PostgreSQL's rint does. */
    public static Double pg_round(Double x) {
        return x == null ? null : Math.rint(x);
    }

    /** Before a cast to an integer type: text is read as PostgreSQL reads an integer literal. */
    public static String pg_round(String x) {
        return x;
    }
}
