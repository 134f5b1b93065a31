package io.tributary.stream.operators;

import io.tributary.common.TributaryException;
import io.tributary.plan.ScalarExpr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates the scalar expressions of one operator so that a failing expression cannot stop the
 * stream: a {@link TributaryException} from {@link ScalarExpr#eval} (division by zero, overflow,
 * a bad cast) yields NULL instead, and is logged as a warning at its first occurrence and then
 * every {@value #LOG_EVERY}th, so a stream of bad rows cannot flood the log.
 *
 * <p>Why NULL and not an error: a view has no client to report to, and stopping the job would
 * stall every upstream writer. Substituting NULL is deterministic, because an expression's result
 * (or failure) depends only on its row: the DELETE of a row evaluates exactly as its INSERT did,
 * so operators stay consistent. Other exceptions are bugs and propagate.
 *
 * <p>One instance per operator instance; used only on that operator's actor thread.
 */
public final class ExprEvaluator {
    private static final Logger LOG = LoggerFactory.getLogger(ExprEvaluator.class);
    static final long LOG_EVERY = 10_000;

    private final String operator;
    private long errors;

    /** @param operator how warnings name the operator, e.g. its plan node */
    public ExprEvaluator(String operator) {
        this.operator = operator;
    }

    /** {@code expr}'s value for {@code row}, or null when evaluating it failed with a SQL error. */
    public Object eval(ScalarExpr expr, Object[] row) {
        try {
            return expr.eval(row);
        } catch (TributaryException e) {
            errors++;
            if (logs(errors)) {
                LOG.warn(
                        "{}: evaluating {} failed ({} {}), using NULL; {} such errors so far"
                                + " (logging the first and every {}th)",
                        operator,
                        expr,
                        e.sqlState(),
                        e.getMessage(),
                        errors,
                        LOG_EVERY);
            }
            return null;
        }
    }

    /** Whether the {@code occurrence}th error (1-based) is logged. */
    static boolean logs(long occurrence) {
        return occurrence == 1 || occurrence % LOG_EVERY == 0;
    }
}
