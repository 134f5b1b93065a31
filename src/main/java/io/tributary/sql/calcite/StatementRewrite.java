package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * A rewrite of a parsed statement that gives a construct its PostgreSQL meaning where Calcite's
 * differs. Subclasses override {@code visit} and pass what they rewrite through {@link #rewritten}. One
 * instance per statement.
 */
abstract class StatementRewrite extends SqlShuttle {
    private boolean changed;

    /** Whether this rewrite changed the statement it was applied to. */
    final boolean changed() {
        return changed;
    }

    /** Marks the statement as rewritten; returns {@code node} for chaining. */
    protected final SqlNode rewritten(SqlNode node) {
        changed = true;
        return node;
    }

    /**
     * Applies {@code shuttle} to each item of {@code select}'s list (the items, not the block
     * around them); sets the new list when an item changed.
     *
     * @return whether an item changed
     */
    static boolean replaceSelectItems(org.apache.calcite.sql.SqlSelect select, SqlShuttle shuttle) {
        List<SqlNode> items = new java.util.ArrayList<>();
        boolean any = false;
        for (SqlNode item : select.getSelectList()) {
            SqlNode replaced = item.accept(shuttle);
            any |= replaced != item;
            items.add(replaced);
        }
        if (any) {
            select.setSelectList(new org.apache.calcite.sql.SqlNodeList(
                    items, select.getSelectList().getParserPosition()));
        }
        return any;
    }

    /**
     * Applies the PostgreSQL rewrites (constants with an exponent as numeric, casts to json and jsonb, row comparisons ({@link RowComparisons}), one-row aggregate LATERAL joins ({@link AggregateLateralJoins}), sorted DISTINCT listings ({@link DistinctAggregateOrder}), RisingWave's TUMBLE and HOP in FROM, LIKE's escape, string_agg's NULL delimiter ({@link StringAggNullDelimiter}), the refusal of sub-queries in window functions' arguments ({@link WindowArgumentSubqueries}), FILTER on window aggregates ({@link WindowAggregateFilters}), avg's scale, variance and stddev as PostgreSQL computes them, {@link RegressionCalls}, casts of array constructors ({@link ArrayElementCasts}), casts to numeric and to
     * integers, {@link PgValueSemantics}, {@link IntervalSemantics}, {@link IntervalConstantKinds}, {@link IntervalConstantDivision}, {@link LocalTimeCalls}, {@link MakeTimestamptzCalls}, {@link CurrentTimePrecisions}, {@link CurrentTimestampCalls}), then {@code more} to {@code statement}.
     *
     * @return the statement, and whether any rewrite changed it
     */
    static Result applyAll(SqlNode statement, StatementRewrite... more) {
        SqlNode node = statement;
        boolean any = false;
        List<StatementRewrite> rewrites = new java.util.ArrayList<>(List.of(
                new CommaJoinPrecedence(),
                new ExponentLiterals(),
                new JsonCasts(),
                new RowComparisons(),
                new TimeWindowCalls(),
                new SplitToTableInFrom(),
                new ImplicitLateralCalls(),
                new WindowsInAggregates(),
                new CorrelatedWindowQueries(),
                new SkipLevelSelectSubqueries(),
                new AggregateLateralJoins(),
                new JsonKeyColumns(),
                new TimeOfDayCalls(),
                new NullCountCalls(),
                new DistinctAggregateOrder(),
                new ScalarFunctionsInFrom(),
                new ArraySlices(),
                new PgArrayCalls(),
                new AnyArrayConstants(),
                new LikeEscape(),
                new StringAggNullDelimiter(),
                new WindowArgumentSubqueries(),
                new WindowAggregateFilters(),
                new AvgScale(),
                new VarianceCalls(),
                new RegressionCalls(),
                new WindowDistributionCalls(),
                new ArrayElementCasts(),
                new NumericCast(),
                new PgValueSemantics(),
                new IntervalSemantics(),
                new IntervalConstantKinds(),
                new IntervalConstantDivision(),
                new LocalTimeCalls(),
                new MakeTimestamptzCalls(),
                new CurrentTimePrecisions(),
                new CurrentTimestampCalls()));
        rewrites.addAll(List.of(more));
        for (StatementRewrite rewrite : rewrites) {
            node = node.accept(rewrite);
            any |= rewrite.changed;
        }
        return new Result(node, any);
    }

    /** A rewritten statement; {@code changed} tells whether its text must be regenerated. */
    record Result(SqlNode statement, boolean changed) {}
}
