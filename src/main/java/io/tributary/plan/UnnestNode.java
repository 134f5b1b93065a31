package io.tributary.plan;

import io.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * PostgreSQL's {@code unnest} of an array per row, as {@code FROM t, unnest(t.a)} (or {@code
 * SELECT id, unnest(a) FROM t}) reads it: each input row followed by one of its array's elements
 * and that element's 1-based position, one output row per element. An input row whose {@code
 * array} is NULL or empty gives no rows, or, when {@code outer} ({@code LEFT JOIN LATERAL unnest(a)
 * ON true}), one row with a NULL element and a NULL position. Stateless: the expansion depends on
 * the row only, so a DELETE of a row retracts exactly the rows its INSERT emitted.
 *
 * <p>The output is the input's columns, then the element ({@code elementType}), then the position
 * ({@code integer}). The stream key is the input's plus the position, which tells equal elements
 * of one array apart; rows stay where their input row is, so the distribution is the input's.
 */
public record UnnestNode(StreamNode input, ScalarExpr array, DataType elementType, boolean outer)
        implements StreamNode {
    @Override
    public List<Field> fields() {
        List<Field> fields = new ArrayList<>(input.fields());
        fields.add(new Field("unnest", elementType));
        fields.add(new Field("ordinality", DataType.INTEGER));
        return fields;
    }

    @Override
    public int[] streamKey() {
        int[] in = input.streamKey();
        int[] key = Arrays.copyOf(in, in.length + 1);
        key[in.length] = input.fields().size() + 1;
        return key;
    }

    @Override
    public Distribution distribution() {
        return input.distribution();
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }
}
