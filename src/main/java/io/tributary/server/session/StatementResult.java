package io.tributary.server.session;

import java.util.List;

/** What executing a statement produced. */
public sealed interface StatementResult {

    /** Rows to stream to the client; the protocol layer closes the cursor when done or abandoned. */
    record Rows(List<ColumnDesc> columns, RowCursor cursor) implements StatementResult {}

    /** A statement that returns no rows; {@code tag} is the CommandComplete tag, e.g. "INSERT 0 3". */
    record Command(String tag) implements StatementResult {}

    /** The statement is {@code COPY ... FROM STDIN}: the client now sends CopyData. */
    record CopyIn(CopyInSink sink) implements StatementResult {}

    /**
     * The statement is {@code COPY ... TO STDOUT}: each row of {@code cursor} goes to the client as
     * one CopyData line made by {@code encoder}; the protocol layer closes the cursor.
     */
    record CopyOut(List<ColumnDesc> columns, RowCursor cursor, CopyOutEncoder encoder) implements StatementResult {}
}
