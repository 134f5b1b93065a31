package io.tributary.server.session;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.meta.write.TransactionWrites;
import io.tributary.sql.UtilityStatement;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A session's transaction block, with PostgreSQL's states: idle ('I'), in a block ('T') and in a
 * failed block ('E', after any error, where only COMMIT or ROLLBACK run). The block's writes
 * ({@link TransactionWrites}) and its snapshot are taken at its first statement that reads or
 * writes a table and end at COMMIT (staged as one epoch change) or ROLLBACK (dropped). Every block is
 * REPEATABLE READ. Savepoints are named marks in those writes; ROLLBACK TO one also brings a failed
 * block back to 'T'. Session thread only.
 */
final class TransactionBlock {
    /** Statements that end a block, the only ones a failed block runs (PostgreSQL's transaction-exit statements). */
    private static final Pattern ENDS_BLOCK = Pattern.compile("(?is)\\s*(commit|end|rollback|abort)\\b.*");

    /** The utility statements a block runs; see {@link #runsInBlock}. */
    private static final java.util.Set<Class<?>> IN_BLOCK = java.util.Set.of(
            UtilityStatement.SetVariable.class,
            UtilityStatement.ResetVariable.class,
            UtilityStatement.ShowVariable.class,
            UtilityStatement.SetConfig.class,
            UtilityStatement.ShowTables.class,
            UtilityStatement.ShowMaterializedViews.class,
            UtilityStatement.ShowColumns.class,
            UtilityStatement.ShowSinks.class,
            UtilityStatement.ShowSources.class,
            UtilityStatement.ShowJobs.class,
            UtilityStatement.CopyFrom.class,
            UtilityStatement.CopyTo.class,
            UtilityStatement.CopySnapshot.class,
            UtilityStatement.Prepare.class,
            UtilityStatement.Execute.class,
            UtilityStatement.Deallocate.class,
            UtilityStatement.ExplainQuery.class,
            UtilityStatement.Lock.class,
            UtilityStatement.OwnerChange.class,
            UtilityStatement.Flush.class,
            UtilityStatement.Wait.class,
            UtilityStatement.RefreshMaterializedView.class,
            UtilityStatement.Sleep.class,
            UtilityStatement.SignalBackend.class);

    private final Database db;
    private char status = 'I';
    /** The block's writes and snapshot; null until its first statement that needs them. */
    private TransactionWrites writes;
    /**
     * The block's savepoints, oldest first; the i-th is the writes' savepoint number i + 1. A name
     * may repeat: the newest of a name is the one a statement naming it means, as in PostgreSQL.
     */
    private final java.util.List<String> savepoints = new java.util.ArrayList<>();

    /** The session's transaction_max_rows as of now. */
    private final java.util.function.IntSupplier maxRows;

    TransactionBlock(Database db, java.util.function.IntSupplier maxRows) {
        this.db = db;
        this.maxRows = maxRows;
    }

    /** The ReadyForQuery status: 'I', 'T' or 'E'. */
    char status() {
        return status;
    }

    /**
     * The open block's writes, its snapshot taken now if this is its first statement to read or
     * write; null outside a block (statements then commit on their own).
     */
    TransactionWrites writes() {
        if (status == 'I') {
            return null;
        }
        if (writes == null) {
            writes = new TransactionWrites(db.snapshots().openView(), maxRows.getAsInt());
            // savepoints set before the first write mark the empty start
            for (int i = 0; i < savepoints.size(); i++) {
                writes.savepoint();
            }
        }
        return writes;
    }

    /**
     * Refuses any statement but COMMIT or ROLLBACK in a failed block, as PostgreSQL does before
     * even analysing it.
     *
     * @throws TributaryException 25P02
     */
    void refuseIfFailed(String sql) {
        if (status == 'E' && !ENDS_BLOCK.matcher(sql).matches()) {
            throw aborted();
        }
    }

    /** Like {@link #refuseIfFailed} for a statement already parsed. */
    void refuseIfFailed(io.tributary.sql.StatementPlan plan) {
        if (status == 'E'
                && !(plan instanceof io.tributary.sql.StatementPlan.Utility u
                        && (u.statement() instanceof UtilityStatement.Transaction
                                || u.statement() instanceof UtilityStatement.Savepoint s
                                        && s.verb() == UtilityStatement.SavepointVerb.ROLLBACK_TO))) {
            throw aborted();
        }
    }

    private static TributaryException aborted() {
        return new TributaryException(
                SqlState.IN_FAILED_SQL_TRANSACTION,
                "current transaction is aborted, commands ignored until end of transaction block");
    }

