package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.StatementPlan;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * Plans INSERT statements for one session's {@link CalciteFrontend}: constant rows are kept as
 * values (no query planned unless DEFAULT expressions fill omitted columns), other sources as a
 * query; with the statement's ON CONFLICT action and RETURNING list. Owned by one session; not
 * thread-safe.
 */
final class InsertPlanner {
    private final DmlTargets targets;
    private final DmlQueries queries;

    InsertPlanner(DmlTargets targets, DmlQueries queries) {
        this.targets = targets;
        this.queries = queries;
    }

    /**
     * The plan of {@code insert}, parsed from the client's statement {@code original} with its
     * parameters as {@code rewritten} numbered them, and its {@code clauses} (DEFAULT VALUES, ON
     * CONFLICT, RETURNING; null when it has none).
     */
    StatementPlan plan(SqlInsert insert, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = targets.table(insert.getTargetTable());
        boolean defaultValues = clauses != null && clauses.defaultValues();
        int[] targets = defaultValues ? new int[0] : DmlTargets.columns(table, insert.getTargetColumnList());
        SqlNode source = insert.getSource();
        List<Object[]> literalRows = defaultValues
                ? List.<Object[]>of(new Object[0])
                : source.getKind() == SqlKind.VALUES
                        ? InsertSources.literalRows((SqlCall) source, rewritten.order(), table, targets)
                        : null;
        StatementPlan.Conflict conflict = clauses != null ? conflict(table, clauses.onConflict()) : null;
        StatementPlan.Returning returning = DmlReturning.plan(queries, clauses, table, table.localName());
        boolean allColumns = insert.getTargetColumnList() == null && !defaultValues;
        if (literalRows != null) {
            return constants(table, targets, allColumns, literalRows, rewritten.parameterCount(), conflict, returning);
        }
        InsertDefaults.replaceDefaultCells(source, table, targets);
        InsertSources.typeBareParameters(source, table, targets);
        PreparedQuery query =
                queries.prepare(source, rewritten.order(), rewritten.parameterCount(), rewritten.sql(), original);
        if (allColumns && query.columns().size() < targets.length) {
            targets = Arrays.copyOf(targets, query.columns().size());
        }
        InsertSources.checkArity(query.columns().size(), targets.length);
        InsertDefaults.checkGeneratedAlways(table, targets, null);
        int[] defaultColumns = InsertDefaults.expressionColumns(table, targets, null);
        Defaults defaults = defaults(table, defaultColumns);
        return new StatementPlan.Insert(
                table,
                targets,
                null,
                query,
                query.paramTypes(),
                defaults.query(),
                defaults.perRow(),
                defaultColumns,
                conflict,
                returning);
    }

