package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.plan.CheckExpression;
import io.tributary.plan.ScalarExpr;
import java.util.Locale;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Plans a CHECK condition with the {@link RowExpressionPlanner}, refusing what PostgreSQL refuses
 * in one (sub-queries, aggregates, window functions, a condition that is not boolean) and what a
 * row check cannot call again (volatile functions): the result is evaluated per row without
 * Calcite. Called by {@link CalciteViewPlanner#planCheck}; stateless.
 */
final class CheckPlanner {
    private CheckPlanner() {}

    static CheckExpression plan(TableDef table, String expression) {
        RowExpressionPlanner planner = new RowExpressionPlanner(table, expression);
        SqlNode node = planner.parse();
        if (!(node instanceof SqlSelect select) || select.getSelectList().size() != 1) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR, "syntax error in CHECK constraint \"" + expression + "\"");
        }
        SqlNode condition = select.getSelectList().get(0);
        condition.accept(REFUSED);
        String[] deparsed = CheckDeparser.deparse(condition, table, expression);
        RowExpressionPlanner.Planned planned = planner.plan(
                node,
                rel -> containsAggregate(rel)
                        ? new TributaryException(
                                SqlState.GROUPING_ERROR, "aggregate functions are not allowed in check constraints")
                        : TributaryException.notSupported("this form of CHECK constraint"));
        RexNode rex = planned.expression();
        DataType type = TypeMapping.fromRelType(rex.getType());
        if (type.kind() != io.tributary.common.types.TypeKind.BOOLEAN) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "argument of CHECK must be type boolean, not type "
                            + type.kind().pgName());
        }
        int[] columns = planned.columns();
        java.util.LinkedHashSet<Integer> read = new java.util.LinkedHashSet<>();
        rex.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                read.add(columns[ref.getIndex()]);
                return null;
            }

            @Override
            public Void visitOver(RexOver over) {
                throw new TributaryException(
                        SqlState.WINDOWING_ERROR, "window functions are not allowed in check constraints");
            }

            @Override
            public Void visitSubQuery(RexSubQuery subQuery) {
                throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
            }

            @Override
            public Void visitCall(RexCall call) {
                if (!Determinism.isDeterministic(call.getOperator())) {
                    throw TributaryException.notSupported("CHECK constraints calling "
                            + call.getOperator().getName().toLowerCase(Locale.ROOT)
                            + " (a volatile or time-dependent function)");
                }
                return super.visitCall(call);
            }
        });
        ScalarExpr compiled = planned.compile();
        // conkey lists columns in order of appearance as written; Calcite may reorder operands
        java.util.LinkedHashSet<Integer> written = new java.util.LinkedHashSet<>();
        condition.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(org.apache.calcite.sql.SqlIdentifier id) {
                int c = table.columnIndex(id.names.get(id.names.size() - 1));
                if (read.contains(c)) {
                    written.add(c);
                }
                return null;
            }
        });
        written.addAll(read);
        return new CheckExpression(
                compiled, written.stream().mapToInt(Integer::intValue).toArray(), deparsed[0], deparsed[1]);
    }

    private static boolean containsAggregate(RelNode rel) {
        if (rel instanceof Aggregate) {
            return true;
        }
        return rel.getInputs().stream().anyMatch(CheckPlanner::containsAggregate);
    }

    /** PostgreSQL's refusals that show in the parse: sub-queries and window functions. */
    private static final SqlBasicVisitor<Void> REFUSED = new SqlBasicVisitor<>() {
        @Override
        public Void visit(SqlCall call) {
            if (call.getKind() == SqlKind.SELECT
                    || call.getKind() == SqlKind.EXISTS
                    || call.getKind() == SqlKind.UNION) {
                throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
            }
            if (call.getKind() == SqlKind.OVER) {
                throw new TributaryException(
                        SqlState.WINDOWING_ERROR, "window functions are not allowed in check constraints");
            }
            return super.visit(call);
        }
    };
}
