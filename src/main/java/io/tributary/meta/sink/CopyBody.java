package io.tributary.meta.sink;

import io.tributary.common.types.DataType;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.copy.CopyIn;

/**
 * The body of one {@code COPY ... FROM STDIN} a sink sends to its target, built from rows as the
 * relation stores them (their {@code RowCodec} encoding), in PostgreSQL's binary format ({@link
 * CopyBinary}) or, for relations with a type that has no direct binary form, its text format
 * ({@link CopyText}). With an operation column (the staging table), each row ends with the change's
 * operation ({@code U}, {@code D} or {@code I}). One delivery thread; reused across COPYs.
 *
 * <p>Use: {@link #start()}, rows, then {@link #finish()}; the buffered bytes go to the target by
 * {@link #bytes()} or, in pieces while rows are still added, by {@link #drainTo(CopyIn)}.
 */
interface CopyBody {
    /**
     * The body for a relation: binary when every written column has a binary form ({@link
     * CopyBinary#supports}), text otherwise.
     *
     * @param types the relation's column types
     * @param columns the relation's column indexes to write, ascending
     * @param keyColumns the relation's column indexes a deletion writes
     * @param withOp whether each row ends with the change's operation (for the staging table)
     */
    static CopyBody of(List<DataType> types, int[] columns, int[] keyColumns, boolean withOp) {
        return CopyBinary.supports(types, columns)
                ? new CopyBinary(types, columns, keyColumns, withOp)
                : new CopyText(types, columns, keyColumns, withOp);
    }

    /** The COPY statement's option clause for this format: {@code " (FORMAT binary)"} or empty. */
    String options();

    /** Forgets the buffered bytes and the row count, then buffers the format's header, if any. */
    void start();

    /** Appends the stored row {@code encoded} (full width) with operation {@code op}. */
    void add(byte[] encoded, char op);

    /**
     * Appends a deletion ({@code D}) of the row with the stored row {@code encoded}'s key: the key
     * columns hold its values, every other column NULL.
     */
    void addDelete(byte[] encoded);

    /** Buffers the format's trailer, if any: the body is complete. */
    void finish();

    /** Rows appended since {@link #start()}. */
    int rows();

    /** The buffered bytes; a copy, since the buffer is reused. */
    byte[] bytes();

    /** Writes the buffered bytes to {@code copy} and forgets them (the row count stays). */
    void drainTo(CopyIn copy) throws SQLException;
}
