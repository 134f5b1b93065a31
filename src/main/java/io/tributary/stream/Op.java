package io.tributary.stream;

/**
 * The sign of a row in a change stream. Streams are multisets of changes: an update is a
 * {@link #DELETE} of the old row followed by an {@link #INSERT} of the new one, and every
 * operator's output, applied to its previous output, equals its query over its current input.
 */
public enum Op {
    INSERT,
    DELETE;

    /** +1 for INSERT, -1 for DELETE. */
    public int sign() {
        return this == INSERT ? 1 : -1;
    }

    public Op negate() {
        return this == INSERT ? DELETE : INSERT;
    }
}
