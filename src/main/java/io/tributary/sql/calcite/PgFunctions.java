package io.tributary.sql.calcite;

import org.apache.calcite.linq4j.function.NonDeterministic;

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

    /** {@code now()}: the current time; non-deterministic so plans never fold it into a constant. */
    @NonDeterministic
    public static Timestamp now() {
        return new Timestamp(System.currentTimeMillis());
    }
}
