package io.tributary.plan;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Window functions {@code f(...) OVER (PARTITION BY partitionKeys ORDER BY order frame)}: each input
 * row once, with one more column per call. Input must be distributed by the partition keys (single
 * without them).
 *
 * <p>With {@code limitCall >= 0} it is a group top-N: only the rows whose value of ranking call
 * {@code limitCall} is at most {@code limit} are output ({@code WHERE rank <= k} over a ranked
 * subquery), and every call is a ranking function.
 *
 * <p>Output rows are identified by the input's stream key and the partition keys.
 *
 * <p>State table 0 holds every input row keyed by (partition keys, order columns in their
 * {@link io.tributary.stream.KeyOrder}, the input's stream key).
 *
 * <p>{@code cleaning}, when not null, says which rows a watermark lets the node forget: those of
 * closed sessions (see {@link SessionCleaning}); only a SESSION window's expansion has one.
 */
public record OverWindowNode(
        StreamNode input,
        int[] partitionKeys,
        List<SortKey> order,
        WindowFrame frame,
        List<WindowCall> calls,
        int limitCall,
        long limit,
        List<Field> fields,
        @StateLifetime SessionCleaning cleaning)
        implements StreamNode {
    /** Window functions that keep every row as long as it is in the input. */
    public OverWindowNode(
            StreamNode input,
            int[] partitionKeys,
            List<SortKey> order,
            WindowFrame frame,
            List<WindowCall> calls,
            int limitCall,
            long limit,
            List<Field> fields) {
        this(input, partitionKeys, order, frame, calls, limitCall, limit, fields, null);
    }

    /**
     * The input's stream key and the partition keys: rows are routed to actors by partition, so a
     * row whose partition changes is retracted by one actor and re-emitted by another; were the
     * partition not part of its identity, the two changes could reach the view in either order.
     */
    @Override
    public int[] streamKey() {
        return IntStream.concat(Arrays.stream(input.streamKey()), Arrays.stream(partitionKeys))
                .distinct()
                .toArray();
    }

    @Override
    public Distribution distribution() {
        return partitionKeys.length == 0 ? Distribution.SINGLE : Distribution.hash(partitionKeys);
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }

    @Override
    public int stateTableCount() {
        return 1;
    }

    /** The output columns holding the calls' values: after every input column. */
    public int[] callColumns() {
        int width = input.fields().size();
        return IntStream.range(width, width + calls.size()).toArray();
    }
}
