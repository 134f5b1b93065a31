package io.tributary.stream.operators;

/** Shorthand for test rows. */
final class Rows {
    private Rows() {}

    static Object[] row(Object... values) {
        return values;
    }
}
