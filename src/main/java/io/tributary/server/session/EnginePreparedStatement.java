package io.tributary.server.session;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.sql.StatementPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * A planned statement and what the client is told about it. Its plan is handed back (to the
 * session's plan cache) when the client closed it and no cursor opened from it is still open.
 */
final class EnginePreparedStatement implements PreparedStatement {
    private final String sql;
    /** Read directly (without the closed check) by {@link EngineSession#defersDurability}. */
    final StatementPlan plan;

    private final List<DataType> paramTypes;
    /** Sequence calls evaluated ahead of each execution, or null (see {@link EngineSession}). */
    final io.tributary.sql.SequenceCallText sequenceCalls;
    /** Constants lifted from the statement's text, bound after the client's parameters. */
    private final List<Object> lifted;

    private final List<ColumnDesc> resultColumns;
    private final Runnable release;
    private int openCursors;
    private boolean closeRequested;
    private boolean released;

    /**
     * @param release hands the plan back (to the plan cache) once unused
     * @param sequenceCalls the statement's sequence calls evaluated ahead of each execution (then
     *     {@code plan} is its shape with placeholder values), or null
     */
    EnginePreparedStatement(
            String sql,
            StatementPlan plan,
            List<DataType> paramTypes,
            List<Object> lifted,
            List<ColumnDesc> resultColumns,
            Runnable release,
            io.tributary.sql.SequenceCallText sequenceCalls) {
        this.release = release;
        this.sql = sql;
        this.plan = plan;
        this.sequenceCalls = sequenceCalls;
        this.paramTypes = paramTypes;
        this.lifted = lifted;
        this.resultColumns = resultColumns;
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public List<DataType> paramTypes() {
        return paramTypes;
    }

    @Override
    public List<ColumnDesc> resultColumns() {
        return resultColumns;
    }

    /** The values the plan's parameters take: the client's, then the lifted constants. */
    List<Object> bound(List<Object> clientParams) {
        if (lifted.isEmpty()) {
            return clientParams;
        }
        List<Object> all = new ArrayList<>(clientParams.size() + lifted.size());
        all.addAll(clientParams);
        all.addAll(lifted);
        return all;
    }

    StatementPlan plan() {
        if (released) {
            throw new TributaryException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement was closed");
        }
        return plan;
    }

    void cursorOpened() {
        openCursors++;
    }

    boolean hasOpenCursor() {
        return openCursors > 0;
    }

    void cursorClosed() {
        openCursors--;
        releaseIfIdle();
    }

    @Override
    public void close() {
        closeRequested = true;
        releaseIfIdle();
    }

    private void releaseIfIdle() {
        if (closeRequested && openCursors == 0 && !released) {
            released = true;
            release.run();
        }
    }
}
