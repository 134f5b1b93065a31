package io.tributary.sql.calcite;

import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that sort by arrays, run by the frontend's program ahead of
 * the planner on the planning thread; stateless. Calcite's generated comparator casts a sort key to
 * {@link Comparable}, which an array value (a list) is not: a sort with an array key among others
 * failed inside. Each array key of a sort is replaced by {@link PgArrayOrder#pg_array_order} of
 * it, which orders as PostgreSQL orders arrays.
 */
final class ArrayOrderPlans {
    private static final SqlUserDefinedFunction ORDER =
            PlanFunctions.scalar(PgArrayOrder.class, "pg_array_order", SqlTypeName.ANY);

    private ArrayOrderPlans() {}

    /**
     * Rewrites the plan's sorts, then runs {@code planning} on it; a required output order on array
     * columns (the query's ORDER BY) is dropped from the traits, as the rewritten sort already gives
     * it and the planner would otherwise sort again by the arrays themselves.
     */
    static Program before(Program planning) {
        return NodeRewrites.before(
                planning,
                node -> node instanceof LogicalSort sort
                        ? SortKeyFunctions.sortedBy(sort, f -> isArray(f.getType()), ORDER)
                        : node,
                ArrayOrderPlans::isArray);
    }

    private static boolean isArray(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.ARRAY;
    }
}
