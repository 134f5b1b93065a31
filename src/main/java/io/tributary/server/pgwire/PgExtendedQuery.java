package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTimeZone;
import io.tributary.server.session.ColumnDesc;
import io.tributary.server.session.PreparedStatement;
import io.tributary.server.session.StatementResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The extended-query messages of one connection (Parse, Bind, Describe, Execute, Close, Sync) and
 * the named statements and portals they create. {@link PgProtocol} dispatches to it on the
 * connection's serial executor, after authentication; it answers through the protocol's writer.
 */
final class PgExtendedQuery {
    private final PgProtocol protocol;
    private final PgChannelWriter out;
    private final PgResultWriter results;
    private final Map<String, PgStatement> statements = new HashMap<>();
    private final Map<String, PgPortal> portals = new HashMap<>();

    PgExtendedQuery(PgProtocol protocol, PgChannelWriter out, PgResultWriter results) {
        this.protocol = protocol;
        this.out = out;
        this.results = results;
    }

    /**
     * Parse 'P': {@code cstring statement name, cstring query, int16 n, int32 parameter type OID * n}.
     * OID 0 or an OID Tributary does not know leaves the parameter's type to the engine.
     */
    void onParse(PgMessageReader in) {
        String name = in.readCString();
        String sql = in.readCString();
        int n = in.readInt16();
        List<DataType> types = new ArrayList<>(Math.max(n, 0));
        for (int i = 0; i < n; i++) {
            types.add(DataType.ofOid(in.readInt32()));
        }
        if (name.isEmpty()) {
            PgStatement replaced = statements.remove("");
            if (replaced != null) {
                replaced.close();
            }
        } else if (statements.containsKey(name)) {
            throw new TributaryException(
                    SqlState.DUPLICATE_PREPARED_STATEMENT, "prepared statement \"" + name + "\" already exists");
        }
        PreparedStatement prepared = sql.isBlank() ? null : protocol.session().prepare(sql, types);
        statements.put(name, new PgStatement(prepared));
        out.write(PgBackendMessages.empty(out.alloc(), '1'));
    }

    /**
     * Bind 'B': {@code cstring portal, cstring statement, int16 nf, int16 format * nf, int16 np,
     * (int32 length or -1 for NULL, bytes value) * np, int16 nr, int16 result format * nr}.
     */
    void onBind(PgMessageReader in) {
        String portalName = in.readCString();
        String statementName = in.readCString();
        PgStatement statement = statement(statementName);
        short[] paramFormats = readFormats(in);
        List<DataType> types = statement.paramTypes();
        int n = in.readInt16();
        if (n != types.size()) {
            throw new TributaryException(
                    SqlState.PROTOCOL_VIOLATION,
                    "bind message supplies " + n + " parameters, but prepared statement \"" + statementName
                            + "\" requires " + types.size());
        }
        short[] formats = PgPortal.expandFormats(paramFormats, n);
        List<Object> params = new ArrayList<>(n);
        PgTimeZone zone = protocol.session().timeZone();
        for (int i = 0; i < n; i++) {
            int length = in.readInt32();
            byte[] value = length < 0 ? null : in.readBytes(length);
            params.add(PgValueCodec.readParameter(types.get(i), value, formats[i], zone));
        }
        short[] resultFormats = readFormats(in);
        if (portalName.isEmpty()) {
            closePortal("");
        } else if (portals.containsKey(portalName)) {
            throw new TributaryException(SqlState.DUPLICATE_CURSOR, "cursor \"" + portalName + "\" already exists");
        }
        PgPortal portal = new PgPortal(statement, params, resultFormats);
        portal.formats(); // validates the result format codes now, so Bind rather than Execute fails
        portals.put(portalName, portal);
        out.write(PgBackendMessages.empty(out.alloc(), '2'));
    }

    private static short[] readFormats(PgMessageReader in) {
        short[] formats = new short[Math.max(in.readInt16(), 0)];
        for (int i = 0; i < formats.length; i++) {
            formats[i] = (short) in.readInt16();
        }
        return formats;
    }

    /**
     * Describe 'D': {@code byte 'S' or 'P', cstring name}. A statement is answered with
     * ParameterDescription and then RowDescription (text formats, as they are not yet known) or
     * NoData; a portal with RowDescription in its result formats or NoData.
     */
    void onDescribe(PgMessageReader in) {
        byte kind = in.readByte();
        String name = in.readCString();
        if (kind == 'S') {
            PgStatement statement = statement(name);
            out.write(PgBackendMessages.parameterDescription(out.alloc(), statement.parameterOids()));
            List<ColumnDesc> columns = statement.resultColumns();
            writeRowDescription(columns, columns == null ? null : new short[columns.size()]);
        } else if (kind == 'P') {
            PgPortal portal = portal(name);
            writeRowDescription(portal.columns(), portal.formats());
        } else {
            throw new TributaryException(SqlState.PROTOCOL_VIOLATION, "invalid DESCRIBE message subtype " + kind);
        }
    }

