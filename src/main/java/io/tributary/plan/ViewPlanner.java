package io.tributary.plan;

/**
 * Plans a materialized view's query into a stream plan. Implemented by the SQL layer; the meta
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
}
