package io.tributary.server.session;

import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One client's conversation with the engine, independent of the wire protocol.
 *
 * <p>Threading: the protocol layer calls every method except {@link #cancel()} from one thread at a
 * time, in the order the client's messages arrived, and never from a Netty event loop (execution
 * blocks, e.g. while DML waits for its epoch to commit). {@link #cancel()} may be called from any
 * thread. Errors a user can cause are thrown as {@link TributaryException} with a SQLSTATE.
 */
public interface Session extends AutoCloseable {

    /**
     * Splits the text of a simple Query message into statements, respecting quotes, dollar quotes
     * and comments. Empty statements are dropped; an all-empty text yields an empty list.
     */
    List<QueryStatement> splitStatements(String text);

    /**
     * One statement of a simple Query's text.
     *
     * @param sql its text, stripped, without its terminating semicolon
     * @param offset where {@code sql} starts in the Query's text (0-based), to place error positions
     * @param semicolon where the semicolon that ends it is in the text, -1 when the text's end ends it
     */
    record QueryStatement(String sql, int offset, int semicolon) {}

    /**
     * Parses and plans one statement.
     *
     * @param paramTypes types the client declared for {@code $1..$n}; an element may be null
     *     (unspecified); the list may be shorter than the number of parameters
     */
    PreparedStatement prepare(String sql, List<DataType> paramTypes);

    /**
     * Executes a prepared statement with bound parameter values (canonical values of the
     * statement's {@link PreparedStatement#paramTypes()}, null for SQL NULL).
     */
    StatementResult execute(PreparedStatement statement, List<Object> params);

    /**
     * Like {@link #execute}, for a statement of an extended-protocol batch (before its Sync): a
     * statement that {@link #defersDurability defers} may return before its effects are durable,
     * and {@link #durabilityPending()} then says so. The caller must not let the client see
     * anything of it before {@link #awaitDurability()} returned.
     */
    default StatementResult executeInBatch(PreparedStatement statement, List<Object> params) {
        return execute(statement, params);
    }

    /**
     * Whether {@link #executeInBatch} may return before {@code statement} is durable. A statement
     * that does not defer may read what earlier ones of the batch wrote, so the caller awaits their
     * durability before executing it.
     */
    default boolean defersDurability(PreparedStatement statement) {
        return false;
    }

    /** Whether statements returned before they were durable since the last {@link #awaitDurability()}. */
    default boolean durabilityPending() {
        return false;
    }

    /**
     * Waits until every statement that returned early is durable; afterwards none is pending, even
     * when this throws (their effects may then be lost, and the client must get an error instead).
     */
    default void awaitDurability() {}

    /**
     * The protocol gave this session process id {@code processId} (BackendKeyData) for a client
     * connected through {@code endpoints}, so that it is listed in {@code pg_stat_activity}, can be
     * cancelled or ended by {@code pg_cancel_backend} and {@code pg_terminate_backend}, and answers
     * {@code inet_client_addr()} and its kin. Called once, right after the session opened, on its
     * thread.
     *
     * @param terminate tells the client the session ends (FATAL 57P01) and closes the connection;
     *     any thread
     */
    default void identify(int processId, io.tributary.catalog.pg.PgSession.Endpoints endpoints, Runnable terminate) {}

    /** Cancels the statement running now, if any; it then fails with SQLSTATE 57014. Any thread. */
    void cancel();

    /**
     * The client is gone: the statement running now stops at its next check and releases what it
     * holds, and every later statement fails at once. Any thread.
     */
    void connectionLost();

    /**
     * The current statement is over (the protocol is about to send ReadyForQuery, or moves on to
     * the next statement of a simple Query): its statement_timeout stops.
     */
    void endStatement();

    /**
     * A statement of this session failed (its error is being sent): an open transaction block
     * becomes a failed one. Called by the protocol on the session's thread.
     */
    default void failed() {}

    /** 'I' idle, 'T' in a transaction block, 'E' in a failed transaction block. */
    char transactionStatus();

    /** Where NOTICE messages for this client go (severity NOTICE/WARNING/INFO). */
    void setNoticeSink(Consumer<Notice> sink);

    /** The session's TimeZone as of now, which text timestamptz values are printed in. */
    io.tributary.common.types.PgTimeZone timeZone();

    /** The ParameterStatus values to report after authentication. */
    Map<String, String> parameterStatus();

    /** ParameterStatus values changed by statements since the last call (e.g. SET application_name). */
    Map<String, String> drainChangedParameters();

    /** Releases cursors and snapshots; called once when the connection ends. */
    @Override
    void close();

    /** A notice for the client; {@code detail} null when it has none. */
    record Notice(String severity, String sqlState, String message, String detail) {
        /** A notice without DETAIL. */
        public Notice(String severity, String sqlState, String message) {
            this(severity, sqlState, message, null);
        }
    }
}
