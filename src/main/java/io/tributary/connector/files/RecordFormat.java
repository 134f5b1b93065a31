package io.tributary.connector.files;

/**
 * How a file's bytes split into records and a record becomes a row. Implementations are immutable
 * and thread-safe; the per-file state (a CSV header) is the layout the caller keeps.
 */
interface RecordFormat {
    /**
     * The end (exclusive, just after its terminating newline) of the record that starts at
     * {@code from}, or -1 when {@code buf[from, to)} holds no complete record yet.
     */
    int recordEnd(byte[] buf, int from, int to);

    /** Whether the first record of every file names the fields instead of holding a row. */
    boolean hasHeader();

    /**
     * Reads a header record (only when {@link #hasHeader()}).
     *
     * @return for each field, the index of its column, or -1 when the table has no such column
     */
    int[] header(String record) throws MalformedRecordException;

    /**
     * The row of the table for {@code record} (its text without the line terminator).
     *
     * @param layout what {@link #header} returned for this file, or null without a header
     */
    Object[] row(String record, int[] layout) throws MalformedRecordException;
}
