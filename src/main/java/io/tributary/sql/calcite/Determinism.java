package io.tributary.sql.calcite;

import org.apache.calcite.linq4j.function.NonDeterministic;
import org.apache.calcite.schema.impl.ReflectiveFunctionBase;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Whether a function's value depends only on its arguments: what an expression evaluated again
 * later, without Calcite, may call (a view's expressions, a CHECK condition, a SET DEFAULT
 * default). Calcite marks its own functions; ours ({@link PgFunctions}) carry
 * {@code @NonDeterministic}. Stateless.
 */
final class Determinism {
    private Determinism() {}

    /** @return false for a volatile, time-dependent or {@code @NonDeterministic} function */
    static boolean isDeterministic(SqlOperator op) {
        if (!op.isDeterministic() || op.isDynamicFunction()) {
            return false;
        }
        return !(op instanceof SqlUserDefinedFunction udf
                && udf.getFunction() instanceof ReflectiveFunctionBase f
                && (f.method.isAnnotationPresent(NonDeterministic.class)
                        || f.method.getDeclaringClass().isAnnotationPresent(NonDeterministic.class)));
    }
}
