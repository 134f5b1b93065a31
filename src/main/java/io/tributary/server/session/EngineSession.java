package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgOids;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ResultColumn;
import io.tributary.sql.StatementControl;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.StatementSplitter;
import io.tributary.sql.calcite.CalciteFrontend;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A {@link Session} on the local engine: plans with the session's {@link CalciteFrontend}, reads
 * from a snapshot of the last committed epoch per statement, writes through the barrier manager
 * and, with {@code implicit_flush} on, returns from DML once its epoch is durable.
 */
public final class EngineSession implements Session {
    private final Database db;
    /** The server's databases, whose snapshots cross-database reads open; null for a server of one database. */
    private final Cluster cluster;

    private final SessionVariables variables;
    private final CalciteFrontend frontend;
    private final DmlRunner dml;
    private final UtilityRunner utility;
    private final DatabaseCommands databases;
    /** What the statement running now reads, for the frontend's table scans and this session's cursors. */
    private final StatementSnapshots snapshots;

    private final DeferredDurability deferred;
    private final WorkerSnapshotPieces workerPieces;
    /** Ends the session's hold on its database; run once, at close. */
    private Runnable release;

    private final NamedStatements named = new NamedStatements();
    private final SessionPlans plans;
    /** Cancel, timeout and memory budget of the statement running now. */
    private final StatementControl control;

    private final String user;
    private final ActiveSessions sessions;
    /** What pg_stat_activity shows of this session; null until {@link #identify}. */
    private SessionActivity activity;
    /** When the current transaction and statement started, for now() and statement_timestamp(). */
    private final SessionClock clock = new SessionClock();

    /** Set while {@link #executeInBatch} runs: a deferring statement may then leave its ticket pending. */
    private boolean inBatch;

    /** The open transaction block, if any, and its state. */
    private final TransactionBlock block;

    private Consumer<Notice> notices = n -> {};

    /**
     * @param user who authenticated; the catalog shows it as the owner of everything
     * @param cluster the server's databases, for CREATE and DROP DATABASE; null for a server of one
     *     database. The session holds {@code db} ({@link Cluster#connect}) and lets go of it at close.
     * @param sessions the server's sessions, which this one joins once {@link #identify identified}
     */
    EngineSession(
            Cluster cluster,
            Database db,
            String user,
            Map<String, String> startupParameters,
            QueryLimits limits,
            ActiveSessions sessions) {
        this.user = user == null || user.isEmpty() ? "root" : user;
        this.sessions = sessions;
        this.db = db;
        this.cluster = cluster;
        this.databases = new DatabaseCommands(cluster, db);
        this.release = cluster == null ? () -> {} : () -> cluster.disconnect(db);
        this.control = new StatementControl(limits.queryMemoryBytes());
        this.variables = new SessionVariables(
                startupParameters,
                limits.statementTimeoutMillis() == 0
                        ? Map.of()
                        : Map.of("statement_timeout", QueryLimits.formatMillis(limits.statementTimeoutMillis())));
        this.block = new TransactionBlock(db, variables::transactionMaxRows);
        this.snapshots = new StatementSnapshots(db, cluster, block, control);
        this.deferred = new DeferredDurability(db);
        this.workerPieces = new WorkerSnapshotPieces(db, variables);
        this.frontend = new CalciteFrontend(
                db.catalog(),
                db.systemTables(),
                snapshots,
                new CatalogSession(this.user, variables, db, cluster, () -> activity, sessions, clock));
        SessionCurrvals currvals = new SessionCurrvals();
        this.dml = new DmlRunner(db, control::check, currvals, variables::timeZone, block::writes);
        this.utility = new UtilityRunner(db, variables, control::check, currvals, sessions, block::writes);
        this.plans = new SessionPlans(db, variables, frontend, named);
    }

    @Override
    public List<QueryStatement> splitStatements(String text) {
        return StatementSplitter.split(text).stream()
                .map(p -> new QueryStatement(p.sql(), p.offset(), p.semicolon()))
                .toList();
    }

