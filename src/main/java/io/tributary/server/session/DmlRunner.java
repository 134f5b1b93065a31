package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.Values;
import io.tributary.meta.Database;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.write.ConflictArbiters;
import io.tributary.meta.write.TableWriter;
import io.tributary.meta.write.TransactionWrites;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ResultColumn;
import io.tributary.sql.StatementPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Executes INSERT, UPDATE and DELETE plans: evaluates the rows to change, stages them in a
 * {@link TableWriter} and applies them to the open epoch in one step. Returns the ticket of that
 * epoch so the session can wait for durability. Session thread only.
 */
final class DmlRunner {
    private final Database db;
    private final Runnable cancelCheck;
    private final SessionCurrvals currvals;
    /** The session's zone as of now: text, timestamps and dates assigned to timestamptz columns are read in it. */
    private final Supplier<PgTimeZone> zone;
    /** The session's open transaction block's writes, which hold the rows until COMMIT; null outside one. */
    private final Supplier<TransactionWrites> transaction;

    DmlRunner(
            Database db,
            Runnable cancelCheck,
            SessionCurrvals currvals,
            Supplier<PgTimeZone> zone,
            Supplier<TransactionWrites> transaction) {
        this.db = db;
        this.transaction = transaction;
        this.cancelCheck = cancelCheck;
        this.currvals = currvals;
        this.zone = zone;
    }

    /**
     * Waits until the epoch of {@code ticket} is durable, as DML does with {@code implicit_flush}
     * on; returns at once for {@link TableWriter#HELD}. Session thread.
     */
    static void awaitDurable(Database db, long ticket) {
        if (ticket == TableWriter.HELD) {
            return;
        }
        try {
            db.barriers().awaitCommitted(ticket);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        }
    }

    /**
     * Result of a DML statement: rows affected, the epoch ticket to await, and the RETURNING
     * list's rows (null without RETURNING).
     */
    record Outcome(long rows, long ticket, List<Object[]> returned) {}

    /**
     * @param paramTypes the types the bound {@code params} are canonical values of (declared by
     *     the client, else inferred)
     * @param open opens a query of the statement over its snapshot (the source, the defaults) with parameters
     */
    Outcome insert(
            StatementPlan.Insert plan,
            List<Object> params,
            List<DataType> paramTypes,
            BiFunction<PreparedQuery, List<Object>, QueryCursor> open) {
        TableDef table = plan.table();
        int[] targets = plan.targetColumns();
        List<Object[]> rows = plan.returning() != null && plan.conflict() == null ? new ArrayList<>() : null;
        try (TableWriter writer = db.newTableWriter(table);
                DefaultRows defaultRows = new DefaultRows(n -> open.apply(plan.defaults(), List.of(n)))) {
            ColumnFill fill = new ColumnFill(
                    plan,
                    plan.defaultsPerRow() ? defaultRows::next : () -> oneRow(open.apply(plan.defaults(), List.of())),
                    db.sequences());
            if (plan.conflict() != null) {
                StatementPlan.Conflict conflict = plan.conflict();
                writer.onConflict(
                        conflictAction(plan),
                        !conflict.doNothing(),
                        conflict.indexArbiters().isEmpty()
                                ? null
                                : new ConflictArbiters(table, conflict.keyArbiter(), conflict.indexArbiters()));
            }
            if (plan.literalRows() != null) {
                for (Object[] literal : plan.literalRows()) {
                    Object[] row = new Object[table.columns().size()];
                    fill.nextRow();
                    for (int i = 0; i < targets.length; i++) {
                        DataType target = table.columns().get(targets[i]).type();
                        row[targets[i]] = literal[i] == StatementPlan.DEFAULT
                                ? fill.value(targets[i])
                                : literal[i] instanceof StatementPlan.ParamRef p
                                        ? Values.assign(
                                                params.get(p.index() - 1),
                                                paramTypes.get(p.index() - 1),
                                                target,
                                                zone.get())
                                        : Values.assign(literal[i], null, target, zone.get());
                    }
                    fill.omitted(row);
                    writer.insert(row);
                    if (rows != null) {
                        rows.add(row);
                    }
                }
            } else {
                List<ResultColumn> columns = plan.source().columns();
                try (QueryCursor cursor = open.apply(plan.source(), params)) {
                    Object[] in;
                    while ((in = cursor.next()) != null) {
                        if ((writer.count() & 1023) == 0) {
                            cancelCheck.run();
                        }
                        Object[] row = new Object[table.columns().size()];
                        fill.nextRow();
                        for (int i = 0; i < targets.length; i++) {
                            row[targets[i]] = Values.assign(
                                    in[i],
                                    columns.get(i).type(),
                                    table.columns().get(targets[i]).type(),
                                    zone.get());
                        }
                        fill.omitted(row);
                        writer.insert(row);
                        if (rows != null) {
                            rows.add(row);
                        }
                    }
                }
            }
            cancelCheck.run();
            List<Object[]> returned = rows == null ? null : returning(plan.returning(), rows);
            List<EpochChange> alongside = fill.sequencePositions();
            List<List<Object[]>> resolvedReturned = new ArrayList<>(1);
            if (plan.conflict() != null && plan.returning() != null) {
                // evaluated while staging, so an error in it refuses the rows too
                writer.onWritten(written -> resolvedReturned.add(returning(plan.returning(), written)));
            }
            long ticket = writer.apply(transaction.get(), alongside);
            fill.reportTaken(currvals);
            long count = plan.conflict() != null ? writer.written().size() : writer.count();
            return new Outcome(count, ticket, resolvedReturned.isEmpty() ? returned : resolvedReturned.get(0));
        }
    }

