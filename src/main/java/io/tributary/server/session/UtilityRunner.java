package io.tributary.server.session;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ddl.ViewBackfillPlacement;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.sql.UtilityStatement;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Executes DDL and session commands for one session. Session thread only. */
final class UtilityRunner {
    private final Database db;
    private final SessionVariables variables;
    private final Runnable cancelCheck;
    private final SequenceCalls sequenceCalls;
    /** The server's sessions, which pg_cancel_backend and pg_terminate_backend act on. */
    private final ActiveSessions sessions;

    /** The session's open transaction block's writes, which a COPY FROM adds to; null outside one. */
    private final java.util.function.Supplier<io.tributary.meta.write.TransactionWrites> transaction;

    UtilityRunner(
            Database db,
            SessionVariables variables,
            Runnable cancelCheck,
            SessionCurrvals currvals,
            ActiveSessions sessions,
            java.util.function.Supplier<io.tributary.meta.write.TransactionWrites> transaction) {
        this.db = db;
        this.transaction = transaction;
        this.sessions = sessions;
        this.sequenceCalls = new SequenceCalls(db, currvals);
        this.variables = variables;
        this.cancelCheck = cancelCheck;
    }

    /** The values of a statement's sequence calls, evaluated ahead of it: {@link SequenceCalls#values}. */
    List<Long> sequenceValues(List<io.tributary.sql.SequenceCallText.Call> calls, int insertTableId)
            throws InterruptedException {
        return sequenceCalls.values(calls, insertTableId);
    }

    /** TRUNCATE: every named table emptied in one epoch, which the statement waits for. */
    private StatementResult truncate(UtilityStatement.Truncate t, Consumer<Session.Notice> notices)
            throws InterruptedException {
        java.util.Map<Integer, TableDef> tables = new java.util.LinkedHashMap<>();
        for (String name : t.names()) {
            TableDef table = db.catalog().require(name);
            if (table.isSource()) {
                throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table");
            }
            tables.put(table.id(), table);
        }
        if (t.cascade()) {
            cascadeTruncation(tables, notices);
        }
        db.barriers().awaitCommitted(db.truncate(List.copyOf(tables.values())));
        return new StatementResult.Command("TRUNCATE TABLE");
    }

    /**
     * TRUNCATE ... CASCADE: adds every table referencing one of {@code tables} by a FOREIGN KEY,
     * transitively, with PostgreSQL's notice for each.
     */
    private void cascadeTruncation(java.util.Map<Integer, TableDef> tables, Consumer<Session.Notice> notices) {
        List<TableDef> frontier = new java.util.ArrayList<>(tables.values());
        while (!frontier.isEmpty()) {
            TableDef parent = frontier.remove(0);
            for (TableDef t : db.catalog().tables()) {
                boolean references =
                        t.foreignKeys().stream().anyMatch(f -> f.parent().equals(parent.name()));
                if (references && !tables.containsKey(t.id())) {
                    tables.put(t.id(), t);
                    frontier.add(t);
                    notices.accept(new Session.Notice(
                            "NOTICE", "00000", "truncate cascades to table \"" + t.localName() + "\""));
                }
            }
        }
    }

