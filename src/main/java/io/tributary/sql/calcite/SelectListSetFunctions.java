package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives PostgreSQL's meaning to a set-returning call in a select list, {@code SELECT
 * generate_series(1, 3)} or {@code SELECT id, unnest(string_to_array(tags, ',')) FROM t}, which
 * Calcite takes in FROM only: the call moves into FROM as a lateral item joined to the select's
 * FROM (or as its only item), and the select list reads its column. For one such call per select
 * list, in a select without grouping, aggregates or window functions, that is exactly PostgreSQL's
 * result (a row of FROM yields one row per value; none when there are no values). A bare call keeps
 * PostgreSQL's label ({@code generate_series}, {@code unnest}). {@code regexp_split_to_table(s, p
 * [, flags])} is the unnest of {@code regexp_split_to_array} with the same arguments.
 *
 * <p>Refused as PostgreSQL refuses them (0A000): such calls in WHERE, GROUP BY or HAVING, inside
 * CASE, or inside an aggregate's arguments. Refused where PostgreSQL has a meaning this
 * does not give (0A000): two set-returning calls in one select list, or one beside grouping,
 * aggregates or window functions. {@link FromFunctionCallsText} renames {@code unnest} outside
 * FROM to {@code pg_unnest} so that it parses. Called on the session's (or view planner's) thread
 * right after parsing; changes the tree in place.
 */
final class SelectListSetFunctions extends SqlBasicVisitor<Void> {
    /** Put before {@code unnest} outside FROM by {@link FromFunctionCallsText}. */
    static final String UNNEST_PREFIX = "pg_";

    private static final String UNNEST = "unnest";
    private static final String GENERATE_SERIES = "generate_series";
    /** {@code regexp_split_to_table(s, p [, flags])}: the elements of {@code regexp_split_to_array}. */
    private static final String SPLIT_TO_TABLE = "regexp_split_to_table";

    /**
     * One-column set-returning json functions, {@code regexp_matches} and {@code
     * pg_partition_ancestors}, labelled by their names
     * as {@code generate_series} is.
     */
    private static final Set<String> JSON_SETS = Set.of(
            PgRegexpMatches.NAME,
            PgPartitionAncestors.NAME,
            "json_array_elements",
            "json_array_elements_text",
            "jsonb_array_elements",
            "jsonb_array_elements_text",
            "json_object_keys",
            "jsonb_object_keys");
    /** Set-returning json functions whose rows are records of two columns. */
    private static final Set<String> JSON_RECORDS =
            Set.of("json_each", "json_each_text", "jsonb_each", "jsonb_each_text");

    private static final String ALIAS = "?srf";
    private static final String COLUMN = "?value";
    /** Aggregates PostgreSQL would compute before a select list's set-returning call. */
    private static final Set<String> AGGREGATES = Set.of(
            "count",
            "sum",
            "avg",
            "min",
            "max",
            "string_agg",
            "array_agg",
            "bool_and",
            "bool_or",
            "every",
            "stddev",
            "stddev_pop",
            "stddev_samp",
            "variance",
            "var_pop",
            "var_samp",
            "percentile_cont",
            "percentile_disc",
            "mode",
            "bit_and",
            "bit_or",
            "listagg");

    private boolean changed;

    private SelectListSetFunctions() {}

