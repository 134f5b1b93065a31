package io.tributary.sql;

/** Rows of a running query, as canonical values of its columns' types. Session thread only. */
public interface QueryCursor extends AutoCloseable {
    /** The next row, or null when there are no more. */
    Object[] next();

    @Override
    void close();
}
