package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * Whether a plan calls a function whose value may differ from row to row of one statement
 * ({@link VolatileFunction#variesPerRow}: {@code random()}, {@code gen_random_uuid()}, {@code
 * clock_timestamp()}, not {@code now()}). An INSERT evaluates its one-row query of DEFAULT
 * expressions once per statement unless it does, as PostgreSQL evaluates such a DEFAULT per row.
 * Stateless.
 */
final class PerRowCalls {
    private PerRowCalls() {}

    /** @return whether {@code rel} or one of its inputs calls such a function */
    static boolean in(RelNode rel) {
        Finder finder = new Finder();
        visit(rel, finder);
        return finder.found;
    }

    private static void visit(RelNode rel, Finder finder) {
        rel.accept(finder);
        for (RelNode input : rel.getInputs()) {
            if (!finder.found) {
                visit(input, finder);
            }
        }
    }

    /** Notes a per-row call among the expressions it is shown; changes nothing. */
    private static final class Finder extends RexShuttle {
        boolean found;

        @Override
        public RexNode visitCall(RexCall call) {
            if (call.getOperator() instanceof VolatileFunction f && f.variesPerRow()) {
                found = true;
            }
            return super.visitCall(call);
        }
    }
}
