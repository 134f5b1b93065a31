package io.tributary.connector;

/**
 * One change read from a source. Applied by primary key: INSERT and UPDATE write {@code row}
 * (replacing any row with its key, so a change read twice does no harm), DELETE removes the row
 * with {@code row}'s key (the other values may be null). For tables without a primary key only
 * INSERT is allowed.
 *
 * @param row the table's columns in order, canonical values of their types
 */
public record SourceChange(Kind kind, Object[] row) {
    public enum Kind {
        INSERT,
        UPDATE,
        DELETE
    }

    public static SourceChange insert(Object[] row) {
        return new SourceChange(Kind.INSERT, row);
    }
}
