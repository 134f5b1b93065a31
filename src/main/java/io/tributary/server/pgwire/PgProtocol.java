package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.server.session.CopyInSink;
import io.tributary.server.session.PreparedStatement;
import io.tributary.server.session.RowCursor;
import io.tributary.server.session.Session;
import io.tributary.server.session.StatementResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server side of protocol 3.0 for one connection, as an explicit state machine over
 * {@link Phase}: one method per client message, each documenting its wire layout (after the type
 * byte and int32 length).
 *
 * <p>Threading: {@link #handle} and {@link #connectionClosed} are called by the connection's serial
 * executor, one at a time and in arrival order; that thread is the only one calling the
 * {@link Session} (except {@code cancel}, which the registry calls from a cancelling connection, and
 * {@code connectionLost}, which {@link #connectionLost()} calls from the event loop).
 */
final class PgProtocol {
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;
    private static final int CANCEL_REQUEST = 80877102;

    enum Phase {
        /** Expecting StartupMessage, SSLRequest, GSSENCRequest or CancelRequest. */
        STARTUP,
        /** AuthenticationSASL sent; expecting SASLInitialResponse. */
        SASL_INITIAL,
        /** AuthenticationSASLContinue sent; expecting SASLResponse. */
        SASL_FINAL,
        /** Authenticated; expecting simple or extended query messages. */
        READY,
        /** CopyInResponse sent; expecting CopyData, CopyDone or CopyFail. */
        COPY_IN,
        /** The connection is ending; everything is ignored. */
        CLOSED
    }

    private final PgServerContext server;
    private final PgChannelWriter out;
    private final PgResultWriter results;
    private final PgExtendedQuery extended;
    private Phase phase = Phase.STARTUP;
    private String user;
    private String database;
    private Map<String, String> startupParameters;
    private ScramExchange scram;
    /** Written by the session thread; read by the event loop when the connection drops. */
    private volatile Session session;

    private PgBackendRegistry.Key backendKey;
    /** Set by an error in extended-query mode: discard messages until Sync. */
    private boolean skipUntilSync;
    /** The rest of the current simple Query's statements, null outside a simple Query. */
    private Iterator<Session.QueryStatement> pendingStatements;
    /** The current simple Query's text and the statement of it running now, to place its errors. */
    private String queryText;

    private Session.QueryStatement runningStatement;

    private CopyInSink copySink;
    /** When the statement running now started executing ({@link System#nanoTime()}), for its latency. */
    private long statementStart;

    PgProtocol(PgServerContext server, PgChannelWriter out) {
        this.server = server;
        this.out = out;
        this.results = new PgResultWriter(out, () -> session.timeZone());
        this.extended = new PgExtendedQuery(this, out, results);
    }

    /** Processes one client message; never throws. */
    void handle(PgFrame frame) {
        Phase at = phase;
        try {
            switch (at) {
                case STARTUP -> onStartupPacket(new PgMessageReader(frame.body()));
                case SASL_INITIAL -> onSaslInitialResponse(frame);
                case SASL_FINAL -> onSaslResponse(frame);
                case READY -> onMessage(frame);
                case COPY_IN -> onCopyMessage(frame);
                case CLOSED -> {
                    // The client may still be sending while the close completes.
                }
            }
        } catch (Throwable t) {
            onError(at, frame.type(), t);
        }
    }

    private void onError(Phase at, char type, Throwable t) {
        if (at == Phase.STARTUP || at == Phase.SASL_INITIAL || at == Phase.SASL_FINAL) {
            fatal(PgErrorFields.of(t, "FATAL"));
            return;
        }
        abortCopy(String.valueOf(t.getMessage()));
        if (session != null) {
            session.failed();
        }
        PgErrorFields error = PgErrorFields.of(t, "ERROR");
        if ((type == 'Q' || pendingStatements != null) && runningStatement != null) {
            error = error.placedIn(queryText, runningStatement);
        }
        out.write(PgBackendMessages.errorResponse(out.alloc(), error));
        server.observer().failed(database, error.sqlState());
        if (type == 'Q' || pendingStatements != null) {
            pendingStatements = null;
            runningStatement = null;
            readyForQuery();
        } else {
            skipUntilSync = true;
            flushDurable();
        }
    }

    // ---------------------------------------------------------------- startup and authentication

    /**
     * Untyped startup packets: {@code int32 code} then a code-specific body. SSLRequest
     * (80877103) and GSSENCRequest (80877104) are refused with 'N' and the client continues in the
     * clear; CancelRequest (80877102) carries {@code int32 pid, int32 secret}; StartupMessage (code
     * 196608 = 3.0) carries {@code (cstring name, cstring value)*} then a zero byte.
     */
    private void onStartupPacket(PgMessageReader in) {
        int code = in.readInt32();
        switch (code) {
            case SSL_REQUEST, GSSENC_REQUEST -> out.writeAndFlush(PgBackendMessages.encryptionRefused(out.alloc()));
            case CANCEL_REQUEST -> onCancelRequest(in);
            case PgFrameDecoder.PROTOCOL_3 -> onStartupMessage(in);
            default ->
                throw new TributaryException(
                        SqlState.PROTOCOL_VIOLATION,
                        "unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xffff)
                                + ": server supports 3.0 to 3.0");
        }
    }

    /** CancelRequest: {@code int32 process id, int32 secret key}. Never answered; the connection closes. */
    private void onCancelRequest(PgMessageReader in) {
        server.registry().cancel(in.readInt32(), in.readInt32());
        phase = Phase.CLOSED;
        out.flushAndClose();
    }

    private void onStartupMessage(PgMessageReader in) {
        Map<String, String> params = new LinkedHashMap<>();
        while (true) {
            String name = in.readCString();
            if (name.isEmpty()) {
                break;
            }
            params.put(name, in.readCString());
        }
        user = params.get("user");
        if (user == null || user.isEmpty()) {
            throw new TributaryException(
                    SqlState.INVALID_AUTHORIZATION, "no PostgreSQL user name specified in startup packet");
        }
        database = params.getOrDefault("database", user);
        startupParameters = params;
        if (server.credentials() == null) {
            completeAuthentication();
        } else {
            scram = new ScramExchange(server.credentials(), server.random());
            out.writeAndFlush(PgBackendMessages.authenticationSasl(out.alloc(), ScramExchange.MECHANISM));
            phase = Phase.SASL_INITIAL;
        }
    }

    /** SASLInitialResponse 'p': {@code cstring mechanism, int32 length, bytes client-first-message}. */
    private void onSaslInitialResponse(PgFrame frame) {
        requirePasswordMessage(frame);
        PgMessageReader in = new PgMessageReader(frame.body());
        String mechanism = in.readCString();
        if (!ScramExchange.MECHANISM.equals(mechanism)) {
            throw new TributaryException(
                    SqlState.PROTOCOL_VIOLATION, "client selected an invalid SASL authentication mechanism");
        }
        byte[] serverFirst = scram.serverFirst(in.readBytes(in.readInt32()));
        out.writeAndFlush(PgBackendMessages.authenticationSaslContinue(out.alloc(), serverFirst));
        phase = Phase.SASL_FINAL;
    }

    /** SASLResponse 'p': {@code bytes client-final-message} (the whole body). */
    private void onSaslResponse(PgFrame frame) {
        requirePasswordMessage(frame);
        byte[] serverFinal = scram.serverFinal(frame.body());
        scram = null;
        if (serverFinal == null) {
            throw new TributaryException(
                    SqlState.INVALID_PASSWORD, "password authentication failed for user \"" + user + "\"");
        }
        out.write(PgBackendMessages.authenticationSaslFinal(out.alloc(), serverFinal));
        completeAuthentication();
    }

    private static void requirePasswordMessage(PgFrame frame) {
        if (frame.type() != 'p') {
            throw new TributaryException(
                    SqlState.PROTOCOL_VIOLATION, "expected SASL response, got message type " + frame.type());
        }
    }

    /** AuthenticationOk, then the session's ParameterStatus values, BackendKeyData and ReadyForQuery. */
    private void completeAuthentication() {
        out.write(PgBackendMessages.authenticationOk(out.alloc()));
        session = server.sessionFactory().open(user, database, startupParameters);
        backendKey = server.registry().register(session);
        java.net.InetSocketAddress client = out.remoteAddress();
        java.net.InetSocketAddress local = out.localAddress();
        session.identify(
                backendKey.processId(),
                new io.tributary.catalog.pg.PgSession.Endpoints(
                        client == null ? null : client.getAddress().getHostAddress(),
                        client == null ? null : client.getPort(),
                        local == null ? null : local.getAddress().getHostAddress(),
                        local == null ? null : local.getPort()),
                () -> out.closeWith(PgBackendMessages.errorResponse(
                        out.alloc(),
                        PgErrorFields.fatal(
                                SqlState.ADMIN_SHUTDOWN, "terminating connection due to administrator command"))));
        out.setGate(session::awaitDurability);
        session.setNoticeSink(n -> out.writeAndFlush(PgBackendMessages.noticeResponse(
                out.alloc(), new PgErrorFields(n.severity(), n.sqlState(), n.message(), 0, n.detail(), null))));
        session.parameterStatus()
                .forEach((name, value) -> out.write(PgBackendMessages.parameterStatus(out.alloc(), name, value)));
        out.write(PgBackendMessages.backendKeyData(out.alloc(), backendKey.processId(), backendKey.secretKey()));
        phase = Phase.READY;
        readyForQuery();
    }

    // ---------------------------------------------------------------- query phase

    private void onMessage(PgFrame frame) {
        char type = frame.type();
        if (skipUntilSync && type != 'S' && type != 'X') {
            return;
        }
        PgMessageReader in = new PgMessageReader(frame.body());
        switch (type) {
            case 'Q' -> onQuery(in);
            case 'P' -> extended.onParse(in);
            case 'B' -> extended.onBind(in);
            case 'D' -> extended.onDescribe(in);
            case 'E' -> extended.onExecute(in);
            case 'C' -> extended.onClose(in);
            case 'S' -> {
                skipUntilSync = false;
                extended.onSync();
            }
            case 'H' -> flushDurable();
            case 'X' -> onTerminate();
            case 'd', 'c', 'f' -> {
                // Copy messages after a failed COPY are discarded, as the protocol specifies.
            }
            default ->
                fatal(PgErrorFields.fatal(SqlState.PROTOCOL_VIOLATION, "invalid frontend message type " + (int) type));
        }
    }

    /**
     * Query 'Q': {@code cstring query}. Runs each statement in turn; the first error ends the
     * message. ReadyForQuery follows the last statement, or the COPY that suspended the sequence.
     */
    private void onQuery(PgMessageReader in) {
        String text = in.readCString();
        // statements of an unsynced batch answer first, and only once durable
        out.release();
        extended.closePortal("");
        List<Session.QueryStatement> sqls = session.splitStatements(text);
        if (sqls.isEmpty()) {
            out.write(PgBackendMessages.empty(out.alloc(), 'I'));
            readyForQuery();
            return;
        }
        pendingStatements = sqls.iterator();
        queryText = text;
        runPendingStatements();
    }

    /** Runs the remaining simple-query statements; returns early when one starts a COPY. */
    private void runPendingStatements() {
        while (pendingStatements.hasNext()) {
            statementStart = System.nanoTime();
            runningStatement = pendingStatements.next();
            PreparedStatement statement = session.prepare(runningStatement.sql(), List.of());
            StatementResult result;
            try {
                result = session.execute(statement, List.of());
            } finally {
                // a simple query's plan is used once; open cursors outlive this close
                statement.close();
            }
            if (result instanceof StatementResult.Rows rows) {
                short[] formats = new short[rows.columns().size()];
                out.write(PgBackendMessages.rowDescription(out.alloc(), rows.columns(), formats));
                try (RowCursor cursor = rows.cursor()) {
                    long n = results.streamRows(rows.columns(), formats, cursor, 0);
                    complete(rows.completionTag(n));
                }
            } else if (result instanceof StatementResult.Command command) {
                complete(command.tag());
            } else if (result instanceof StatementResult.CopyIn copyIn) {
                startCopy(copyIn.sink());
                return;
            } else if (result instanceof StatementResult.CopyOut copyOut) {
                out.write(PgBackendMessages.commandComplete(out.alloc(), results.copyOut(copyOut)));
            } else if (result instanceof StatementResult.CopyOutBinary copyOut) {
                out.write(PgBackendMessages.commandComplete(out.alloc(), results.copyOutBinary(copyOut)));
            }
            sendChangedParameters();
            // statement_timeout applies to each statement of a simple Query, as in PostgreSQL 13+
            session.endStatement();
        }
        pendingStatements = null;
        runningStatement = null;
        readyForQuery();
    }

    /**
     * Lets the held answers of the batch's statements go once they are durable ({@link
     * Session#awaitDurability}); when that fails they are dropped and the client gets the error
     * instead, so it learns of no statement that may be lost.
     */
    void releaseDurable() {
        try {
            out.release();
        } catch (RuntimeException e) {
            PgErrorFields error = PgErrorFields.of(e, "ERROR");
            out.write(PgBackendMessages.errorResponse(out.alloc(), error));
            server.observer().failed(database, error.sqlState());
        }
    }

    /** Flush 'H' and flushes after an error: {@link #releaseDurable}, then send. */
    private void flushDurable() {
        releaseDurable();
        out.flush();
    }

    /** Terminate 'X' (empty body). */
    private void onTerminate() {
        phase = Phase.CLOSED;
        out.flushAndClose();
    }

    // ---------------------------------------------------------------- COPY FROM STDIN

    void startCopy(CopyInSink sink) {
        copySink = sink;
        phase = Phase.COPY_IN;
        out.writeAndFlush(PgBackendMessages.copyInResponse(out.alloc(), sink.columnCount()));
    }

    /**
     * Copy-in mode: CopyData 'd' ({@code bytes data}), CopyDone 'c' (empty), CopyFail 'f'
     * ({@code cstring reason}). Flush and Sync are ignored here, as PostgreSQL does; anything else
     * fails the COPY.
     */
    private void onCopyMessage(PgFrame frame) {
        switch (frame.type()) {
            case 'd' -> copySink.write(frame.body());
            case 'c' -> {
                CopyInSink sink = copySink;
                endCopy();
                complete(sink.finish());
                sendChangedParameters();
                if (pendingStatements != null) {
                    runPendingStatements();
                }
            }
            case 'f' -> {
                String reason = new PgMessageReader(frame.body()).readCString();
                throw new TributaryException(SqlState.QUERY_CANCELED, "COPY from stdin failed: " + reason);
            }
            case 'H', 'S' -> {
                // Ignored during copy-in; the client sends them after CopyDone/CopyFail anyway.
            }
            default ->
                throw new TributaryException(
                        SqlState.PROTOCOL_VIOLATION,
                        "unexpected message type 0x" + Integer.toHexString(frame.type()) + " during COPY from stdin");
        }
    }

    private void abortCopy(String reason) {
        if (copySink != null) {
            CopyInSink sink = copySink;
            endCopy();
            sink.abort(reason);
        }
    }

    private void endCopy() {
        copySink = null;
        phase = Phase.READY;
    }

    /** Writes the CommandComplete of the statement running now and tells the observer. */
    void complete(String tag) {
        out.write(PgBackendMessages.commandComplete(out.alloc(), tag));
        server.observer().completed(database, StatementObserver.kindOf(tag), System.nanoTime() - statementStart);
    }
    // ---------------------------------------------------------------- helpers and teardown

    /** The session, opened at authentication; null before. */
    Session session() {
        return session;
    }

    /** Marks that the statement running now started executing, for its latency. */
    void statementStarted() {
        statementStart = System.nanoTime();
    }

    void sendChangedParameters() {
        session.drainChangedParameters()
                .forEach((name, value) -> out.write(PgBackendMessages.parameterStatus(out.alloc(), name, value)));
    }

    void readyForQuery() {
        if (session != null) {
            session.endStatement();
        }
        char status = session == null ? 'I' : session.transactionStatus();
        out.write(PgBackendMessages.readyForQuery(out.alloc(), status));
        out.flush();
    }

    private void fatal(PgErrorFields error) {
        phase = Phase.CLOSED;
        out.write(PgBackendMessages.errorResponse(out.alloc(), error));
        out.flushAndClose();
    }

    /**
     * The socket closed or broke: the statement running now (on the session thread) stops at its
     * next check, and statements already queued behind it fail at once. Event loop; does not wait.
     */
    void connectionLost() {
        Session s = session;
        if (s != null) {
            s.connectionLost();
        }
    }

    /**
     * Releases everything the connection holds: aborts an open COPY, closes portals and the
     * session. Called once, on the session thread, after the channel became inactive.
     */
    void connectionClosed() {
        phase = Phase.CLOSED;
        out.discardHeld();
        abortCopy("connection to client lost");
        extended.close();
        if (session != null) {
            server.registry().unregister(backendKey);
            session.close();
            session = null;
        }
    }
}
