package io.tributary.plan;

import java.util.List;

/**
 * Which of a source's columns its plan reads: a backfill decodes only those of each snapshot row
 * (a view over a few columns of a wide table then pays for the columns it reads, not for every
 * stored one). The walk goes up from the source through the operators that pass its rows on
 * whole (exchanges, filters) to the first that makes rows of its own (a projection or an
 * aggregate): what those read is all the plan reads of the source's columns. Any other operator on
 * the way (a join or a view storing the rows, a window, an aggregate cleaned by watermarks) may
 * read or store every column, so the answer is then "all". Stateless; called once per source when a
 * job is built.
 */
public final class ColumnsRead {
    private ColumnsRead() {}

    /**
     * The columns read of the source {@code chain.get(0)}, or null when every column may be read.
     *
     * @param chain the source, then its parent, its parent's parent and so on up to the plan's root
     * @return per column of the source, whether the plan reads it
     */
    public static boolean[] of(List<StreamNode> chain) {
        StreamNode source = chain.get(0);
        boolean[] read = new boolean[source.fields().size()];
        for (int i = 1; i < chain.size(); i++) {
            StreamNode node = chain.get(i);
            if (node instanceof ExchangeNode exchange) {
                if (!mark(read, exchange.distribution().keys())) {
                    return null;
                }
            } else if (node instanceof FilterNode filter) {
                if (!mark(read, filter.condition())) {
                    return null;
                }
            } else if (node instanceof ProjectNode project) {
                for (ScalarExpr e : project.exprs()) {
                    if (!mark(read, e)) {
                        return null;
                    }
                }
                return read;
            } else if (node instanceof HashAggNode agg && agg.cleaning() == null) {
                if (!mark(read, agg.groupKeys())) {
                    return null;
                }
                for (AggCall call : agg.calls()) {
                    if (!mark(read, new int[] {call.arg(), call.filterArg()})) {
                        return null;
                    }
                }
                return read;
            } else {
                return null;
            }
        }
        return null;
    }

    private static boolean mark(boolean[] read, ScalarExpr e) {
        int[] columns = e.inputColumns();
        return columns != null && mark(read, columns);
    }

    /** Marks {@code columns} (negative ones are "none"); false when one is not a source column. */
    private static boolean mark(boolean[] read, int[] columns) {
        for (int c : columns) {
            if (c >= read.length) {
                return false;
            }
            if (c >= 0) {
                read[c] = true;
            }
        }
        return true;
    }
}
