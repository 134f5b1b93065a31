package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlAggFunction;

/**
 * Rebuilds an aggregate's calls with other aggregate functions, everything else of each call kept
 * (arguments, filter, DISTINCT, collation, type, name): how the planning steps put PostgreSQL's
 * own implementations in place of Calcite's ({@link IntervalPlans}, {@link BigintSumPlans}).
 * Stateless; called on the planning thread.
 */
final class AggregateFunctionSwap {
    private AggregateFunctionSwap() {}

    /**
     * {@code aggregate} with each call for which {@code replacement} answers a function rebuilt with
     * that function; the same node when it answers null for every call.
     */
    static RelNode apply(Aggregate aggregate, Function<AggregateCall, SqlAggFunction> replacement) {
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList());
        boolean changed = false;
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall call = calls.get(i);
            SqlAggFunction function = replacement.apply(call);
            if (function != null) {
                calls.set(
                        i,
                        AggregateCall.create(
                                function,
                                call.isDistinct(),
                                call.isApproximate(),
                                call.ignoreNulls(),
                                call.rexList,
                                call.getArgList(),
                                call.filterArg,
                                call.distinctKeys,
                                call.collation,
                                call.getType(),
                                call.getName()));
                changed = true;
            }
        }
        return changed
                ? aggregate.copy(
                        aggregate.getTraitSet(),
                        aggregate.getInput(),
                        aggregate.getGroupSet(),
                        aggregate.getGroupSets(),
                        calls)
                : aggregate;
    }
}
