package io.tributary.sql.calcite;

import org.apache.calcite.linq4j.function.NonDeterministic;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * A schema function whose value changes from one execution of a plan to the next, as Calcite's
 * optimizer must see it: not deterministic, so never folded into a constant. Calcite takes every
 * user-defined function for deterministic, and a plan is cached and run again (the plan cache,
 * prepared statements), so {@code ts > now() - INTERVAL '1' SECOND} was folded while the plan was
 * optimized and later executions compared with the time of the first. Covers the current-time
 * functions ({@link CurrentTimes}), {@code random} and {@code setseed} ({@link SessionRandom}) and functions marked {@code @NonDeterministic} ({@code
 * gen_random_uuid}). Made by {@link PgOperatorTable} as it resolves a name; immutable.
 *
 * <p>Except for the current-time functions, whose value is the same all through a statement, each
 * resolution is equal only to itself: Calcite's program builder and code generator share equal
 * calls, which made {@code random() = random()} true and {@code SELECT random(), random()} print
 * one number twice. The validator resolves each call site on its own, so each call gets its own
 * operator and its own evaluation, as in PostgreSQL.
 */
final class VolatileFunction extends SqlUserDefinedFunction {
    /** Whether each call evaluates on its own (not shared with an equal call of the same row). */
    private final boolean perCall;

    private VolatileFunction(SqlUserDefinedFunction function) {
        super(
                function.getSqlIdentifier(),
                function.getKind(),
                function.getReturnTypeInference(),
                function.getOperandTypeInference(),
                function.getOperandTypeChecker(),
                function.getFunction());
        this.perCall = !(function.getFunction() instanceof CurrentTimes);
    }

    /** {@code operator} as a volatile function when its value belongs to each execution, else itself. */
    static SqlOperator of(SqlOperator operator) {
        if (operator instanceof SqlUserDefinedFunction udf
                && !(operator instanceof VolatileFunction)
                && isVolatile(udf.getFunction())) {
            return new VolatileFunction(udf);
        }
        return operator;
    }

    /** Whether a call of {@code function} takes a value per execution: the current times, random, {@code @NonDeterministic}. */
    private static boolean isVolatile(Function function) {
        return function instanceof CurrentTimes
                || function instanceof SessionRandom
                || function instanceof ScalarFunctionImpl f && f.method.isAnnotationPresent(NonDeterministic.class);
    }

    /**
     * Whether two rows of one statement may see different values of schema function {@code
     * function}, so an expression calling it is evaluated per row: those {@link #of} makes volatile
     * but the start times of the transaction and statement ({@code now()}).
     */
    static boolean variesPerRow(Function function) {
        return isVolatile(function) && (!(function instanceof CurrentTimes times) || times.readsClock());
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return perCall ? this == other : super.equals(other);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