    private void writeRowDescription(List<ColumnDesc> columns, short[] formats) {
        if (columns == null) {
            out.write(PgBackendMessages.empty(out.alloc(), 'n'));
        } else {
            out.write(PgBackendMessages.rowDescription(out.alloc(), columns, formats));
        }
    }

    /**
     * Execute 'E': {@code cstring portal, int32 max rows (0 = no limit)}. Runs the statement on the
     * portal's first Execute; with a row limit, answers PortalSuspended while rows remain and keeps
     * the cursor for the next Execute.
     */
    void onExecute(PgMessageReader in) {
        String name = in.readCString();
        int maxRows = in.readInt32();
        PgPortal portal = portal(name);
        if (portal.statement().prepared() == null) {
            out.write(PgBackendMessages.empty(out.alloc(), 'I'));
            return;
        }
        if (portal.completedTag() != null) {
            out.write(PgBackendMessages.commandComplete(out.alloc(), portal.completedTag()));
            return;
        }
        try {
            if (!portal.started() && !start(portal)) {
                return;
            }
            long n = portal.addRowsSent(
                    results.streamRows(portal.columns(), portal.formats(), portal.cursor(), Math.max(maxRows, 0)));
            if (portal.cursor().exhausted() || maxRows <= 0) {
                String tag = portal.completionTag(n);
                protocol.complete(tag);
                portal.complete(portal.rowsTag() != null ? tag : "SELECT 0");
                protocol.sendChangedParameters();
            } else {
                out.write(PgBackendMessages.empty(out.alloc(), 's'));
            }
        } catch (RuntimeException e) {
            portals.remove(name);
            portal.close();
            throw e;
        }
    }

    /** Executes the portal's statement; returns true when it produced rows to stream. */
    private boolean start(PgPortal portal) {
        PreparedStatement prepared = portal.statement().prepared();
        if (!protocol.session().defersDurability(prepared)) {
            // it may read what the batch's earlier statements wrote; a failure answers this Execute
            out.release();
        }
        protocol.statementStarted();
        StatementResult result = protocol.session().executeInBatch(prepared, portal.params());
        if (protocol.session().durabilityPending()) {
            out.hold();
        }
        if (result instanceof StatementResult.Rows rows) {
            portal.startRows(rows.columns(), rows.cursor(), rows.tag());
            return true;
        }
        if (result instanceof StatementResult.Command command) {
            protocol.complete(command.tag());
            portal.complete(command.tag());
            protocol.sendChangedParameters();
        } else if (result instanceof StatementResult.CopyIn copyIn) {
            portal.complete("COPY 0");
            protocol.startCopy(copyIn.sink());
        } else if (result instanceof StatementResult.CopyOut copyOut) {
            String tag = results.copyOut(copyOut);
            out.write(PgBackendMessages.commandComplete(out.alloc(), tag));
            portal.complete(tag);
        } else if (result instanceof StatementResult.CopyOutBinary copyOut) {
            String tag = results.copyOutBinary(copyOut);
            out.write(PgBackendMessages.commandComplete(out.alloc(), tag));
            portal.complete(tag);
        }
        return false;
    }

    /** Close 'C': {@code byte 'S' or 'P', cstring name}. Closing a nonexistent object is not an error. */
    void onClose(PgMessageReader in) {
        byte kind = in.readByte();
        String name = in.readCString();
        if (kind == 'S') {
            PgStatement closed = statements.remove(name);
            if (closed != null) {
                closed.close();
            }
        } else if (kind == 'P') {
            closePortal(name);
        } else {
            throw new TributaryException(SqlState.PROTOCOL_VIOLATION, "invalid CLOSE message subtype " + kind);
        }
        out.write(PgBackendMessages.empty(out.alloc(), '3'));
    }

    /**
     * Sync 'S' (empty body): ends an extended-query cycle and any error skipping. Portals live until
     * the end of their transaction, so back in idle state they are all released.
     */
    void onSync() {
        protocol.releaseDurable();
        protocol.readyForQuery();
        if (protocol.session().transactionStatus() == 'I') {
            portals.values().forEach(PgPortal::close);
            portals.clear();
        }
    }

    private PgStatement statement(String name) {
        PgStatement s = statements.get(name);
        if (s == null) {
            throw new TributaryException(
                    SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name + "\" does not exist");
        }
        return s;
    }

    private PgPortal portal(String name) {
        PgPortal p = portals.get(name);
        if (p == null) {
            throw new TributaryException(SqlState.INVALID_CURSOR_NAME, "portal \"" + name + "\" does not exist");
        }
        return p;
    }

    void closePortal(String name) {
        PgPortal p = portals.remove(name);
        if (p != null) {
            p.close();
        }
    }

    /** Closes every portal and statement; the connection is closing. */
    void close() {
        portals.values().forEach(PgPortal::close);
        portals.clear();
        statements.values().forEach(PgStatement::close);
        statements.clear();
    }
}
