package io.tributary.plan;

import io.tributary.common.types.DataType;

/**
 * One aggregate of a {@link HashAggNode}.
 *
 * @param arg input column, or -1 for {@code COUNT(*)}
 * @param distinct whether duplicates of {@code arg} within a group count once
 * @param filterArg input column of a BOOLEAN filter ({@code FILTER (WHERE ...)}), or -1
 * @param type the result type
 */
public record AggCall(AggKind kind, int arg, boolean distinct, int filterArg, DataType type) {
    /**
     * Whether the aggregate needs every input value of its group kept in state: MIN and MAX (to
     * find the next extreme when the current one is deleted) and DISTINCT aggregates (to count each
     * value once).
     */
    public boolean keepsValues() {
        return distinct || kind == AggKind.MIN || kind == AggKind.MAX;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase() + "(" + (distinct ? "distinct " : "") + (arg < 0 ? "*" : "$" + arg) + ")"
                + (filterArg >= 0 ? " filter $" + filterArg : "");
    }
}
