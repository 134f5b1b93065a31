package io.tributary.sql.calcite;

import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Whether a parsed statement calls a function whose value may differ from row to row of one
 * statement ({@link VolatileFunction#variesPerRow}: {@code random()}, {@code gen_random_uuid()},
 * {@code clock_timestamp()}, not {@code now()}), told from the tree before it is planned by
 * resolving each call's name among the session's schema functions, where the validator finds
 * them. An INSERT evaluates its one-row query of DEFAULT expressions once per statement unless
 * they call one, as PostgreSQL evaluates such a DEFAULT per row; knowing that first, {@link
 * InsertPlanner} plans the expressions once, in the form they need. Reads the root's functions
 * only; used on the session's thread.
 */
final class PerRowCalls {
    private final CalciteSchema root;

    /** @param root the session's Calcite root, holding the schema functions names resolve to */
    PerRowCalls(SchemaPlus root) {
        this.root = root.unwrap(CalciteSchema.class);
    }

    /** @return whether {@code statement} calls such a function anywhere in its tree */
    boolean in(SqlNode statement) {
        Finder finder = new Finder();
        statement.accept(finder);
        return finder.found;
    }

    /** Notes a per-row call among the calls it visits; changes nothing. */
    private final class Finder extends SqlBasicVisitor<Void> {
        boolean found;

        @Override
        public Void visit(SqlCall call) {
            if (found) {
                return null;
            }
            if (call.getOperator() instanceof SqlUserDefinedFunction udf) {
                found = VolatileFunction.variesPerRow(udf.getFunction());
            } else if (call.getOperator() instanceof SqlFunction function) {
                // as the validator resolves the name (case-insensitively); any overload that varies counts
                for (Function f : root.getFunctions(function.getName(), false)) {
                    found |= VolatileFunction.variesPerRow(f);
                }
            }
            return found ? null : super.visit(call);
        }
    }
}