    /**
     * The plan of an INSERT of constant rows (cells as {@link InsertSources#literalRows} makes them):
     * no query is planned unless the omitted columns have DEFAULT expressions.
     *
     * @param allColumns whether the statement lists no columns, so a shorter row fills the rest with defaults
     */
    StatementPlan constants(
            TableDef table,
            int[] targets,
            boolean allColumns,
            List<Object[]> literalRows,
            int parameterCount,
            StatementPlan.Conflict conflict,
            StatementPlan.Returning returning) {
        if (allColumns && literalRows.get(0).length < targets.length) {
            // PostgreSQL fills the columns a shorter VALUES list leaves out with their defaults
            targets = Arrays.copyOf(targets, literalRows.get(0).length);
        }
        for (Object[] row : literalRows) {
            InsertSources.checkArity(row.length, targets.length);
        }
        InsertDefaults.checkGeneratedAlways(table, targets, literalRows);
        DataType[] types = new DataType[parameterCount];
        for (Object[] row : literalRows) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] instanceof StatementPlan.ParamRef p && types[p.index() - 1] == null) {
                    types[p.index() - 1] = table.columns().get(targets[i]).type();
                }
            }
        }
        for (int i = 0; i < types.length; i++) {
            if (types[i] == null) {
                types[i] = DataType.TEXT;
            }
        }
        int[] defaultColumns = InsertDefaults.expressionColumns(table, targets, literalRows);
        Defaults defaults = defaults(table, defaultColumns);
        return new StatementPlan.Insert(
                table,
                targets,
                literalRows,
                null,
                List.copyOf(Arrays.asList(types)),
                defaults.query(),
                defaults.perRow(),
                defaultColumns,
                conflict,
                returning);
    }

    /**
     * The query of a statement's DEFAULT expressions and whether it evaluates them per row.
     *
     * @param query null when the statement needs none
     */
    private record Defaults(PreparedQuery query, boolean perRow) {
        static final Defaults NONE = new Defaults(null, false);
    }

    /**
     * The DEFAULT expressions of {@code columns}, planned once: one row of them, or, when one calls
     * a function whose value differs from row to row ({@code gen_random_uuid()}, told from the
     * expressions before planning), a query of one parameter {@code n} returning {@code n} rows of
     * them, so that a statement evaluates them per row without running a query per row.
     */
    private Defaults defaults(TableDef table, int[] columns) {
        if (columns.length == 0) {
            return Defaults.NONE;
        }
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            q.append(i == 0 ? "(" : ", (")
                    .append(table.columns().get(columns[i]).defaultExpr())
                    .append(')');
        }
        if (!queries.variesPerRow(q.toString())) {
            return new Defaults(queries.plan(q.toString()), false);
        }
        return new Defaults(
                queries.plan(q.append(" FROM generate_series(1, CAST($1 AS integer))")
                        .toString()),
                true);
    }

    /**
     * The ON CONFLICT action, or null without one.
     *
     * @throws TributaryException 42P10 when the target is not the primary key, 42704 for another
     *     constraint, 42703 for an unknown column, 0A000 for DO UPDATE of a key column, 428C9 for
     *     DO UPDATE of a GENERATED ALWAYS column
     */
    private StatementPlan.Conflict conflict(TableDef table, DmlClauses.OnConflict onConflict) {
        if (onConflict == null) {
            return null;
        }
        boolean keyArbiter = true;
        List<io.tributary.catalog.IndexDef> indexArbiters = List.of();
        if (onConflict.constraint() != null) {
            java.util.Optional<io.tributary.catalog.IndexDef> unique =
                    table.index(onConflict.constraint()).filter(io.tributary.catalog.IndexDef::constraint);
            if (unique.isPresent()) {
                keyArbiter = false;
                indexArbiters = List.of(unique.get());
            } else if (table.hasRowId() || !onConflict.constraint().equals(table.localName() + "_pkey")) {
                throw new TributaryException(
                        SqlState.UNDEFINED_OBJECT,
                        "constraint \"" + onConflict.constraint() + "\" for table \"" + table.localName()
                                + "\" does not exist");
            }
        } else if (!onConflict.columns().isEmpty()) {
            java.util.Set<Integer> named = new java.util.HashSet<>();
            for (String c : onConflict.columns()) {
                int idx = table.columnIndex(c);
                if (idx < 0 || table.columns().get(idx).hidden()) {
                    throw new TributaryException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" does not exist");
                }
                named.add(idx);
            }
            java.util.Set<Integer> key = new java.util.HashSet<>();
            for (int k : table.primaryKey()) {
                key.add(k);
            }
            if (table.hasRowId() || !named.equals(key)) {
                // PostgreSQL infers every unique index over exactly the named columns
                keyArbiter = false;
                indexArbiters = table.indexes().stream()
                        .filter(i -> i.unique()
                                && i.columns().size() == named.size()
                                && i.columns().stream().allMatch(c -> named.contains(table.columnIndex(c))))
                        .toList();
                if (indexArbiters.isEmpty()) {
                    throw new TributaryException(
                            SqlState.INVALID_COLUMN_REFERENCE,
                            "there is no unique or exclusion constraint matching the ON CONFLICT specification");
                }
            }
        } else {
            // without a target every unique index arbitrates, as the primary key does
            indexArbiters = table.indexes().stream()
                    .filter(io.tributary.catalog.IndexDef::unique)
                    .toList();
        }
        if (onConflict.doNothing()) {
            return new StatementPlan.Conflict(true, new int[0], null, false, keyArbiter, indexArbiters);
        }
        int[] setColumns = new int[onConflict.setColumns().size()];
        int[] visible = table.targetColumns(List.of());
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < setColumns.length; i++) {
            String c = onConflict.setColumns().get(i);
            setColumns[i] = table.targetColumns(List.of(c))[0];
            ColumnDef def = table.columns().get(setColumns[i]);
            if (def.identity() == ColumnDef.Identity.ALWAYS || def.generated() != null) {
                throw new TributaryException(
                        SqlState.GENERATED_ALWAYS, "column \"" + c + "\" can only be updated to DEFAULT");
            }
            for (int k : table.primaryKey()) {
                if (k == setColumns[i]) {
                    throw TributaryException.notSupported("ON CONFLICT DO UPDATE of a primary key column");
                }
            }
            q.append(i == 0 ? "(" : ", (")
                    .append(onConflict.setExpressions().get(i))
                    .append(')');
        }
        if (onConflict.where() != null) {
            q.append(", (").append(onConflict.where()).append(')');
        }
        q.append(" FROM ")
                .append(WrittenRows.source(table, visible, 1, table.localName()))
                .append(", ")
                .append(WrittenRows.source(table, visible, visible.length + 1, "excluded"));
        PreparedQuery update = queries.plan(q.toString());
        return new StatementPlan.Conflict(
                false, setColumns, update, onConflict.where() != null, keyArbiter, indexArbiters);
    }
}