    /** The single row of {@code cursor} (the DEFAULT expressions' values); closes it. */
    private static Object[] oneRow(QueryCursor cursor) {
        try (cursor) {
            return cursor.next();
        }
    }

    /** What ON CONFLICT does with a stored key: nothing, or DO UPDATE's new row. */
    private TableWriter.ConflictAction conflictAction(StatementPlan.Insert plan) {
        StatementPlan.Conflict conflict = plan.conflict();
        if (conflict.doNothing()) {
            return (existing, proposed) -> null;
        }
        TableDef table = plan.table();
        int[] visible = table.targetColumns(List.of());
        List<ResultColumn> columns = conflict.update().columns();
        return (existing, proposed) -> {
            Object[] params = new Object[visible.length * 2];
            for (int i = 0; i < visible.length; i++) {
                params[i] = existing[visible[i]];
                params[visible.length + i] = proposed[visible[i]];
            }
            Object[] out;
            try (QueryCursor cursor = conflict.update().open(Arrays.asList(params))) {
                out = cursor.next();
            }
            int[] set = conflict.setColumns();
            if (conflict.hasWhere() && !Boolean.TRUE.equals(out[set.length])) {
                return null;
            }
            Object[] row = existing.clone();
            for (int i = 0; i < set.length; i++) {
                row[set[i]] = Values.assign(
                        out[i],
                        columns.get(i).type(),
                        table.columns().get(set[i]).type(),
                        zone.get());
            }
            return row;
        };
    }

