package io.tributary.plan;

/**
 * Plans a materialized view's query into a stream plan, and a table's CHECK conditions into
 * expressions evaluated per row. Implemented by the SQL layer; the meta
 * layer calls it to create views and, at startup, to rebuild every view's job from its stored
 * query. Planning the same query over the same catalog must give the same plan (state table ids
 * are assigned by plan position). Thread-safe.
 */
public interface ViewPlanner {
    /**
     * @param query the view's query text (after {@code AS})
     * @param viewId the relation id the view's rows are stored under
     * @throws io.tributary.common.TributaryException 0A000 naming a construct views cannot
     *     maintain, or the error the query itself has (42P01, 42703, 42601 ...)
     */
    ViewPlan plan(String query, int viewId, String viewName);

    /**
     * Plans {@code query} with the typing of earlier build {@code build} (0 to {@link
     * #earlierBuilds}, newest first), for a view such a build created whose stored plan {@link
     * #plan} no longer gives, though its state still fits that build's plan: the meta layer tries
     * each when a view's stored fingerprint does not match, and keeps the plan only if it matches.
     * Same contract as {@link #plan} otherwise.
     */
    ViewPlan planAsEarlierBuild(String query, int viewId, String viewName, int build);

    /** How many earlier builds' typings {@link #planAsEarlierBuild} plans with. */
    int earlierBuilds();

    /**
     * Plans one CHECK condition of {@code table} (which need not be in the catalog yet). Called by
     * the DDL that creates the constraint and by the database when a writer of the table first
     * needs it.
     *
     * @param expression the condition as written inside {@code CHECK (...)}
     * @throws io.tributary.common.TributaryException 0A000 for a sub-query or a volatile function,
     *     42803 for an aggregate, 42P20 for a window function, 42804 for a condition that is not
     *     boolean, or the error the expression itself has (42703, 42883 ...)
     */
    CheckExpression planCheck(io.tributary.catalog.TableDef table, String expression);

    /**
     * Plans the DEFAULT expression of column {@code column} of {@code table} (which must have one)
     * for evaluation without the SQL planner, on an empty row; the value is of the expression's own
     * type, for the caller to assign to the column's. Called when ON DELETE SET DEFAULT first needs it.
     *
     * @throws io.tributary.common.TributaryException 0A000 for a default calling a volatile or
     *     time-dependent function, or the error the expression itself has
     */
    io.tributary.plan.ScalarExpr planDefault(io.tributary.catalog.TableDef table, int column);
}
