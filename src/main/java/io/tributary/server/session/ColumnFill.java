package io.tributary.server.session;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Values;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.write.Sequences;
import io.tributary.sql.StatementPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The values an INSERT stores in columns it leaves out or sets to DEFAULT: the next value of an
 * identity or SERIAL column's sequence (per row), the DEFAULT expressions' values, else NULL. The
 * DEFAULT expressions are one compiled query: run once per statement (PostgreSQL's {@code now()}
 * is the transaction's), or once per row ({@link #nextRow}) when one of them calls a function whose
 * value differs from row to row ({@code gen_random_uuid()}), as PostgreSQL evaluates it. Remembers
 * which sequences the statement used, so their positions commit with its rows. One statement, its
 * session's thread.
 */
final class ColumnFill {
    private final TableDef table;
    private final Sequences sequences;
    private final int[] expressionColumns;
    /** Runs the DEFAULT expressions' query for each row; null when one run serves the statement. */
    private final Supplier<Object[]> perRow;
    /** The DEFAULT expressions' values for the current row (all rows when {@link #perRow} is null). */
    private Object[] expressionValues;

    private final List<DataType> expressionTypes;
    /** Visible columns the statement does not name and that have a default or identity. */
    private final int[] omitted;

    private final boolean[] sequenceUsed;
    /** Per column, the last value its sequence gave this statement (where {@link #sequenceUsed}). */
    private final long[] lastTaken;

    /**
     * @param evaluate the plan's DEFAULT expressions' values (unused without them): called once, or
     *     once per row when {@link StatementPlan.Insert#defaultsPerRow}
     */
    ColumnFill(StatementPlan.Insert plan, Supplier<Object[]> evaluate, Sequences sequences) {
        this(
                plan.table(),
                plan.targetColumns(),
                plan.defaultColumns(),
                plan.defaults() == null ? null : plan.defaultsPerRow() ? null : evaluate.get(),
                plan.defaults() != null && plan.defaultsPerRow() ? evaluate : null,
                plan.defaults() == null
                        ? List.of()
                        : plan.defaults().columns().stream().map(c -> c.type()).toList(),
                sequences);
    }

    /**
     * For COPY, which fills identity and SERIAL columns it leaves out.
     *
     * @throws TributaryException 0A000 when it leaves out a column with a DEFAULT expression
     */
    static ColumnFill forCopy(TableDef table, int[] targets, Sequences sequences) {
        ColumnFill fill = new ColumnFill(table, targets, new int[0], null, null, List.of(), sequences);
        for (int c : fill.omitted) {
            if (table.columns().get(c).defaultExpr() != null) {
                throw TributaryException.notSupported("COPY leaving out column \""
                        + table.columns().get(c).name() + "\", which has a DEFAULT expression,");
            }
        }
        return fill;
    }

    private ColumnFill(
            TableDef table,
            int[] targets,
            int[] expressionColumns,
            Object[] expressionValues,
            Supplier<Object[]> perRow,
            List<DataType> expressionTypes,
            Sequences sequences) {
        this.table = table;
        this.sequences = sequences;
        this.expressionColumns = expressionColumns;
        this.expressionValues = expressionValues;
        this.perRow = perRow;
        this.expressionTypes = expressionTypes;
        List<ColumnDef> columns = table.columns();
        boolean[] named = new boolean[columns.size()];
        for (int t : targets) {
            named[t] = true;
        }
        this.omitted = java.util.stream.IntStream.range(0, columns.size())
                .filter(c ->
                        !named[c] && !columns.get(c).hidden() && columns.get(c).hasDefault())
                .toArray();
        this.sequenceUsed = new boolean[columns.size()];
        this.lastTaken = new long[columns.size()];
    }

    /** Starts a row: runs the DEFAULT expressions again when their values differ from row to row. */
    void nextRow() {
        if (perRow != null) {
            expressionValues = perRow.get();
        }
    }

    /** Fills the columns the statement leaves out, in a full-width row. */
    void omitted(Object[] row) {
        for (int c : omitted) {
            row[c] = value(c);
        }
    }

    /** The value column {@code c} takes by default, converted to its type. */
    Object value(int c) {
        ColumnDef column = table.columns().get(c);
        if (column.identity() != null) {
            sequenceUsed[c] = true;
            lastTaken[c] = sequences.next(table.id(), c);
            return Values.assign(lastTaken[c], DataType.BIGINT, column.type());
        }
        for (int i = 0; i < expressionColumns.length; i++) {
            if (expressionColumns[i] == c) {
                return Values.assign(expressionValues[i], expressionTypes.get(i), column.type());
            }
        }
        return null;
    }

    /** Tells the session which value each sequence the statement used gave last, for currval. */
    void reportTaken(SessionCurrvals currvals) {
        for (int c = 0; c < sequenceUsed.length; c++) {
            if (sequenceUsed[c]) {
                currvals.record(table.id(), c, lastTaken[c]);
            }
        }
    }

    /** The positions of the sequences the statement used, to stage with its rows. */
    List<EpochChange> sequencePositions() {
        List<EpochChange> out = new ArrayList<>();
        for (int c = 0; c < sequenceUsed.length; c++) {
            if (sequenceUsed[c]) {
                out.add(sequences.persist(table.id(), c));
            }
        }
        return out;
    }
}