    @Override
    public PreparedStatement prepare(String sql, List<DataType> declared) {
        // planning belongs to the statement: a cancel during it must stop the execution that follows
        clock.started(block.status() != 'I');
        if (activity != null) {
            activity.started(sql, variables.get("application_name"));
        }
        block.refuseIfFailed(sql);
        try {
            // every later reader of the text (utility parsers, text rewrites, Calcite) knows only quoted
            // constants, and Calcite no backslash-escaped quote in them
            String plain = io.tributary.sql.EscapedQuotes.plain(io.tributary.sql.DollarQuotes.plain(sql));
            for (String warning : io.tributary.sql.TimePrecisionWarnings.of(plain)) {
                // PostgreSQL warns as it reads the type name, before the statement runs or fails
                notices.accept(new Session.Notice("WARNING", SqlState.INVALID_PARAMETER_VALUE, warning));
            }
            return whileBusy(() -> plans.plan(plain, declared), false);
        } catch (TributaryException e) {
            // constant input errors raised outside Calcite's error translation (date/time, boolean input)
            throw io.tributary.sql.ConstantInputPositions.placed(e, sql);
        }
    }

    @Override
    public StatementResult execute(PreparedStatement statement, List<Object> params) {
        clock.started(block.status() != 'I');
        if (activity != null) {
            activity.started(((EnginePreparedStatement) statement).sql(), variables.get("application_name"));
        }
        try {
            return whileBusy(
                    () -> {
                        control.check();
                        StatementResult result = run((EnginePreparedStatement) statement, params);
                        return result instanceof StatementResult.CopyIn copy
                                ? new StatementResult.CopyIn(new CancellableCopy(copy.sink()))
                                : result;
                    },
                    true);
        } catch (TributaryException e) {
            throw io.tributary.sql.ConstantInputPositions.placed(e, ((EnginePreparedStatement) statement).sql());
        }
    }

    @Override
    public StatementResult executeInBatch(PreparedStatement statement, List<Object> params) {
        inBatch = true;
        try {
            return execute(statement, params);
        } finally {
            inBatch = false;
        }
    }

    /**
     * INSERT of rows given in the statement (constants or parameters): it reads nothing, so it
     * need not see the batch's earlier statements committed, and its key checks read the open
     * epoch, where they are staged. Every other statement reads a committed snapshot.
     */
    @Override
    public boolean defersDurability(PreparedStatement statement) {
        return ((EnginePreparedStatement) statement).plan instanceof StatementPlan.Insert insert
                && insert.literalRows() != null;
    }

    @Override
    public boolean durabilityPending() {
        return deferred.pending();
    }

    @Override
    public void awaitDurability() {
        deferred.awaitAll();
    }

    private StatementResult run(EnginePreparedStatement prepared, List<Object> clientParams) {
        if (deferred.pending() && !(inBatch && defersDurability(prepared))) {
            // the protocol awaits before such a statement; this keeps the promise for any caller
            awaitDurability();
        }
        StatementPlan plan = prepared.plan();
        block.refuseIfFailed(plan);
        List<Object> params = prepared.bound(clientParams);
        if (plan instanceof StatementPlan.Utility u) {
            return executeUtility(u);
        }
        if (prepared.sequenceCalls != null) {
            return withSequenceValues(prepared, params);
        }
        if (plan instanceof StatementPlan.Query q) {
            if (prepared.hasOpenCursor()) {
                // a JDBC statement has one result set: a second open portal needs its own plan
                StatementPlan.Query own = (StatementPlan.Query) frontend.plan(prepared.sql());
                return query(own, params, own::close);
            }
            prepared.cursorOpened();
            return query(q, params, prepared::cursorClosed);
        }
        if (plan instanceof StatementPlan.Insert ins) {
            SourceManager.checkWritable(ins.table());
            return finishDml(
                    "INSERT 0 ", dml.insert(ins, params, prepared.paramTypes(), snapshots::openQuery), prepared);
        }
        if (plan instanceof StatementPlan.Update upd) {
            SourceManager.checkWritable(upd.table());
            return finishDml("UPDATE ", dml.update(upd, snapshots.openQuery(upd.query(), params)), prepared);
        }
        StatementPlan.Delete del = (StatementPlan.Delete) plan;
        SourceManager.checkWritable(del.table());
        return finishDml("DELETE ", dml.delete(del, snapshots.openQuery(del.query(), params)), prepared);
    }