    StatementResult execute(UtilityStatement statement, Consumer<Session.Notice> notices) {
        try {
            if (statement instanceof UtilityStatement.CreateTable c) {
                return createTable(c, notices);
            }
            if (statement instanceof UtilityStatement.DropView d) {
                return new PlainViews(db).drop(d, notices);
            }
            if (statement instanceof UtilityStatement.Truncate t) {
                return truncate(t, notices);
            }
            if (statement instanceof UtilityStatement.Drop d) {
                return drop(d, notices);
            }
            if (statement instanceof UtilityStatement.CreateMaterializedView c) {
                return createMaterializedView(c, notices);
            }
            if (statement instanceof UtilityStatement.ExplainCreateMaterializedView e) {
                return rows(e, explain(e));
            }
            if (statement instanceof UtilityStatement.AlterViewParallelism a) {
                db.ddl().setParallelism(a.name(), a.parallelism());
                return new StatementResult.Command("ALTER MATERIALIZED VIEW");
            }
            if (statement instanceof UtilityStatement.AlterSourceRateLimit a) {
                db.ddl().setSourceRateLimit(a.table(), a.rowsPerSecond());
                boolean source =
                        db.catalog().table(a.table()).map(TableDef::isSource).orElse(false);
                return new StatementResult.Command(source ? "ALTER SOURCE" : "ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.AddPrimaryKey a) {
                try (var claim = db.awaitIndexBuilds(a.table(), cancelCheck)) {
                    db.addPrimaryKey(a.table(), a.constraint(), a.columns());
                }
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.AddForeignKey a) {
                db.foreignKeyDdl().add(a.table(), a.constraint());
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.DropConstraint d
                    && db.foreignKeyDdl().drop(d.table(), d.name())) {
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.AddCheck a) {
                db.checkDdl().add(a.table(), a.check());
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.AddUnique a) {
                db.indexDdl().create(a.table(), a.constraint(), a.columns(), true, true, false, cancelCheck);
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.CreateIndex c) {
                db.indexDdl()
                        .create(c.table(), c.name(), c.columns(), c.unique(), false, c.ifNotExists(), cancelCheck)
                        .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "42P07", skipped)));
                return new StatementResult.Command("CREATE INDEX");
            }
            if (statement instanceof UtilityStatement.DropIndex d) {
                for (String name : d.names()) {
                    db.indexDdl()
                            .drop(name, d.ifExists())
                            .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
                }
                return new StatementResult.Command("DROP INDEX");
            }
            if (statement instanceof UtilityStatement.DropConstraint d
                    && db.indexDdl().dropConstraint(d.table(), d.name())) {
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.DropConstraint d) {
                db.checkDdl()
                        .drop(d.table(), d.name(), d.ifExists())
                        .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.DropColumn d) {
                try (var claim = db.awaitIndexBuilds(d.table(), cancelCheck)) {
                    db.columnDdl()
                            .drop(d.table(), d.ifExists(), d.column(), d.columnIfExists(), d.cascade())
                            .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
                }
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.RenameColumn r) {
                db.columnDdl()
                        .renameColumn(r.table(), r.ifExists(), r.from(), r.to())
                        .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.Comment c) {
                switch (c.target()) {
                    case TABLE -> db.commentDdl().onTable(c.name(), c.comment());
                    case VIEW -> db.commentDdl().onView(c.name(), c.comment());
                    case MATERIALIZED_VIEW -> db.commentDdl().onMaterializedView(c.name(), c.comment());
                    case COLUMN -> db.commentDdl().onColumn(c.name(), c.column(), c.comment());
                    case SCHEMA -> db.commentDdl().onSchema(c.name(), c.comment());
                }
                return new StatementResult.Command("COMMENT");
            }
            if (statement instanceof UtilityStatement.RenameRelation r) {
                db.relationRename()
                        .rename(r.name(), r.ifExists(), r.newName(), r.kind())
                        .ifPresent(skipped -> notices.accept(new Session.Notice("NOTICE", "00000", skipped)));
                return new StatementResult.Command(
                        r.kind() == RelationKind.TABLE ? "ALTER TABLE" : "ALTER MATERIALIZED VIEW");
            }
            if (statement instanceof UtilityStatement.SetColumnSequence a) {
                db.sequenceDdl().setSequenceDefault(a.table(), a.column(), a.sequence());
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.AddIdentity a) {
                db.sequenceDdl().addIdentity(a.table(), a.column(), a.always(), a.sequence());
                return new StatementResult.Command("ALTER TABLE");
            }
            if (statement instanceof UtilityStatement.CreateSequence c) {
                if (!db.sequenceDdl().create(c.name(), c.type(), c.options().over(c.type(), null), c.ifNotExists())) {
                    notices.accept(new Session.Notice(
                            "NOTICE",
                            SqlState.DUPLICATE_TABLE,
                            "relation \"" + c.name() + "\" already exists, skipping"));
                }
                return new StatementResult.Command("CREATE SEQUENCE");
            }
            if (statement instanceof UtilityStatement.AlterSequenceOwnedBy a) {
                if (a.ifExists() && db.catalog().sequence(a.sequence()).isEmpty()) {
                    notices.accept(new Session.Notice(
                            "NOTICE", "00000", "relation \"" + a.sequence() + "\" does not exist, skipping"));
                } else {
                    db.sequenceDdl().ownedBy(a.sequence(), a.table(), a.column());
                }
                return new StatementResult.Command("ALTER SEQUENCE");
            }
            if (statement instanceof UtilityStatement.AlterSequence a) {
                if (a.ifExists() && db.catalog().sequence(a.sequence()).isEmpty()) {
                    notices.accept(new Session.Notice(
                            "NOTICE", "00000", "relation \"" + a.sequence() + "\" does not exist, skipping"));
                } else {
                    sequenceCalls.alter(a);
                }
                return new StatementResult.Command("ALTER SEQUENCE");
            }
            if (statement instanceof UtilityStatement.DropSequence d) {
                for (String missing : db.sequenceDdl().drop(d.names(), d.ifExists())) {
                    notices.accept(new Session.Notice(
                            "NOTICE", "00000", "sequence \"" + missing + "\" does not exist, skipping"));
                }
                return new StatementResult.Command("DROP SEQUENCE");
            }
            if (statement instanceof UtilityStatement.AlterViewBackfillRate a) {
                db.ddl().setBackfillRateLimit(a.name(), a.rowsPerSecond());
                return new StatementResult.Command("ALTER MATERIALIZED VIEW");
            }
            if (statement instanceof UtilityStatement.CreateSink c) {
                if (!createSink(c, notices)) {
                    notices.accept(new Session.Notice(
                            "NOTICE", SqlState.DUPLICATE_OBJECT, "sink \"" + c.name() + "\" already exists, skipping"));
                }
                return new StatementResult.Command("CREATE SINK");
            }
            if (statement instanceof UtilityStatement.CreateSchema c) {
                if (!db.ddl().createSchema(c.name(), c.ifNotExists())) {
                    notices.accept(new Session.Notice(
                            "NOTICE",
                            SqlState.DUPLICATE_SCHEMA,
                            "schema \"" + c.name() + "\" already exists, skipping"));
                }
                return new StatementResult.Command("CREATE SCHEMA");
            }
            if (statement instanceof UtilityStatement.DropSchema d) {
                SchemaDrops.CascadeNotices cascaded = new SchemaDrops.CascadeNotices(notices);
                StatementResult result = dropSchema(d, cascaded);
                cascaded.flush();
                return result;
            }
            if (statement instanceof UtilityStatement.DropSink d) {
                if (!db.ddl().dropSink(d.name(), d.ifExists())) {
                    notices.accept(new Session.Notice(
                            "NOTICE",
                            SqlState.SUCCESSFUL_COMPLETION,
                            "sink \"" + d.name() + "\" does not exist, skipping"));
                }
                return new StatementResult.Command("DROP SINK");
            }
            if (statement instanceof UtilityStatement.AlterSinkRateLimit a) {
                db.ddl().setSinkRateLimit(a.name(), a.rowsPerSecond());
                return new StatementResult.Command("ALTER SINK");
            }
            if (statement instanceof UtilityStatement.ResyncSink r) {
                db.ddl().resyncSink(r.name());
                return new StatementResult.Command("ALTER SINK");
            }
            if (statement instanceof UtilityStatement.ShowSinks s) {
                return rows(
                        s,
                        db.ddl().sinks().stream()
                                .map(k -> new Object[] {
                                    k.name(),
                                    relationOrQuery(k),
                                    k.target().schema() + "." + k.target().table(),
                                    k.target().upsert() ? "upsert" : "append-only"
                                })
                                .toList());
            }
            if (statement instanceof UtilityStatement.ShowJobs s) {
                List<Object[]> jobs = new ArrayList<>();
                for (var j : db.ddl().jobs()) {
                    jobs.add(new Object[] {(long) j.id(), j.statement(), j.progressText()});
                }
                // a sink's backfill: where it runs, and (when here) the rows it copied
                for (var b : db.ddl().sinkBackfills()) {
                    String progress = b.placement().equals("local")
                            ? "backfill local (" + b.rows() + " rows)"
                            : "backfill " + b.placement();
                    jobs.add(new Object[] {(long) b.id(), b.statement(), progress});
                }
                return rows(s, jobs);
            }
            if (statement instanceof UtilityStatement.CancelJobs c) {
                return rows(
                        c,
                        db.ddl().cancelJobs(c.ids()).stream()
                                .map(id -> new Object[] {(long) id})
                                .toList());
            }
            if (statement instanceof UtilityStatement.Wait w) {
                db.ddl().await(w.view(), cancelCheck);
                return new StatementResult.Command("WAIT");
            }
            if (statement instanceof UtilityStatement.RefreshMaterializedView r) {
                db.ddl().refresh(r.view(), r.concurrently(), variables.backfillRateLimit(), cancelCheck);
                return new StatementResult.Command("REFRESH MATERIALIZED VIEW");
            }
            if (statement instanceof UtilityStatement.ShowTables s) {
                return rows(s, names(RelationKind.TABLE));
            }
            if (statement instanceof UtilityStatement.ShowMaterializedViews s) {
                return rows(s, names(RelationKind.MATERIALIZED_VIEW));
            }
            if (statement instanceof UtilityStatement.ShowSources s) {
                return rows(s, names(RelationKind.SOURCE));
            }
            if (statement instanceof UtilityStatement.ShowColumns s) {
                return rows(s, showColumns(s.table()));
            }
            if (statement instanceof UtilityStatement.ShowVariable s) {
                return rows(
                        s,
                        s.name().equals("all")
                                ? variables.all()
                                : List.<Object[]>of(new Object[] {variables.get(s.name())}));
            }
            if (statement instanceof UtilityStatement.SetVariable s) {
                variables.set(s.name(), s.value());
                return new StatementResult.Command("SET");
            }
            if (statement instanceof UtilityStatement.SetConfig c) {
                // is_local: SET LOCAL, which Tributary applies as SET (each statement is its own transaction)
                variables.set(c.name(), c.value());
                return rows(c, List.<Object[]>of(new Object[] {variables.get(c.name())}));
            }
            if (statement instanceof UtilityStatement.Sleep c) {
                sleep(c.micros());
                // void's output function prints nothing: an empty value, not NULL
                return rows(c, List.<Object[]>of(new Object[] {""}));
            }
            if (statement instanceof UtilityStatement.SignalBackend c) {
                return rows(c, List.<Object[]>of(new Object[] {signal(c, notices)}));
            }
            if (statement instanceof UtilityStatement.ResetVariable r) {
                if (r.name().equals("all")) {
                    variables.resetAll();
                } else {
                    variables.set(r.name(), null);
                }
                return new StatementResult.Command("RESET");
            }
            if (statement instanceof UtilityStatement.Flush) {
                db.barriers().flush();
                return new StatementResult.Command("FLUSH");
            }
            if (statement instanceof UtilityStatement.CopyFrom c) {
                return copy(c);
            }
            if (statement instanceof UtilityStatement.NoOp n) {
                return new StatementResult.Command(n.tag());
            }
            throw new IllegalStateException("not a utility handled here: " + statement);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        }
    }

    /**
     * Cancels or ends the session {@code c} names; for a pid that is no session, PostgreSQL's
     * WARNING and false.
     */
    private boolean signal(UtilityStatement.SignalBackend c, Consumer<Session.Notice> notices) {
        int pid = (int) c.pid();
        boolean found = pid == c.pid() && (c.terminate() ? sessions.terminate(pid) : sessions.cancel(pid));
        if (!found) {
            notices.accept(new Session.Notice(
                    "WARNING", SqlState.WARNING, "PID " + c.pid() + " is not a PostgreSQL server process"));
        }
        return found;
    }

    private StatementResult createTable(UtilityStatement.CreateTable c, Consumer<Session.Notice> notices)
            throws InterruptedException {
        boolean created = db.ddl()
                .createTable(
                        c.name(),
                        c.columns(),
                        c.primaryKey(),
                        c.sql(),
                        c.ifNotExists(),
                        c.source() == null ? null : sourceDef(c.source()),
                        c.watermark(),
                        c.checks(),
                        c.kind(),
                        c.uniques(),
                        c.foreignKeys());
        if (!created) {
            notices.accept(new Session.Notice(
                    "NOTICE", SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists, skipping"));
        }
        return new StatementResult.Command(c.kind() == RelationKind.SOURCE ? "CREATE SOURCE" : "CREATE TABLE");
    }

    /** The source as the statement asked for it; the engine fills in what the source tells at open. */
    private static SourceDef sourceDef(UtilityStatement.SourceClause s) {
        return new SourceDef(
                s.connector(),
                s.options(),
                s.format(),
                s.encode(),
                s.formatOptions(),
                null,
                false,
                0,
                SourceDef.UNLIMITED);
    }

    private List<Object[]> names(RelationKind kind) {
        return db.catalog().tables().stream()
                .filter(t -> t.kind() == kind && !t.isInternal())
                .map(t -> new Object[] {t.name()})
                .toList();
    }

    /**
     * Waits {@code micros}, in slices short enough that a cancel or {@code statement_timeout}
     * (both through {@link #cancelCheck}, 57014) ends the wait promptly.
     */
    private void sleep(long micros) throws InterruptedException {
        long deadline = System.nanoTime() + micros * 1000;
        while (true) {
            cancelCheck.run();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Thread.sleep(Math.min(java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left) + 1, 10));
        }
    }

    /** DROP SCHEMA: its contents first (each drop cascading to its readers), then the schemas. */
    private StatementResult dropSchema(UtilityStatement.DropSchema d, Consumer<Session.Notice> notices)
            throws InterruptedException {
        SchemaDrops.Contents contents =
                SchemaDrops.contents(db.catalog(), db.ddl().sinks(), d, notices);
        for (String sink : contents.sinks()) {
            db.ddl().dropSink(sink, true);
        }
        // each drop cascades to what reads it; IF EXISTS skips what an earlier one took
        if (!contents.views().isEmpty()) {
            new PlainViews(db).drop(new UtilityStatement.DropView(contents.views(), true, true), notices);
        }
        if (!contents.materializedViews().isEmpty()) {
            drop(
                    new UtilityStatement.Drop(contents.materializedViews(), RelationKind.MATERIALIZED_VIEW, true, true),
                    notices);
        }
        if (!contents.tables().isEmpty()) {
            drop(new UtilityStatement.Drop(contents.tables(), RelationKind.TABLE, true, true), notices);
        }
        for (String missing : db.ddl().dropSchemas(d.names(), d.ifExists())) {
            notices.accept(new Session.Notice(
                    "NOTICE", SqlState.SUCCESSFUL_COMPLETION, "schema \"" + missing + "\" does not exist, skipping"));
        }
        return new StatementResult.Command("DROP SCHEMA");
    }

    private StatementResult createMaterializedView(
            UtilityStatement.CreateMaterializedView c, Consumer<Session.Notice> notices) throws InterruptedException {
        int parallelism = variables.streamingParallelism();
        boolean created;
        try {
            new CalciteViewPlanner(db.catalog()).checkTimeZone(c.query(), variables.timeZone());
            int actors = parallelism > 0 ? parallelism : DdlController.defaultParallelism();
            created = c.withData()
                    ? db.ddl()
                            .createMaterializedView(
                                    c.name(),
                                    c.query(),
                                    c.sql(),
                                    c.ifNotExists(),
                                    actors,
                                    variables.backgroundDdl(),
                                    variables.backfillRateLimit(),
                                    new ViewBackfillPlacement(variables.remoteBackfill(), variables.fallbackToLocal()),
                                    message -> notices.accept(
                                            new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, message)),
                                    cancelCheck)
                    // WITH NO DATA: the record alone; REFRESH creates the job
                    : db.ddl().createUnpopulatedView(c.name(), c.query(), c.sql(), c.ifNotExists(), actors);
        } catch (TributaryException e) {
            throw e.shifted(c.sql().indexOf(c.query()));
        }
        if (!created) {
            notices.accept(new Session.Notice(
                    "NOTICE", SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists, skipping"));
        } else if (!variables.backgroundDdl() && c.withData()) {
            // PostgreSQL tags a populated view with its row count; in the background it is not known yet
            var view = db.catalog().table(c.name());
            if (view.isPresent()) {
                return new StatementResult.Command(
                        "SELECT " + db.committedRows(view.get().id()));
            }
        }
        return new StatementResult.Command("CREATE MATERIALIZED VIEW");
    }

    /** CREATE SINK FROM a relation, or AS a query (whose errors point into the whole statement). */
    private boolean createSink(UtilityStatement.CreateSink c, Consumer<Session.Notice> notices)
            throws InterruptedException {
        if (c.query() == null) {
            return db.ddl()
                    .createSink(
                            c.name(), c.ifNotExists(), c.relation(), c.options(), c.sql(), variables.sinkRateLimit());
        }
        int parallelism = variables.streamingParallelism();
        try {
            return db.ddl()
                    .createQuerySink(
                            c.name(),
                            c.ifNotExists(),
                            c.query(),
                            c.options(),
                            c.sql(),
                            variables.sinkRateLimit(),
                            parallelism > 0 ? parallelism : DdlController.defaultParallelism(),
                            variables.backfillRateLimit(),
                            message -> notices.accept(
                                    new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, message)),
                            cancelCheck);
        } catch (TributaryException e) {
            throw e.shifted(c.sql().indexOf(c.query()));
        }
    }

    /** What SHOW SINKS says a sink delivers: its relation, or the query of a sink created AS one. */
    private String relationOrQuery(SinkDef sink) {
        return db.catalog()
                .table(sink.relationName())
                .filter(TableDef::isInternal)
                .map(TableDef::query)
                .orElse(sink.relationName());
    }

    private List<Object[]> explain(UtilityStatement.ExplainCreateMaterializedView e) {
        try {
            return db.ddl().explain(e.name(), e.query()).stream()
                    .map(line -> new Object[] {line})
                    .toList();
        } catch (TributaryException error) {
            throw error.shifted(e.sql().indexOf(e.query()));
        }
    }

    private StatementResult drop(UtilityStatement.Drop d, Consumer<Session.Notice> notices)
            throws InterruptedException {
        for (String name : d.names()) {
            db.catalog().view(name).ifPresent(view -> {
                throw new TributaryException(
                        SqlState.WRONG_OBJECT_TYPE,
                        "\"" + view.localName() + "\" is not a " + d.kind().sqlName(),
                        0,
                        null,
                        "Use DROP VIEW to remove a view.",
                        null);
            });
        }
        List<String> existing = d.names().stream()
                .filter(n -> db.catalog().table(n).isPresent())
                .toList();
        new PlainViews(db).dropDependents(existing, d.kind().sqlName(), d.cascade(), notices);
        db.ddl()
                .drop(
                        d.names(),
                        d.kind(),
                        d.ifExists(),
                        d.cascade(),
                        message ->
                                notices.accept(new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, message)));
        return new StatementResult.Command("DROP " + d.kind().sqlName().toUpperCase(java.util.Locale.ROOT));
    }

    private List<Object[]> showColumns(String tableName) {
        TableDef table = EngineSession.requireTable(db, tableName);
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnDef c = table.columns().get(i);
            if (c.hidden()) {
                continue;
            }
            boolean pk = false;
            for (int k : table.primaryKey()) {
                pk |= k == i;
            }
            out.add(new Object[] {c.name(), c.type().sqlName(), c.notNull(), pk});
        }
        return out;
    }

    private StatementResult copy(UtilityStatement.CopyFrom c) {
        if (c.systemTable()) {
            throw SystemTables.cannotChange(db.systemTables().require(c.table()).name());
        }
        TableDef table = EngineSession.requireTable(db, c.table());
        SourceManager.checkWritable(table);
        int[] targets = copyTargets(table, c.columns());
        return new StatementResult.CopyIn(new CopyFromStdin(
                db,
                table,
                targets,
                c.format(),
                cancelCheck,
                variables.implicitFlush(),
                variables.timeZone(),
                transaction.get()));
    }

    /**
     * The columns a COPY FROM fills: as PostgreSQL, a table's generated columns (PROCTIME()) are
     * left out of the default list and refused in an explicit one (42P10), since the engine fills them.
     */
    private static int[] copyTargets(TableDef table, List<String> names) {
        int[] targets = table.targetColumns(names);
        for (int t : targets) {
            ColumnDef column = table.columns().get(t);
            if (column.generated() != null && !names.isEmpty()) {
                throw new TributaryException(
                        SqlState.INVALID_COLUMN_REFERENCE,
                        "column \"" + column.name() + "\" is a generated column",
                        0,
                        "Generated columns cannot be used in COPY.",
                        null,
                        null);
            }
        }
        return java.util.Arrays.stream(targets)
                .filter(t -> table.columns().get(t).generated() == null)
                .toArray();
    }

    private static StatementResult rows(UtilityStatement s, List<Object[]> rows) {
        return new StatementResult.Rows(UtilityResultColumns.of(s), new ListCursor(rows));
    }
}