    /**
     * Rewrites every select of {@code node} in place.
     *
     * @return whether one changed
     * @throws TributaryException 0A000 as described above
     */
    static boolean apply(SqlNode node) {
        if (node == null) {
            return false;
        }
        SelectListSetFunctions pass = new SelectListSetFunctions();
        node.accept(pass);
        return pass.changed;
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            rewrite(select);
        }
        return super.visit(call);
    }

    private void rewrite(SqlSelect select) {
        refuseIn(select.getWhere(), "WHERE");
        refuseIn(select.getGroup(), "GROUP BY");
        refuseIn(select.getHaving(), "HAVING");
        List<SqlCall> calls = new ArrayList<>();
        boolean grouped = select.getGroup() != null || select.getHaving() != null;
        for (SqlNode item : select.getSelectList()) {
            grouped |= collect(item, null, calls);
        }
        if (calls.isEmpty()) {
            return;
        }
        if (calls.size() > 1) {
            throw TributaryException.notSupported("more than one set-returning function in a select list");
        }
        if (grouped) {
            throw TributaryException.notSupported(
                    "a set-returning function in a select list with grouping, aggregates or window functions");
        }
        SqlCall call = calls.get(0);
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (JSON_RECORDS.contains(name)) {
            throw TributaryException.notSupported(name + " in a select list (a record per row); call it in FROM");
        }
        changed = true;
        SqlParserPos pos = call.getParserPosition();
        boolean split = isNamed(call, SPLIT_TO_TABLE);
        boolean unnest = isUnnest(call) || split;
        List<SqlNode> elements = split
                ? List.of(new org.apache.calcite.sql.SqlBasicCall(
                        new org.apache.calcite.sql.SqlUnresolvedFunction(
                                new SqlIdentifier("regexp_split_to_array", pos),
                                null,
                                null,
                                null,
                                null,
                                org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION),
                        call.getOperandList(),
                        pos))
                : call.getOperandList();
        SqlNode table = unnest
                ? SqlStdOperatorTable.UNNEST.createCall(pos, elements)
                : SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, call);
        SqlNode from = select.getFrom();
        if (from != null && !unnest) {
            table = SqlStdOperatorTable.LATERAL.createCall(pos, table);
        }
        SqlNode item = SqlStdOperatorTable.AS.createCall(
                pos, table, new SqlIdentifier(ALIAS, pos), new SqlIdentifier(COLUMN, pos));
        select.setFrom(
                from == null
                        ? item
                        : new SqlJoin(
                                pos,
                                from,
                                SqlLiteral.createBoolean(false, pos),
                                JoinType.COMMA.symbol(pos),
                                item,
                                JoinConditionType.NONE.symbol(pos),
                                null));
        SqlIdentifier value = new SqlIdentifier(List.of(ALIAS, COLUMN), pos);
        SqlShuttle replace = new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall c) {
                return c == call ? value : super.visit(c);
            }
        };
        List<SqlNode> items = new ArrayList<>();
        for (SqlNode old : select.getSelectList()) {
            items.add(
                    old == call
                            ? SqlStdOperatorTable.AS.createCall(
                                    pos, value, new SqlIdentifier(split ? SPLIT_TO_TABLE : unnest ? UNNEST : name, pos))
                            : old.accept(replace));
        }
        select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
    }

    /**
     * Adds the set-returning calls of {@code node} (not of its sub-queries) to {@code calls}.
     *
     * @return whether {@code node} holds an aggregate or window function
     */
    private static boolean collect(SqlNode node, SqlCall parent, List<SqlCall> calls) {
        if (node instanceof SqlNodeList list) {
            boolean aggregate = false;
            for (SqlNode element : list) {
                aggregate |= collect(element, parent, calls);
            }
            return aggregate;
        }
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect || call.getKind() == SqlKind.UNION) {
            return false;
        }
        if (isSetReturning(call)) {
            if (parent != null) {
                refuseInside(parent);
            }
            calls.add(call);
        }
        boolean aggregate = call.getKind() == SqlKind.OVER
                || AGGREGATES.contains(call.getOperator().getName().toLowerCase(Locale.ROOT));
        SqlCall inner =
                aggregate || call.getKind() == SqlKind.CASE || call.getKind() == SqlKind.COALESCE ? call : parent;
        for (SqlNode operand : call.getOperandList()) {
            aggregate |= collect(operand, inner, calls);
        }
        return aggregate;
    }

    private static void refuseInside(SqlCall parent) {
        String message = switch (parent.getKind()) {
            case CASE, COALESCE -> "set-returning functions are not allowed in " + parent.getKind().sql;
            case OVER -> "window function calls cannot contain set-returning function calls";
            default -> "aggregate function calls cannot contain set-returning function calls";
        };
        throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, message);
    }

    private static void refuseIn(SqlNode clause, String name) {
        List<SqlCall> calls = new ArrayList<>();
        if (clause != null) {
            collect(clause, null, calls);
        }
        if (!calls.isEmpty()) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in " + name);
        }
    }

    private static boolean isSetReturning(SqlCall call) {
        return call.getKind() == SqlKind.OTHER_FUNCTION
                && (isUnnest(call)
                        || isNamed(call, GENERATE_SERIES)
                        || isNamed(call, SPLIT_TO_TABLE)
                        || JSON_SETS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))
                        || JSON_RECORDS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT)));
    }

    private static boolean isUnnest(SqlCall call) {
        return isNamed(call, UNNEST_PREFIX + UNNEST);
    }

    private static boolean isNamed(SqlCall call, String name) {
        return call.getOperator().getName().equalsIgnoreCase(name);
    }
}
