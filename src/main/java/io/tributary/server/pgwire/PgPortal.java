package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.server.session.ColumnDesc;
import io.tributary.server.session.RowCursor;
import java.util.Arrays;
import java.util.List;

/**
 * A portal created by Bind: a statement with its parameter values, executed on the first Execute
 * and then drained by one or more Executes. Used by the session thread only.
 */
final class PgPortal {
    private final PgStatement statement;
    private final List<Object> params;
    private final short[] resultFormats;
    private List<ColumnDesc> columns;
    private RowCursor cursor;
    private long rowsSent;
    private String completedTag;
    private String rowsTag;

    /** @param resultFormats the format codes as sent in Bind (0, 1 or one per column) */
    PgPortal(PgStatement statement, List<Object> params, short[] resultFormats) {
        this.statement = statement;
        this.params = params;
        this.resultFormats = resultFormats;
        this.columns = statement.resultColumns();
    }

    PgStatement statement() {
        return statement;
    }

    List<Object> params() {
        return params;
    }

    /** The result columns, or null when the portal returns no rows. */
    List<ColumnDesc> columns() {
        return columns;
    }

    /** One format code per result column, as Bind requested. */
    short[] formats() {
        return expandFormats(resultFormats, columns == null ? 0 : columns.size());
    }

    boolean started() {
        return cursor != null || completedTag != null;
    }

    RowCursor cursor() {
        return cursor;
    }

    /** @param tag the DML statement's CommandComplete tag, or null for a query's "SELECT n" */
    void startRows(List<ColumnDesc> resultColumns, RowCursor rows, String tag) {
        this.columns = resultColumns;
        this.cursor = rows;
        this.rowsTag = tag;
    }

    /** The DML statement's CommandComplete tag of a RETURNING portal, or null for a query. */
    String rowsTag() {
        return rowsTag;
    }

    /** The CommandComplete tag once {@code sent} rows in all went out. */
    String completionTag(long sent) {
        return rowsTag != null ? rowsTag : "SELECT " + sent;
    }

    long addRowsSent(long n) {
        rowsSent += n;
        return rowsSent;
    }

    /** Null until the portal has run to completion; then the CommandComplete tag to repeat. */
    String completedTag() {
        return completedTag;
    }

    void complete(String tag) {
        completedTag = tag;
        close();
    }

    /** Releases the cursor; idempotent. */
    void close() {
        if (cursor != null) {
            RowCursor c = cursor;
            cursor = null;
            c.close();
        }
    }

    /**
     * Expands Bind's format code list: none means all text, one applies to every column, otherwise
     * there must be one per column.
     */
    static short[] expandFormats(short[] codes, int count) {
        short[] out = new short[count];
        if (codes.length == 1) {
            Arrays.fill(out, codes[0]);
        } else if (codes.length == count) {
            System.arraycopy(codes, 0, out, 0, count);
        } else if (codes.length != 0) {
            throw new TributaryException(
                    SqlState.PROTOCOL_VIOLATION,
                    "bind message has " + codes.length + " result formats but query has " + count + " columns");
        }
        for (short f : out) {
            if (f != PgValueCodec.TEXT && f != PgValueCodec.BINARY) {
                throw new TributaryException(SqlState.PROTOCOL_VIOLATION, "unsupported format code: " + f);
            }
        }
        return out;
    }
}
