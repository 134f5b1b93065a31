package io.tributary.connector.files;

/** A record that cannot become a row; the reader skips it or fails, per {@code on_error}. */
final class MalformedRecordException extends Exception {
    private final String sqlState;

    MalformedRecordException(String sqlState, String reason) {
        super(reason, null, false, false);
        this.sqlState = sqlState;
    }

    String sqlState() {
        return sqlState;
    }
}
