package io.tributary.plan;

/** One ORDER BY column: input column, direction and where NULLs go. */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
    @Override
    public String toString() {
        return "$" + column + (descending ? " desc" : "") + (nullsFirst ? " nulls first" : " nulls last");
    }
}
