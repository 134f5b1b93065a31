package io.tributary.sql.calcite;

import org.apache.calcite.linq4j.function.NonDeterministic;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;

import java.math.BigDecimal;
import java.sql.Timestamp;

/**
 * PostgreSQL functions Calcite's libraries lack, registered in the schema. Calcite calls the
 * public static methods by reflection.
 */
public final class PgFunctions {
    private PgFunctions() {
    }

    /** {@code version()}: what PostgreSQL clients parse, then what this server is. */
    public static String version() {
        return "PostgreSQL 15.0 (Tributary 0.1.0)";
    }

    /** {@code current_database()}: the only database. */
    public static String current_database() {
        return "dev";
    }

    /** {@code x::numeric} of an integer: scale 0. (These take boxed values so NULL passes through.) */
    public static BigDecimal pg_numeric(Long x) {
        return x == null ? null : BigDecimal.valueOf(x);
    }

    /** {@code x::numeric} of a NUMERIC: unchanged, keeping its scale. */
    public static BigDecimal pg_numeric(BigDecimal x) {
        return x;
    }

    /** {@code x::numeric} of a float: its shortest decimal form, as PostgreSQL converts it. */
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

    /** {@code now()}: the current time; non-deterministic so plans never fold it into a constant. */
    @NonDeterministic
    public static Timestamp now() {
        return new Timestamp(System.currentTimeMillis());
    }
}
