package io.tributary.server.session;

import java.util.List;

/** What executing a statement produced. */
public sealed interface StatementResult {

    /**
     * Rows to stream to the client; the protocol layer closes the cursor when done or abandoned.
     * {@code tag} is the CommandComplete tag of a DML statement with RETURNING (e.g. "INSERT 0 3");
     * null for a query, whose tag counts the rows sent ("SELECT n").
     */
    record Rows(List<ColumnDesc> columns, RowCursor cursor, String tag) implements StatementResult {
        public Rows(List<ColumnDesc> columns, RowCursor cursor) {
            this(columns, cursor, null);
        }

        /** The CommandComplete tag once {@code sent} rows went out. */
        public String completionTag(long sent) {
            return tag != null ? tag : "SELECT " + sent;
        }
    }

    /** A statement that returns no rows; {@code tag} is the CommandComplete tag, e.g. "INSERT 0 3". */
    record Command(String tag) implements StatementResult {}

    /** The statement is {@code COPY ... FROM STDIN}: the client now sends CopyData. */
    record CopyIn(CopyInSink sink) implements StatementResult {}

    /**
     * The statement is {@code COPY ... TO STDOUT}: each row of {@code cursor} goes to the client as
     * one CopyData line made by {@code encoder}; the protocol layer closes the cursor.
     */
    record CopyOut(List<ColumnDesc> columns, RowCursor cursor, CopyOutEncoder encoder) implements StatementResult {}

    /**
     * A {@code COPY ... TO STDOUT} whose whole output is already encoded in PostgreSQL's binary COPY
     * format: {@code body} goes to the client as CopyData after a binary CopyOutResponse of {@code
     * fields} columns; {@code rows} is the CommandComplete count.
     */
    record CopyOutBinary(int fields, byte[] body, long rows) implements StatementResult {}
}
