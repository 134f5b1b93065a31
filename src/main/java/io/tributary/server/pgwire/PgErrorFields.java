package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.server.session.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fields of an ErrorResponse or NoticeResponse.
 *
 * @param position 1-based offset into the statement text, 0 when it does not apply (not sent)
 * @param detail null when absent
 * @param hint null when absent
 * @param object the schema, table, column and constraint the error is about; null when none
 */
record PgErrorFields(
        String severity,
        String sqlState,
        String message,
        int position,
        String detail,
        String hint,
        TributaryException.ErrorObject object) {
    PgErrorFields(String severity, String sqlState, String message, int position, String detail, String hint) {
        this(severity, sqlState, message, position, detail, hint, null);
    }

    private static final Logger LOG = LoggerFactory.getLogger(PgErrorFields.class);
    /** PostgreSQL's message for a statement that ends too soon. */
    private static final String END_OF_INPUT = "syntax error at end of input";

    /**
     * Maps a failure to what the client sees. A {@link TributaryException} is a user-facing error
     * and maps field by field. Anything else, and any XX000, is a bug whose text may hold stack
     * frames, generated code or query plans: it is logged here, in full with its stack trace,
     * under a fresh incident id, and the client gets XX000 with one line naming only that id.
     */
    /**
     * This error of {@code statement}, one statement of the simple Query {@code text}, placed as
     * PostgreSQL places it: positions count from the start of the whole text, and a syntax error
     * at the statement's end is at its semicolon (PostgreSQL's parser reads that token), or one
     * past the text when none ends it.
     */
    PgErrorFields placedIn(String text, Session.QueryStatement statement) {
        if (position == 0) {
            return this;
        }
        int placed = position + statement.offset();
        String said = message;
        if (SqlState.SYNTAX_ERROR.equals(sqlState) && message.equals(END_OF_INPUT)) {
            placed = statement.semicolon() < 0 ? text.length() + 1 : statement.semicolon() + 1;
            said = statement.semicolon() < 0 ? message : "syntax error at or near \";\"";
        }
        return new PgErrorFields(severity, sqlState, said, placed, detail, hint, object);
    }

    static PgErrorFields of(Throwable t, String severity) {
        if (t instanceof TributaryException e && !SqlState.INTERNAL_ERROR.equals(e.sqlState())) {
            return new PgErrorFields(
                    severity,
                    e.sqlState(),
                    String.valueOf(e.getMessage()),
                    e.position(),
                    e.detail(),
                    e.hint(),
                    e.object());
        }
        if (t instanceof OutOfMemoryError) {
            // the heap ran out in this session's work: the statement fails, the server goes on
            LOG.warn("a statement ran out of memory: {}", t.toString());
            return new PgErrorFields(
                    severity, SqlState.OUT_OF_MEMORY, "out of memory", 0, "The Java heap is exhausted.", null);
        }
        String incident = Long.toHexString(INCIDENTS.nextLong() & 0xffffffffffL);
        LOG.error("internal error, incident {}, while serving a PostgreSQL client", incident, t);
        return new PgErrorFields(
                severity,
                SqlState.INTERNAL_ERROR,
                "internal error (incident " + incident + ")",
                0,
                null,
                "The server log has the details under this incident id.");
    }

    private static final java.security.SecureRandom INCIDENTS = new java.security.SecureRandom();

    static PgErrorFields error(String sqlState, String message) {
        return new PgErrorFields("ERROR", sqlState, message, 0, null, null);
    }

    static PgErrorFields fatal(String sqlState, String message) {
        return new PgErrorFields("FATAL", sqlState, message, 0, null, null);
    }
}
