package io.tributary.connector.datagen;

/**
 * Makes one column's value of the row with a given sequence number. A pure function of its
 * options and the sequence number, so a row generated again after a restart is the same row.
 * Thread-safe.
 */
interface FieldGenerator {
    /** The value of row {@code sequence} (0-based over the whole table), canonical for the column's type. */
    Object value(long sequence);

    /** How many rows this field can produce ({@code Long.MAX_VALUE} when it has no end). */
    long rowLimit();
}
