package io.tributary.plan;

import java.util.List;

/**
 * A processing-time temporal join ({@code JOIN t FOR SYSTEM_TIME AS OF PROCTIME()}): each left row
 * is joined, once, with the row of the right table whose primary key it names, as that table stood
 * at the last committed epoch when the left row was processed. Later changes of the right table
 * change no emitted row; a left row's delete retracts what its insert emitted. Output rows are the
 * left columns then every column of the right table (hidden ones included); a LEFT join pads an
 * unmatched left row with NULLs.
 *
 * <p>The right table is not an input: the operator reads its committed rows by key. State table 0
 * is the memo: per left row (keyed by the left stream key) the right row it was joined with, so a
 * retraction emits exactly what was emitted. It is kept only when the left side can retract rows:
 * over a source relation (CREATE SOURCE), which only appends, it stays empty, as in RisingWave.
 *
 * @param left the probing side, distributed by its stream key
 * @param kind {@link JoinKind#INNER} or {@link JoinKind#LEFT}
 * @param rightTableId the right table's relation id
 * @param rightTableName for EXPLAIN and messages
 * @param rightFields every column of the right table as stored
 * @param rightKey the right table's primary-key columns, in key order
 * @param lookupColumns per primary-key column, the left column holding its value (same key encoding)
 * @param condition over the joined row (left then right columns), the whole ON condition; null when
 *     the key equalities are all of it
 * @param memoized whether the memo is kept: false when the left side only ever inserts
 */
public record TemporalJoinNode(
        StreamNode left,
        JoinKind kind,
        int rightTableId,
        String rightTableName,
        List<Field> rightFields,
        int[] rightKey,
        int[] lookupColumns,
        ScalarExpr condition,
        List<Field> fields,
        boolean memoized)
        implements StreamNode {

    /** The left stream key: each left row gives at most one output row. */
    @Override
    public int[] streamKey() {
        return left.streamKey();
    }

    @Override
    public Distribution distribution() {
        return left.distribution();
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(left);
    }

    @Override
    public int stateTableCount() {
        return 1;
    }
}