    /**
     * A SELECT without FROM or an INSERT ... VALUES with sequence calls: each call is evaluated
     * once, in the order written (as PostgreSQL evaluates them), then the statement is planned
     * with the values in their place and run.
     */
    private StatementResult withSequenceValues(EnginePreparedStatement prepared, List<Object> params) {
        int insertTableId = prepared.plan() instanceof StatementPlan.Insert ins
                ? ins.table().id()
                : -1;
        List<Long> values;
        try {
            values = utility.sequenceValues(prepared.sequenceCalls.calls(), insertTableId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        }
        StatementPlan own = frontend.plan(prepared.sequenceCalls.withValues(values));
        if (own instanceof StatementPlan.Query q) {
            return query(q, params, own::close);
        }
        StatementPlan.Insert ins = (StatementPlan.Insert) own;
        SourceManager.checkWritable(ins.table());
        try {
            return finishDml(
                    "INSERT 0 ", dml.insert(ins, params, prepared.paramTypes(), snapshots::openQuery), prepared);
        } finally {
            own.close();
        }
    }

    private StatementResult executeUtility(StatementPlan.Utility u) {
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.Transaction t) {
            return transaction(t.verb());
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.Savepoint s) {
            return block.savepoint(s);
        }
        if (!DatabaseCommands.handles(u.statement()) && !TransactionBlock.runsInBlock(u.statement())) {
            block.refuseInBlock(TransactionBlock.statementName(u.statement()));
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.CreateTableAs c) {
            return createTableAs(c);
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.AddColumn a) {
            return addColumn(a);
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.CreateView c) {
            try {
                return new PlainViews(db).create(c, frontend);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw TributaryException.queryCanceled();
            }
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.Prepare p) {
            // PostgreSQL plans the statement at PREPARE, its parameters of the declared types: its
            // errors come now, not at EXECUTE
            StatementPlan checked = frontend.plan(io.tributary.sql.PreparedBody.typedBody(p));
            checked.close();
            if (checked instanceof StatementPlan.Utility) {
                throw TributaryException.notSupported(
                        "PREPARE of a statement other than SELECT, INSERT, UPDATE, DELETE or VALUES");
            }
            named.add(p);
            return new StatementResult.Command("PREPARE");
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.CopyTo c) {
            return copyTo(c);
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.CopySnapshot c) {
            return workerPieces.copy(c);
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.Deallocate d) {
            named.remove(d.name());
            return new StatementResult.Command(d.name() == null ? "DEALLOCATE ALL" : "DEALLOCATE");
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.ExplainQuery e) {
            List<Object[]> rows;
            try {
                rows = frontend.explain(e.query()).stream()
                        .map(line -> new Object[] {line})
                        .toList();
            } catch (TributaryException error) {
                throw error.shifted(e.offset());
            }
            return new StatementResult.Rows(SessionPlans.resultColumns(u), new ListCursor(rows));
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.NoOp n
                && n.tag().equals("DISCARD ALL")) {
            named.remove(null);
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.Lock lock) {
            if (block.status() == 'I') {
                throw new TributaryException(
                        SqlState.NO_ACTIVE_SQL_TRANSACTION, "LOCK TABLE can only be used in transaction blocks");
            }
            for (String name : lock.names()) {
                db.catalog().require(name);
            }
            return new StatementResult.Command("LOCK TABLE");
        }
        if (u.statement() instanceof io.tributary.sql.UtilityStatement.OwnerChange change) {
            return OwnerChanges.run(change, db.catalog(), user, notices);
        }
        if (DatabaseCommands.handles(u.statement())) {
            return databases.execute(u.statement(), block.status() != 'I', notices);
        }
        return utility.execute(u.statement(), notices);
    }

