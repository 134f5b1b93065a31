package io.tributary.server.pgwire;

/**
 * Hears how each client statement ended, for monitoring. Called on the connection's session
 * thread right after the CommandComplete or ErrorResponse is written: it must only record.
 */
public interface StatementObserver {
    StatementObserver NONE = new StatementObserver() {
        @Override
        public void completed(String database, String kind, long nanos) {}

        @Override
        public void failed(String database, String sqlState) {}
    };

    /**
     * A statement completed.
     *
     * @param database the database the connection's session is in
     * @param kind its command tag without counts, e.g. {@code SELECT}, {@code INSERT},
     *     {@code CREATE MATERIALIZED VIEW}
     * @param nanos from the start of its execution to its CommandComplete (rows streamed included)
     */
    void completed(String database, String kind, long nanos);

    /** A statement (or protocol step) of a session in {@code database} failed with {@code sqlState}. */
    void failed(String database, String sqlState);

    /** The kind of a command tag: its words up to the first number ({@code INSERT 0 5} is {@code INSERT}). */
    static String kindOf(String tag) {
        int end = tag.length();
        for (int i = 0; i < tag.length(); i++) {
            if (Character.isDigit(tag.charAt(i)) && (i == 0 || tag.charAt(i - 1) == ' ')) {
                end = i;
                break;
            }
        }
        return tag.substring(0, end).trim();
    }
}
