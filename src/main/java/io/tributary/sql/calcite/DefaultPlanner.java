package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.ScalarExpr;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlOperator;

/**
 * Plans a column's DEFAULT expression for ON DELETE/UPDATE SET DEFAULT with the {@link
 * RowExpressionPlanner}, so a cascade evaluates it without Calcite. Called by {@link
 * CalciteViewPlanner#planDefault}; stateless.
 */
final class DefaultPlanner {
    private DefaultPlanner() {}

    /**
     * @throws TributaryException 0A000 for a default calling a volatile or time-dependent function
     *     (a sequence's {@code nextval} among them), which a cascade would have to call per row
     */
    static ScalarExpr plan(TableDef table, int column) {
        ColumnDef def = table.columns().get(column);
        RowExpressionPlanner planner = new RowExpressionPlanner(table, def.defaultExpr());
        RowExpressionPlanner.Planned planned = planner.plan(
                planner.parse(), rel -> refused(def, "a form of DEFAULT expression that needs the query planner"));
        planned.expression().accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                SqlOperator op = call.getOperator();
                // nextval is a schema function Calcite takes for deterministic; a query calling it fails per row
                if (!Determinism.isDeterministic(op) || op.getName().equalsIgnoreCase("nextval")) {
                    throw refused(def, op.getName().toLowerCase(Locale.ROOT));
                }
                return super.visitCall(call);
            }
        });
        return planned.compile();
    }

    private static TributaryException refused(ColumnDef column, String what) {
        return TributaryException.notSupported("SET DEFAULT of column \"" + column.name() + "\", whose DEFAULT calls "
                + what + " (a volatile or time-dependent function)");
    }
}
