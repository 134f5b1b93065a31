package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

/**
 * A planning step for ad-hoc queries, run by the frontend's program ahead of the planner on the
 * planning thread; stateless. An aggregate whose every call is DISTINCT over the same arguments
 * with the same FILTER ({@code SELECT array_agg(DISTINCT x) FILTER (WHERE x > 10) FROM t}) is
 * planned here as a grouping by its keys, the arguments and the filter, under the same calls
 * without DISTINCT. Calcite's own expansion of that shape turns the filter into {@code CASE WHEN
 * filter THEN x END} and drops it, which only aggregates that skip NULLs survive: {@code array_agg}
 * gained a NULL element for the rows the filter rejected.
 */
final class FilteredDistinctAggregates {
    private FilteredDistinctAggregates() {}

    /** Rewrites the plan's filtered DISTINCT aggregates, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return NodeRewrites.before(
                planning, node -> node instanceof LogicalAggregate aggregate ? expanded(aggregate) : node, t -> false);
    }

    private static RelNode expanded(LogicalAggregate aggregate) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (calls.isEmpty() || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return aggregate;
        }
        AggregateCall first = calls.get(0);
        ImmutableBitSet.Builder keys = aggregate.getGroupSet().rebuild();
        for (AggregateCall call : calls) {
            if (!call.isDistinct()
                    || call.filterArg < 0
                    || call.filterArg != first.filterArg
                    || !call.getArgList().equals(first.getArgList())) {
                return aggregate;
            }
            for (RelFieldCollation order : call.getCollation().getFieldCollations()) {
                keys.set(order.getFieldIndex());
            }
        }
        keys.addAll(first.getArgList());
        keys.set(first.filterArg);
        ImmutableBitSet grouped = keys.build();
        // where each field of the aggregate's input is in the grouping's output
        Map<Integer, Integer> position = new HashMap<>();
        for (int field : grouped) {
            position.put(field, position.size());
        }
        RelNode input = aggregate.getInput();
        Mappings.TargetMapping mapping =
                Mappings.target(position, input.getRowType().getFieldCount(), grouped.cardinality());
        LogicalAggregate distinct = LogicalAggregate.create(input, List.of(), grouped, null, List.of());
        List<AggregateCall> plain = new ArrayList<>(calls.size());
        for (AggregateCall call : calls) {
            plain.add(call.transform(mapping).withDistinct(false));
        }
        ImmutableBitSet.Builder groupKeys = ImmutableBitSet.builder();
        for (int key : aggregate.getGroupSet()) {
            groupKeys.set(position.get(key));
        }
        return LogicalAggregate.create(distinct, List.of(), groupKeys.build(), null, plain);
    }
}
