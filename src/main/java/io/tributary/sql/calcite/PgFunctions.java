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

    /** {@code now()}: the current time; non-deterministic so plans never fold it into a constant. */
    @NonDeterministic
    public static Timestamp now() {
        return new Timestamp(System.currentTimeMillis());
    }
}
