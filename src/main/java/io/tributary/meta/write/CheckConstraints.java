package io.tributary.meta.write;

import io.tributary.catalog.CheckDef;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTextFormat;
import io.tributary.plan.ScalarExpr;
import java.util.Comparator;
import java.util.List;

/**
 * One table's CHECK constraints, planned once, evaluated on each row a {@link TableWriter} stages.
 * Immutable and thread-safe (the compiled conditions keep no state), so writers of one table share
 * it; {@link TableChecks} keeps one per table.
 */
public final class CheckConstraints {
    private final TableDef table;
    private final String[] names;
    private final ScalarExpr[] conditions;

    /**
     * @param table the table as the writer has it; its checks are tested in name order, as
     *     PostgreSQL sorts a relation's check constraints by name
     * @param conditions each check's condition over the full-width row, in {@code table.checks()}' order
     */
    CheckConstraints(TableDef table, List<ScalarExpr> conditions) {
        this.table = table;
        Integer[] order = new Integer[conditions.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order, Comparator.comparing(i -> table.checks().get(i).name()));
        this.names = new String[order.length];
        this.conditions = new ScalarExpr[order.length];
        for (int i = 0; i < order.length; i++) {
            names[i] = table.checks().get(order[i]).name();
            this.conditions[i] = conditions.get(order[i]);
        }
    }

    /**
     * Refuses a statement's rows, tested against {@code tested}'s checks, when {@code current} (the
     * table's definition at staging) has a check {@code tested} lacks: an ALTER TABLE ... ADD CHECK
     * committed after the rows were tested. Called by a writer's staging, under the barrier lock.
     *
     * @throws TributaryException 40001 then
     */
    static void refuseAddedSince(TableDef tested, TableDef current) {
        if (current.checks() != tested.checks() && !tested.checks().containsAll(current.checks())) {
            throw new TributaryException(
                    SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: a CHECK constraint was added to relation \"" + tested.localName()
                            + "\" while the statement ran");
        }
    }

    /** The checks the constraints were planned from, to tell whether a newer definition replaced them. */
    List<CheckDef> planned() {
        return table.checks();
    }

    /** Whether {@code other} has the columns these constraints were planned over. */
    boolean columnsOf(TableDef other) {
        return ColumnDef.sameShape(other.columns(), table.columns());
    }

    /**
     * Evaluates every condition on {@code row} (full width, canonical values); a NULL result passes,
     * as in PostgreSQL. Called on the writing statement's thread.
     *
     * @throws TributaryException 23514 naming the first failing constraint, with the row in its DETAIL
     */
    public void check(Object[] row) {
        for (int i = 0; i < conditions.length; i++) {
            if (Boolean.FALSE.equals(conditions[i].eval(row))) {
                throw new TributaryException(
                        SqlState.CHECK_VIOLATION,
                        "new row for relation \"" + table.localName() + "\" violates check constraint \"" + names[i]
                                + "\"",
                        failingRow(table, row),
                        new TributaryException.ErrorObject(table.schema(), table.localName(), null, names[i]));
            }
        }
    }

    /**
     * PostgreSQL's DETAIL of a row that broke a NOT NULL or CHECK constraint: {@code Failing row
     * contains (1, abc, null).}, the visible columns' text forms.
     */
    static String failingRow(TableDef table, Object[] row) {
        StringBuilder out = new StringBuilder("Failing row contains (");
        List<ColumnDef> columns = table.columns();
        boolean first = true;
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).hidden()) {
                continue;
            }
            if (!first) {
                out.append(", ");
            }
            first = false;
            out.append(
                    row[i] == null ? "null" : PgTextFormat.format(columns.get(i).type(), row[i]));
        }
        return out.append(").").toString();
    }
}