    private StatementResult createTableAs(io.tributary.sql.UtilityStatement.CreateTableAs c) {
        StatementPlan plan = frontend.plan(c.query());
        try {
            if (!(plan instanceof StatementPlan.Query q)) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "CREATE TABLE AS needs a query after AS");
            }
            return new TableFromQuery(db, control::check)
                    .run(c, q, query -> snapshots.openQuery(query, List.of()), notices);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        } finally {
            plan.close();
        }
    }

    /**
     * ALTER TABLE ... ADD COLUMN: the column's DEFAULT is evaluated once, here, as the value of the
     * rows the table already has (PostgreSQL evaluates a volatile default such as {@code now()} once
     * for them too).
     */
    private StatementResult addColumn(io.tributary.sql.UtilityStatement.AddColumn a) {
        io.tributary.catalog.ColumnDef column = a.column();
        Object existing = column.defaultExpr() == null ? null : valueOf(column.defaultExpr(), column.type());
        try {
            try (var claim = db.awaitIndexBuilds(a.table(), control::check)) {
                db.columnDdl()
                        .add(a.table(), a.ifExists(), column, existing, a.ifNotExists())
                        .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        }
        return new StatementResult.Command("ALTER TABLE");
    }

    /** The value of expression {@code text} (one that reads no table), assigned to {@code type}. */
    private Object valueOf(String text, io.tributary.common.types.DataType type) {
        StatementPlan plan = frontend.plan("SELECT (" + text + ")");
        try {
            if (!(plan instanceof StatementPlan.Query q)) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "syntax error in DEFAULT expression");
            }
            try (QueryCursor cursor = snapshots.openQuery(q.query(), List.of())) {
                Object[] row = cursor.next();
                return io.tributary.common.types.Values.assign(
                        row[0], q.query().columns().get(0).type(), type);
            }
        } finally {
            plan.close();
        }
    }

    /** COPY ... TO STDOUT: the query's rows, which the protocol sends as COPY data. */
    private StatementResult copyTo(io.tributary.sql.UtilityStatement.CopyTo c) {
        StatementPlan plan = frontend.plan(c.query());
        if (!(plan instanceof StatementPlan.Query q)) {
            plan.close();
            throw TributaryException.notSupported("COPY of this statement; use COPY (SELECT ...) TO STDOUT");
        }
        StatementResult.Rows rows = (StatementResult.Rows) query(q, List.of(), q::close);
        return new StatementResult.CopyOut(
                rows.columns(), rows.cursor(), new CopyOutEncoder(rows.columns(), c.format(), variables.timeZone()));
    }

    private StatementResult transaction(io.tributary.sql.UtilityStatement.TransactionVerb verb) {
        return switch (verb) {
            case BEGIN -> block.begin(notices, "BEGIN");
            case START -> block.begin(notices, "START TRANSACTION");
            case COMMIT -> block.commit(notices, variables.implicitFlush());
            default -> block.rollback(notices);
        };
    }

    /**
     * Opens the query's cursor; {@code onClose} runs once the cursor is closed (or failed to open).
     * The statement counts as running until the cursor closes, so a cancel that arrives while its
     * rows are being sent (between two fetches) stops the next fetch.
     */
    private StatementResult query(StatementPlan.Query q, List<Object> params, Runnable onClose) {
        StatementReads snapshot = snapshots.reads();
        try {
            QueryCursor cursor = snapshots.reading(snapshot, () -> q.query().open(params));
            control.enter(variables.statementTimeoutMillis());
            Runnable closed = () -> {
                try {
                    onClose.run();
                } finally {
                    control.exit(true);
                }
            };
            return new StatementResult.Rows(
                    columns(q.query().columns()),
                    new QueryRowCursor(
                            cursor,
                            snapshot,
                            closed,
                            fetch -> whileBusy(() -> snapshots.reading(snapshot, fetch), true)));
        } catch (RuntimeException e) {
            snapshot.close();
            onClose.run();
            throw e;
        }
    }

    private StatementResult finishDml(String tagPrefix, DmlRunner.Outcome outcome, PreparedStatement prepared) {
        if (variables.implicitFlush() && outcome.ticket() != io.tributary.meta.write.TableWriter.HELD) {
            if (inBatch && defersDurability(prepared)) {
                deferred.defer(outcome.ticket());
            } else {
                DmlRunner.awaitDurable(db, outcome.ticket());
            }
        }
        String tag = tagPrefix + outcome.rows();
        return outcome.returned() == null
                ? new StatementResult.Command(tag)
                : new StatementResult.Rows(prepared.resultColumns(), new ListCursor(outcome.returned()), tag);
    }

    /**
     * Runs {@code work} as part of the client's current statement, so {@link #cancel()} and the
     * statement's timeout reach it (the timeout starts with the statement's first piece of work and
     * ends with {@link #endStatement()}). With {@code ends} set, a cancel that arrived too late to
     * be seen is dropped afterwards, so it cannot hit the next statement.
     */
    private <T> T whileBusy(java.util.function.Supplier<T> work, boolean ends) {
        control.enter(variables.statementTimeoutMillis());
        try {
            return work.get();
        } finally {
            control.exit(ends);
        }
    }

    /**
     * A COPY's data and end belong to its statement: the statement counts as running from the
     * COPY's start to its end or abort, so a cancel or timeout arriving between two CopyData
     * messages stops it too, at the next one.
     */
    private final class CancellableCopy implements CopyInSink {
        private final CopyInSink sink;

        CancellableCopy(CopyInSink sink) {
            this.sink = sink;
            control.enter(variables.statementTimeoutMillis());
        }

        @Override
        public int columnCount() {
            return sink.columnCount();
        }

        @Override
        public void write(byte[] data) {
            whileBusy(
                    () -> {
                        control.check();
                        sink.write(data);
                        return null;
                    },
                    false);
        }

        @Override
        public String finish() {
            try {
                return whileBusy(sink::finish, true);
            } finally {
                control.exit(true);
            }
        }

        @Override
        public void abort(String reason) {
            try {
                whileBusy(
                        () -> {
                            sink.abort(reason);
                            return null;
                        },
                        true);
            } finally {
                control.exit(true);
            }
        }
    }

    /** Cancels what runs now; a cancel while the session is idle is ignored, as in PostgreSQL. Any thread. */
    @Override
    public void cancel() {
        control.cancel(StatementControl.Reason.USER_REQUEST);
    }

    @Override
    public void connectionLost() {
        control.connectionLost();
    }

    @Override
    public void endStatement() {
        control.endStatement();
        clock.ended();
        if (activity != null) {
            activity.idle(variables.get("application_name"));
        }
    }

    @Override
    public void identify(int processId, io.tributary.catalog.pg.PgSession.Endpoints endpoints, Runnable terminate) {
        activity = new SessionActivity(
                PgOids.database(db.catalog().databaseId()),
                db.name(),
                processId,
                user,
                endpoints,
                variables.get("application_name"));
        // the FATAL goes out first: stopping the statement before would let its 57014 reach the
        // client ahead of it, where PostgreSQL's client sees only 57P01
        sessions.add(activity, this::cancel, () -> {
            terminate.run();
            connectionLost();
        });
    }

    @Override
    public char transactionStatus() {
        return block.status();
    }

    @Override
    public void failed() {
        block.failed();
    }

    @Override
    public void setNoticeSink(Consumer<Notice> sink) {
        this.notices = n -> {
            if (variables.sendsNotice(n.severity())) {
                sink.accept(n);
            }
        };
    }

    @Override
    public io.tributary.common.types.PgTimeZone timeZone() {
        return variables.timeZone();
    }

    @Override
    public Map<String, String> parameterStatus() {
        return variables.reported();
    }

    @Override
    public Map<String, String> drainChangedParameters() {
        return variables.drainChanged();
    }

    @Override
    public void close() {
        if (activity != null) {
            sessions.remove(activity);
        }
        try {
            block.end();
            plans.close();
            frontend.close();
        } finally {
            release.run();
            release = () -> {};
        }
    }

    static List<ColumnDesc> columns(List<ResultColumn> cols) {
        return cols.stream()
                .map(c -> new ColumnDesc(c.name(), c.type(), c.typeOid()))
                .toList();
    }

    /** The table, or 42P01. */
    static TableDef requireTable(Database db, String name) {
        return db.catalog().require(name);
    }
}
