package io.tributary.plan;

import io.tributary.common.types.DataType;

/**
 * A scalar expression over one input row of canonical values. Implementations are immutable and
 * {@link #eval} is thread-safe, so one plan can run in many actors. Evaluation errors (division
 * by zero, overflow) throw {@code TributaryException} with the SQLSTATE PostgreSQL would use.
 */
public interface ScalarExpr {
    /** The value for {@code row}, a canonical value of {@link #type()} or null. */
    Object eval(Object[] row);

    DataType type();

    /** How EXPLAIN shows it, with input columns as {@code $i}. */
    @Override
    String toString();
}
