package io.tributary.sql.calcite;

/**
 * A float as a hash key in PostgreSQL's equality: {@code -0} is {@code 0} (PostgreSQL's
 * {@code float8eq} holds them equal and hashes them alike), where {@link Double#equals} and
 * {@link Double#hashCode}, which Calcite's hash aggregates and joins use, tell them apart. NaN is
 * already one key ({@link Double#equals} holds every NaN equal, as PostgreSQL does). {@link
 * FloatKeyPlans} groups and joins by these in a float's place; stateless.
 */
public final class PgFloatKeys {
    private PgFloatKeys() {}

    /** {@code x} with {@code -0} as {@code 0}; null for NULL. */
    public static Double pg_float8_key(Double x) {
        return x == null ? null : x + 0.0d;
    }

    /** {@code x} with {@code -0} as {@code 0}; null for NULL. */
    public static Float pg_float4_key(Float x) {
        return x == null ? null : x + 0.0f;
    }
}