    /**
     * Refuses DDL and other statements that commit on their own inside a block: they would be
     * committed apart from the block's rows (and before them), which PostgreSQL never does.
     *
     * @throws TributaryException 0A000 naming the statement
     */
    void refuseInBlock(String what) {
        if (status != 'I') {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    what + " cannot run inside a transaction block in Tributary",
                    0,
                    null,
                    "Run it after COMMIT or ROLLBACK; only INSERT, UPDATE, DELETE, COPY FROM and queries"
                            + " take part in a transaction.",
                    null);
        }
    }

    /**
     * Whether {@code statement} may run inside a block: it changes no table definition and commits
     * nothing apart from the block (settings, queries, COPY, prepared statements, LOCK, FLUSH).
     */
    static boolean runsInBlock(UtilityStatement statement) {
        if (statement instanceof UtilityStatement.NoOp n) {
            // PostgreSQL refuses DISCARD ALL in a block too (25001)
            return !n.tag().equals("DISCARD ALL");
        }
        return IN_BLOCK.contains(statement.getClass());
    }

    /** The statement's name for an error: its kind in words, {@code CreateTable} as "CREATE TABLE". */
    static String statementName(UtilityStatement statement) {
        if (statement instanceof UtilityStatement.NoOp n) {
            return n.tag();
        }
        return statement
                .getClass()
                .getSimpleName()
                .replaceAll("(?<=[a-z])(?=[A-Z])", " ")
                .toUpperCase(java.util.Locale.ROOT);
    }

    /** A statement failed: a block becomes a failed block. */
    void failed() {
        if (status == 'T') {
            status = 'E';
        }
    }

    /**
     * BEGIN or START TRANSACTION, answered with {@code tag}: a nested one warns 25001 and changes
     * nothing, as in PostgreSQL.
     */
    StatementResult begin(Consumer<Session.Notice> notices, String tag) {
        if (status != 'I') {
            notices.accept(new Session.Notice(
                    "WARNING", SqlState.ACTIVE_SQL_TRANSACTION, "there is already a transaction in progress"));
        } else {
            status = 'T';
        }
        return new StatementResult.Command(tag);
    }

    /**
     * COMMIT: stages the block's rows as one change of the open epoch and, with {@code durable},
     * returns once that epoch is durable. A failed block is rolled back instead and reports
     * ROLLBACK; outside a block it warns 25P01. The block ends even when the commit is refused.
     *
     * @throws TributaryException 23505 or 40001 when another session committed a conflicting row
     *     (nothing of the block is applied)
     */
    StatementResult commit(Consumer<Session.Notice> notices, boolean durable) {
        if (status == 'I') {
            notices.accept(noTransaction());
            return new StatementResult.Command("COMMIT");
        }
        if (status == 'E') {
            end();
            return new StatementResult.Command("ROLLBACK");
        }
        long ticket;
        try {
            ticket = writes == null ? TableWriter.HELD : writes.commit(db.barriers());
        } finally {
            end();
        }
        if (durable) {
            DmlRunner.awaitDurable(db, ticket);
        }
        return new StatementResult.Command("COMMIT");
    }

    /** ROLLBACK: drops the block's rows; outside a block it warns 25P01. */
    StatementResult rollback(Consumer<Session.Notice> notices) {
        if (status == 'I') {
            notices.accept(noTransaction());
        }
        end();
        return new StatementResult.Command("ROLLBACK");
    }

    /**
     * SAVEPOINT, RELEASE or ROLLBACK TO, answered with PostgreSQL's tags. ROLLBACK TO undoes the
     * block's writes since the savepoint, keeps it and drops the later ones, and returns a failed
     * block to 'T'; RELEASE drops it and the later ones and keeps the writes. A failed block only
     * gets here for ROLLBACK TO ({@link #refuseIfFailed}).
     *
     * @throws TributaryException 25P01 outside a block, 3B001 for a name no savepoint of the block has
     */
    StatementResult savepoint(UtilityStatement.Savepoint statement) {
        String what = switch (statement.verb()) {
            case SET -> "SAVEPOINT";
            case RELEASE -> "RELEASE SAVEPOINT";
            case ROLLBACK_TO -> "ROLLBACK TO SAVEPOINT";
        };
        if (status == 'I') {
            throw new TributaryException(
                    SqlState.NO_ACTIVE_SQL_TRANSACTION, what + " can only be used in transaction blocks");
        }
        if (statement.verb() == UtilityStatement.SavepointVerb.SET) {
            savepoints.add(statement.name());
            if (writes != null) {
                writes.savepoint();
            }
            return new StatementResult.Command("SAVEPOINT");
        }
        int number = savepoints.lastIndexOf(statement.name()) + 1;
        if (number == 0) {
            throw new TributaryException(
                    SqlState.INVALID_SAVEPOINT_SPECIFICATION, "savepoint \"" + statement.name() + "\" does not exist");
        }
        if (statement.verb() == UtilityStatement.SavepointVerb.RELEASE) {
            savepoints.subList(number - 1, savepoints.size()).clear();
            if (writes != null) {
                writes.release(number);
            }
            return new StatementResult.Command("RELEASE");
        }
        savepoints.subList(number, savepoints.size()).clear();
        if (writes != null) {
            writes.rollbackTo(number);
        }
        status = 'T';
        return new StatementResult.Command("ROLLBACK");
    }

    private static Session.Notice noTransaction() {
        return new Session.Notice("WARNING", SqlState.NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
    }

    /** Ends the block, dropping what it holds; also when the session closes. */
    void end() {
        status = 'I';
        savepoints.clear();
        if (writes != null) {
            TransactionWrites held = writes;
            writes = null;
            held.close();
        }
    }
}
