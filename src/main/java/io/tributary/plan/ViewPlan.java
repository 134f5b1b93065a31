package io.tributary.plan;

import io.tributary.catalog.ColumnDef;
import java.util.List;

/**
 * A planned materialized view: its stream plan (topped by the {@link MaterializeNode} writing the
 * view), the view's columns (the query's output columns, then hidden stream-key columns the query
 * does not select), its primary key (the stream key) and the ids of the relations it reads.
 *
 * @param earlierBuildTyping whether it was planned with an earlier build's typing ({@link
 *     ViewPlanner#planAsEarlierBuild}), which a worker's build of the view would not reproduce
 */
public record ViewPlan(
        MaterializeNode root, List<ColumnDef> columns, int[] primaryKey, int[] dependsOn, boolean earlierBuildTyping) {
    /** This plan, marked as planned with an earlier build's typing. */
    public ViewPlan withEarlierBuildTyping() {
        return new ViewPlan(root, columns, primaryKey, dependsOn, true);
    }
}
