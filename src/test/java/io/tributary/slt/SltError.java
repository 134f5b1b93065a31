package io.tributary.slt;

import java.sql.SQLException;

/**
 * An expected failure: optionally a SQLSTATE and optionally a substring of the server's message. Parsed from the text
 * after {@code statement error} / {@code query error}: {@code [SQLSTATE <code>] [<message substring>]}.
 */
record SltError(String sqlState, String messageSubstring) {

    static SltError parse(String spec) {
        String rest = spec.strip();
        String state = null;
        if (rest.regionMatches(true, 0, "SQLSTATE ", 0, 9)) {
            rest = rest.substring(9).strip();
            int end = rest.indexOf(' ');
            state = end < 0 ? rest : rest.substring(0, end);
            rest = end < 0 ? "" : rest.substring(end + 1).strip();
            if (state.length() != 5) {
                throw new IllegalArgumentException("SQLSTATE must have five characters: " + state);
            }
        }
        return new SltError(state, rest.isEmpty() ? null : rest);
    }

    /** Null when the exception is the expected one, otherwise why it is not. */
    String mismatch(SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (sqlState != null && !sqlState.equals(e.getSQLState())) {
            return "expected SQLSTATE " + sqlState + " but got " + e.getSQLState() + ": " + message;
        }
        if (messageSubstring != null && !message.contains(messageSubstring)) {
            return "expected message containing \"" + messageSubstring + "\" but got [" + e.getSQLState() + "] "
                    + message;
        }
        return null;
    }

    @Override
    public String toString() {
        return (sqlState == null ? "any SQLSTATE" : "SQLSTATE " + sqlState)
                + (messageSubstring == null ? "" : " with message containing \"" + messageSubstring + "\"");
    }
}
