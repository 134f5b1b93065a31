package io.tributary.common;

/**
 * An error that reaches a client as a PostgreSQL ErrorResponse. Every failure a user can cause is
 * thrown as this type with the SQLSTATE PostgreSQL would report; anything else reaching the
 * protocol layer is a bug and is reported as {@link SqlState#INTERNAL_ERROR}.
 */
public class TributaryException extends RuntimeException {
    private final String sqlState;
    private final int position;
    private final String detail;
    private final String hint;
    private final ErrorObject object;

    /**
     * The database object an error is about, as PostgreSQL names it in an ErrorResponse's schema,
     * table, column and constraint fields (which drivers expose, e.g. pgjdbc's {@code
     * ServerErrorMessage.getConstraint()}, and ORMs map constraint violations by); a null part is not sent.
     */
    public record ErrorObject(String schema, String table, String column, String constraint) {}

    public TributaryException(String sqlState, String message) {
        this(sqlState, message, 0, null, null, null);
    }

    public TributaryException(String sqlState, String message, Throwable cause) {
        this(sqlState, message, 0, null, null, cause);
    }

    /**
     * @param position 1-based character offset into the statement text, or 0 when it does not apply
     */
    public TributaryException(
            String sqlState, String message, int position, String detail, String hint, Throwable cause) {
        this(sqlState, message, position, detail, hint, cause, null);
    }

    /** An error about {@code about}, a database object (a constraint violation), with {@code detail}. */
    public TributaryException(String sqlState, String message, String detail, ErrorObject about) {
        this(sqlState, message, 0, detail, null, null, about);
    }

    private TributaryException(
            String sqlState,
            String message,
            int position,
            String detail,
            String hint,
            Throwable cause,
            ErrorObject object) {
        super(message, cause);
        this.sqlState = sqlState;
        this.position = position;
        this.detail = detail;
        this.hint = hint;
        this.object = object;
    }

    /**
     * This error with its position moved by {@code offset}: the error counted in a query that starts
     * {@code offset} characters (0-based) into the statement the client sent (a view's query inside
     * its CREATE, a statement inside EXPLAIN). Unchanged without a position or when {@code offset}
     * is negative (the query was not found in the statement).
     */
    public TributaryException shifted(int offset) {
        if (position <= 0 || offset < 0) {
            return this;
        }
        return new TributaryException(sqlState, getMessage(), position + offset, detail, hint, this, object);
    }

    /** 57014, for a statement the client cancelled. */
    public static TributaryException queryCanceled() {
        return new TributaryException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
    }

    /** 0A000 naming the construct that is not supported. */
    public static TributaryException notSupported(String construct) {
        return new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, construct + " is not supported");
    }

    public String sqlState() {
        return sqlState;
    }

    /** 1-based character offset into the statement, 0 when unknown. */
    public int position() {
        return position;
    }

    public String detail() {
        return detail;
    }

    public String hint() {
        return hint;
    }

    /** The object this error is about, or null. */
    public ErrorObject object() {
        return object;
    }
}
