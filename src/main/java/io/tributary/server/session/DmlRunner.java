package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Values;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ResultColumn;
import io.tributary.sql.StatementPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Executes INSERT, UPDATE and DELETE plans: evaluates the rows to change, stages them in a
 * {@link TableWriter} and applies them to the open epoch in one step. Returns the ticket of that
 * epoch so the session can wait for durability. Session thread only.
 */
final class DmlRunner {
    private final Database db;
    private final Runnable cancelCheck;

    DmlRunner(Database db, Runnable cancelCheck) {
        this.db = db;
        this.cancelCheck = cancelCheck;
    }

    /**
     * Waits until the epoch of {@code ticket} is durable, as DML does with {@code implicit_flush}
     * on. Session thread.
     */
    static void awaitDurable(Database db, long ticket) {
        try {
            db.barriers().awaitCommitted(ticket);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TributaryException.queryCanceled();
        }
    }

    /** Result of a DML statement: rows affected and the epoch ticket to await. */
    record Outcome(long rows, long ticket) {}

    /**
     * @param paramTypes the types the bound {@code params} are canonical values of (declared by
     *     the client, else inferred)
     */
    Outcome insert(
            StatementPlan.Insert plan, List<Object> params, List<DataType> paramTypes, Supplier<QueryCursor> source) {
        TableDef table = plan.table();
        int[] targets = plan.targetColumns();
        try (TableWriter writer = db.newTableWriter(table)) {
            if (plan.literalRows() != null) {
                for (Object[] literal : plan.literalRows()) {
                    Object[] row = new Object[table.columns().size()];
                    for (int i = 0; i < targets.length; i++) {
                        DataType target = table.columns().get(targets[i]).type();
                        row[targets[i]] = literal[i] instanceof StatementPlan.ParamRef p
                                ? Values.assign(params.get(p.index() - 1), paramTypes.get(p.index() - 1), target)
                                : Values.assign(literal[i], null, target);
                    }
                    writer.insert(row);
                }
            } else {
                List<ResultColumn> columns = plan.source().columns();
                try (QueryCursor cursor = source.get()) {
                    Object[] in;
                    while ((in = cursor.next()) != null) {
                        if ((writer.count() & 1023) == 0) {
                            cancelCheck.run();
                        }
                        Object[] row = new Object[table.columns().size()];
                        for (int i = 0; i < targets.length; i++) {
                            row[targets[i]] = Values.assign(
                                    in[i],
                                    columns.get(i).type(),
                                    table.columns().get(targets[i]).type());
                        }
                        writer.insert(row);
                    }
                }
            }
            cancelCheck.run();
            return new Outcome(writer.count(), writer.apply());
        }
    }

    Outcome update(StatementPlan.Update plan, QueryCursor cursor) {
        TableDef table = plan.table();
        int width = table.columns().size();
        int[] targets = plan.targetColumns();
        List<ResultColumn> columns = plan.query().columns();
        List<Object[]> keyChanged = new ArrayList<>();
        try (TableWriter writer = db.newTableWriter(table);
                cursor) {
            long rows = 0;
            Object[] in;
            while ((in = cursor.next()) != null) {
                if ((++rows & 1023) == 0) {
                    cancelCheck.run();
                }
                Object[] oldRow = Arrays.copyOf(in, width);
                Object[] newRow = oldRow.clone();
                for (int i = 0; i < targets.length; i++) {
                    DataType target = table.columns().get(targets[i]).type();
                    newRow[targets[i]] =
                            Values.assign(in[width + i], columns.get(width + i).type(), target);
                }
                if (samePrimaryKey(table, oldRow, newRow)) {
                    writer.replace(newRow);
                } else {
                    writer.delete(oldRow);
                    keyChanged.add(newRow);
                }
            }
            // Keys moved by this statement are inserted after all deletes so rows can swap keys.
            for (Object[] row : keyChanged) {
                writer.insert(row);
            }
            cancelCheck.run();
            return new Outcome(rows, writer.apply());
        }
    }

    Outcome delete(StatementPlan.Delete plan, QueryCursor cursor) {
        try (TableWriter writer = db.newTableWriter(plan.table());
                cursor) {
            Object[] in;
            while ((in = cursor.next()) != null) {
                if ((writer.count() & 1023) == 0) {
                    cancelCheck.run();
                }
                writer.delete(in);
            }
            cancelCheck.run();
            return new Outcome(writer.count(), writer.apply());
        }
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
