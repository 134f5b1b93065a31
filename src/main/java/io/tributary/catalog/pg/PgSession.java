package io.tributary.catalog.pg;

import java.util.List;

/**
 * What the catalog shows of the session reading it: its user (the one role) and its settings
 * ({@code pg_settings}). Called on the session's thread while a catalog query runs.
 */
public interface PgSession {
    /** The user the session authenticated as. */
    String user();

    /** The session's settings, in display order. */
    List<Setting> settings();

    /** The current value of setting {@code name} (lower case), or null when there is no such setting. */
    default String setting(String name) {
        for (Setting s : settings()) {
            if (s.name().equals(name)) {
                return s.value();
            }
        }
        return null;
    }

    /**
     * The last value the sequence of column {@code column} (its index among the table's columns,
     * hidden ones included) of table {@code tableId} has handed out, 0 when it has handed out none, or
     * {@code -n} when {@code setval(s, n, false)} made n the next value.
     */
    long sequenceValue(int tableId, int column);

    /**
     * The position of the sequence made by {@code CREATE SEQUENCE} with catalog id {@code id}
     * ({@code start} is the value it hands out first), as its relation shows it.
     */
    PgSequencePosition createdSequencePosition(int id, long start);

    /**
     * Roughly how many bytes storage table {@code tableId} (a table's, a materialized view's or one
     * of its state tables') of the session's database takes: the store's estimate, without reading
     * rows; 0 for an empty or unknown table.
     */
    long relationBytes(int tableId);

    /** Roughly how many bytes every table of database {@code name} takes, or -1 when there is no such database. */
    long databaseBytes(String name);

    /** The process id the client was given (BackendKeyData), what {@code pg_backend_pid()} returns; 0 when none. */
    int processId();

    /**
     * The two ends of the client's connection, what {@code inet_client_addr()}, {@code
     * inet_client_port()}, {@code inet_server_addr()} and {@code inet_server_port()} return; {@link
     * Endpoints#NONE} before the protocol identified the session.
     */
    Endpoints endpoints();

    /** The server's client sessions as of now, as {@code pg_stat_activity} lists them. */
    List<Backend> backends();

    /**
     * Cancels the statement client session {@code pid} runs now ({@code pg_cancel_backend}), or
     * ends the session ({@code pg_terminate_backend}). Any thread.
     *
     * @return whether such a session exists
     */
    boolean signalBackend(int pid, boolean terminate);

    /**
     * When the session's current transaction started, in microseconds since 1970-01-01 UTC: the
     * start of its transaction block, or of the statement running alone. What {@code now()},
     * {@code current_timestamp} and {@code transaction_timestamp()} answer. Read by the session's
     * query code on the thread that runs its statement.
     */
    long transactionStartMicros();

    /**
     * The id of the session's current transaction (its block, or the statement running alone),
     * assigned at the first call with {@code assign} in it, what {@code txid_current()} answers;
     * 0 when none is assigned yet and {@code assign} is false ({@code txid_current_if_assigned()}).
     * Ids grow from one transaction to the next. Read on the thread that runs the statement.
     */
    long transactionId(boolean assign);

    /** When the session's current statement started, in microseconds since 1970-01-01 UTC ({@code statement_timestamp()}). */
    long statementStartMicros();

    /**
     * One client session as {@code pg_stat_activity} shows it. Times are microseconds since
     * 1970-01-01 UTC, null when they do not apply.
     *
     * @param state {@code active} while a statement runs, else {@code idle}
     * @param query the statement running now, or the last one when idle; empty before the first
     */
    record Backend(
            long datid,
            String datname,
            int pid,
            String usename,
            String applicationName,
            String clientAddr,
            Integer clientPort,
            long backendStart,
            Long xactStart,
            Long queryStart,
            Long stateChange,
            String state,
            String query) {}

    /**
     * The client's and the server's address (an IP address's text) and port of one connection;
     * each null for a socket without one.
     */
    record Endpoints(String clientAddress, Integer clientPort, String serverAddress, Integer serverPort) {
        /** A session with no TCP connection (in-process, or not yet identified). */
        public static final Endpoints NONE = new Endpoints(null, null, null, null);
    }

    /** One setting as {@code pg_settings} shows it. */
    record Setting(String name, String value, String defaultValue, String description) {}
}
