package io.tributary.plan;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;

/** A constant: a canonical value of {@code type}, or null. */
public record Literal(Object value, DataType type) implements ScalarExpr {
    @Override
    public Object eval(Object[] row) {
        return value;
    }

    @Override
    public int[] inputColumns() {
        return new int[0];
    }

    @Override
    public String toString() {
        return value == null ? "null:" + type : PgTextFormat.format(type, value) + ":" + type;
    }
}
