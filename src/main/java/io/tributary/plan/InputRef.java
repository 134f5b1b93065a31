package io.tributary.plan;

import io.tributary.common.types.DataType;

/** Column {@code index} of the input row. */
public record InputRef(int index, DataType type) implements ScalarExpr {
    @Override
    public Object eval(Object[] row) {
        return row[index];
    }

    @Override
    public int[] inputColumns() {
        return new int[] {index};
    }

    @Override
    public String toString() {
        return "$" + index;
    }
}
