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

    /**
     * The input columns {@link #eval} may read, or null when not known (then any). Used when a job
     * is built, to decode only the columns a plan reads ({@link ColumnsRead}).
     */
    default int[] inputColumns() {
        return null;
    }

    /** How EXPLAIN shows it, with input columns as {@code $i}. */
    @Override
    String toString();
}
