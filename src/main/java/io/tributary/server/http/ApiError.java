package io.tributary.server.http;

/**
 * An API request that cannot be served, answered with {@code status} and a JSON body
 * {@code {"sqlstate": ..., "message": ...}} (the SQLSTATE when the engine refused it).
 */
final class ApiError extends RuntimeException {
    private final int status;
    private final String sqlState;

    ApiError(int status, String sqlState, String message) {
        super(message, null, false, false);
        this.status = status;
        this.sqlState = sqlState;
    }

    int status() {
        return status;
    }

    String sqlState() {
        return sqlState;
    }
}
