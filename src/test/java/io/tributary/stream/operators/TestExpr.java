package io.tributary.stream.operators;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.plan.ScalarExpr;
import java.util.function.Function;

/** A scalar expression given by a function, for operator tests. */
record TestExpr(String name, DataType type, Function<Object[], Object> fn) implements ScalarExpr {
    @Override
    public Object eval(Object[] row) {
        return fn.apply(row);
    }

    @Override
    public String toString() {
        return name;
    }

    /** {@code $a / $b} over INTEGERs: NULL if either is NULL, 22012 when {@code $b} is 0. */
    static TestExpr divide(int a, int b) {
        return new TestExpr("$" + a + " / $" + b, DataType.INTEGER, row -> {
            Integer x = (Integer) row[a];
            Integer y = (Integer) row[b];
            if (x == null || y == null) {
                return null;
            }
            if (y == 0) {
                throw new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
            }
            return x / y;
        });
    }

    /** {@code e > bound} for an INTEGER expression: NULL when {@code e} is NULL; errors of {@code e} propagate. */
    static TestExpr greaterThan(TestExpr e, int bound) {
        return new TestExpr(e + " > " + bound, DataType.BOOLEAN, row -> {
            Integer v = (Integer) e.eval(row);
            return v == null ? null : v > bound;
        });
    }
}
