package io.tributary.stream.runtime;

import io.tributary.plan.FilterNode;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.StreamNode;
import io.tributary.plan.TemporalFilterNode;
import io.tributary.plan.TemporalJoinNode;
import io.tributary.plan.TopNNode;
import io.tributary.plan.UnionNode;
import io.tributary.plan.UnnestNode;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.stream.Operator;
import io.tributary.stream.WatermarkReader;
import io.tributary.stream.operators.FilterOperator;
import io.tributary.stream.operators.HashAggOperator;
import io.tributary.stream.operators.HashJoinOperator;
import io.tributary.stream.operators.MaterializeOperator;
import io.tributary.stream.operators.OverWindowOperator;
import io.tributary.stream.operators.ProjectOperator;
import io.tributary.stream.operators.TemporalFilterOperator;
import io.tributary.stream.operators.TemporalJoinOperator;
import io.tributary.stream.operators.TopNOperator;
import io.tributary.stream.operators.UnionOperator;
import io.tributary.stream.operators.UnnestOperator;
import java.util.function.Supplier;

/** Builds the operator for a plan node; sources and exchanges are actor inputs, not operators. Stateless. */
final class OperatorFactory {
    private OperatorFactory() {}

    /**
     * @param stateTableIds the node's state table ids (see {@code StatePlan})
     * @param stateView the actor's view of the latest committed state
     * @param watermarks where aggregates and joins that clean state by a watermark read it
     * @param ownedVnodes the vnodes the actor owns, ascending
     * @param snapshotMillis the time of the snapshot a job being created reads; 0 for a live job
     * @param sortedFiles for a job being backfilled, where a view's snapshot rows stored as they are
     *     may be written as files ({@code StateStore.newSortedFile}); null for a live job
     */
    static Operator create(
            StreamNode node,
            int[] stateTableIds,
            ReadView stateView,
            WatermarkReader watermarks,
            int[] ownedVnodes,
            long snapshotMillis,
            Supplier<SortedFile> sortedFiles) {
        if (node instanceof ProjectNode p) {
            return new ProjectOperator(p);
        }
        if (node instanceof FilterNode f) {
            return new FilterOperator(f);
        }
        if (node instanceof UnnestNode u) {
            return new UnnestOperator(u);
        }
        if (node instanceof TemporalFilterNode t) {
            return new TemporalFilterOperator(t, stateTableIds, stateView, snapshotMillis);
        }
        if (node instanceof UnionNode u) {
            return new UnionOperator(u);
        }
        if (node instanceof HashAggNode a) {
            return new HashAggOperator(a, stateTableIds, stateView, watermarks, ownedVnodes);
        }
        if (node instanceof HashJoinNode j) {
            return new HashJoinOperator(j, stateTableIds, stateView, watermarks, ownedVnodes);
        }
        if (node instanceof TemporalJoinNode j) {
            return new TemporalJoinOperator(j, stateTableIds, stateView);
        }
        if (node instanceof TopNNode t) {
            return new TopNOperator(t, stateTableIds, stateView);
        }
        if (node instanceof OverWindowNode w) {
            return new OverWindowOperator(w, stateTableIds, stateView, watermarks, ownedVnodes);
        }
        if (node instanceof MaterializeNode m) {
            return new MaterializeOperator(m, stateView, sortedFiles);
        }
        throw new IllegalArgumentException("not an operator: " + node.getClass().getSimpleName());
    }
}
