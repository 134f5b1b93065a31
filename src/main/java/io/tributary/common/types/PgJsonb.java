package io.tributary.common.types;

/**
 * A value of PostgreSQL's {@code jsonb}: its normalised text as PostgreSQL prints it ({@link
 * PgJsonText#normalize}), which is also how it is stored, keyed and sent. Two jsonb values with the
 * same text are equal; {@link PgJsonText#tree} reads it back for operators and functions.
 */
public record PgJsonb(String text) {
    @Override
    public String toString() {
        return text;
    }
}