    /**
     * The RETURNING list's values for each written row (full width, followed by the {@link
     * StatementPlan.Returning#joinedColumns} values of the rows it was joined with), in order.
     */
    static List<Object[]> returning(StatementPlan.Returning returning, List<Object[]> rows) {
        int[] visible = returning.visibleColumns();
        int joined = returning.joinedColumns();
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] params = new Object[visible.length + joined];
            for (int i = 0; i < visible.length; i++) {
                params[i] = row[visible[i]];
            }
            System.arraycopy(row, row.length - joined, params, visible.length, joined);
            try (QueryCursor cursor = returning.query().open(Arrays.asList(params))) {
                out.add(cursor.next());
            }
        }
        return out;
    }

    /**
     * Runs an UPDATE over the rows of {@code cursor} (its plan's query). For UPDATE ... FROM a row
     * that joins several rows comes once per joined row and only its first coming is applied: the
     * first in the order the plan produces them, which PostgreSQL leaves unspecified.
     */
    Outcome update(StatementPlan.Update plan, QueryCursor cursor) {
        List<Object[]> rowsOut = plan.returning() != null ? new ArrayList<>() : null;
        int joined = plan.returning() != null ? plan.returning().joinedColumns() : 0;
        TableDef table = plan.table();
        int width = table.columns().size();
        int[] targets = plan.targetColumns();
        List<ResultColumn> columns = plan.query().columns();
        List<Object[]> keyChanged = new ArrayList<>();
        Set<RowKey> seen = plan.joined() ? new HashSet<>() : null;
        try (TableWriter writer = db.newTableWriter(table);
                cursor) {
            writer.updates();
            long rows = 0;
            Object[] in;
            while ((in = cursor.next()) != null) {
                if (seen != null && !seen.add(RowKey.of(table, in))) {
                    continue;
                }
                if ((++rows & 1023) == 0) {
                    cancelCheck.run();
                }
                Object[] oldRow = Arrays.copyOf(in, width);
                Object[] newRow = oldRow.clone();
                for (int i = 0; i < targets.length; i++) {
                    DataType target = table.columns().get(targets[i]).type();
                    newRow[targets[i]] =
                            Values.assign(in[width + i], columns.get(width + i).type(), target, zone.get());
                }
                if (rowsOut != null) {
                    rowsOut.add(joined == 0 ? newRow : withJoined(newRow, in, joined));
                }
                if (samePrimaryKey(table, oldRow, newRow)) {
                    writer.replace(newRow);
                } else {
                    writer.move(oldRow, newRow);
                    keyChanged.add(newRow);
                }
            }
            // Keys moved by this statement are inserted after all deletes so rows can swap keys.
            for (Object[] row : keyChanged) {
                writer.insert(row);
            }
            cancelCheck.run();
            List<Object[]> returned = rowsOut == null ? null : returning(plan.returning(), rowsOut);
            return new Outcome(rows, writer.apply(transaction.get(), List.of()), returned);
        }
    }

    /**
     * Runs a DELETE over the rows of {@code cursor}; for DELETE ... USING a row joined several
     * times is deleted (and returned) once, with the first row it joins, as {@link #update}.
     */
    Outcome delete(StatementPlan.Delete plan, QueryCursor cursor) {
        List<Object[]> rowsOut = plan.returning() != null ? new ArrayList<>() : null;
        int joined = plan.returning() != null ? plan.returning().joinedColumns() : 0;
        TableDef table = plan.table();
        int width = table.columns().size();
        Set<RowKey> seen = plan.joined() ? new HashSet<>() : null;
        try (TableWriter writer = db.newTableWriter(table);
                cursor) {
            Object[] in;
            while ((in = cursor.next()) != null) {
                if (seen != null && !seen.add(RowKey.of(table, in))) {
                    continue;
                }
                if ((writer.count() & 1023) == 0) {
                    cancelCheck.run();
                }
                Object[] row = plan.joined() ? Arrays.copyOf(in, width) : in;
                writer.delete(row);
                if (rowsOut != null) {
                    rowsOut.add(joined == 0 ? row : withJoined(row, in, joined));
                }
            }
            cancelCheck.run();
            List<Object[]> returned = rowsOut == null ? null : returning(plan.returning(), rowsOut);
            return new Outcome(writer.count(), writer.apply(transaction.get(), List.of()), returned);
        }
    }

    /** {@code row} followed by the last {@code joined} values of the query's row {@code in}. */
    private static Object[] withJoined(Object[] row, Object[] in, int joined) {
        Object[] out = Arrays.copyOf(row, row.length + joined);
        System.arraycopy(in, in.length - joined, out, row.length, joined);
        return out;
    }

    private static boolean samePrimaryKey(TableDef table, Object[] a, Object[] b) {
        for (int i : table.primaryKey()) {
            if (!java.util.Objects.deepEquals(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }
}
