package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgUuidText;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries over uuid values, run by the frontend's program ahead of the
 * planner on the planning thread; stateless. PostgreSQL orders uuids by their bytes unsigned,
 * which is their canonical text's order; Calcite orders them by {@link java.util.UUID#compareTo}
 * (signed), its interpreter cannot compare or cast them at all, and it compares a uuid with a text
 * constant as texts. So ORDER BY keys and {@code < <= > >=} over uuids go through
 * {@link PgUuidFunctions#pg_uuid_order}, a text constant compared with a uuid is read as a uuid,
 * casts between uuid and text use PostgreSQL's input and output, and {@code min}/{@code max} of a
 * uuid are 42883, as PostgreSQL 15 has none.
 */
final class UuidPlans {
    private static final SqlUserDefinedFunction ORDER = function("pg_uuid_order", SqlTypeName.VARCHAR);
    private static final SqlUserDefinedFunction INPUT = function("pg_uuid_in", SqlTypeName.UUID);

    private UuidPlans() {}

    /**
     * Rewrites the plan, then runs {@code planning} on it; a required output order on uuid columns
     * (the query's ORDER BY) is dropped from the traits, as the rewritten sort already gives it and
     * the planner would otherwise sort again in Calcite's order.
     */
    static Program before(Program planning) {
        return NodeRewrites.before(planning, UuidPlans::rewritten, UuidPlans::isUuid);
    }

    /** One node, its inputs already rewritten: as the class comment says. */
    private static RelNode rewritten(RelNode node) {
        if (node instanceof Aggregate aggregate) {
            refuseExtremes(aggregate);
        }
        RelNode expressions = node.accept(new Expressions(node.getCluster().getRexBuilder()));
        return expressions instanceof LogicalSort sort
                ? SortKeyFunctions.sortedBy(sort, UuidPlans::isUuid, ORDER)
                : expressions;
    }

    private static SqlUserDefinedFunction function(String name, SqlTypeName returns) {
        return PlanFunctions.scalar(PgUuidFunctions.class, name, returns);
    }

    private static boolean isUuid(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.UUID;
    }

    private static boolean isUuid(RexNode e) {
        return isUuid(e.getType());
    }

    private static boolean isText(RexNode e) {
        return SqlTypeName.CHAR_TYPES.contains(e.getType().getSqlTypeName());
    }

    private static void refuseExtremes(Aggregate aggregate) {
        for (AggregateCall call : aggregate.getAggCallList()) {
            SqlKind kind = call.getAggregation().getKind();
            if ((kind == SqlKind.MIN || kind == SqlKind.MAX)
                    && call.getArgList().size() == 1
                    && isUuid(call.getType())) {
                throw new TributaryException(
                        SqlState.UNDEFINED_FUNCTION,
                        "function " + kind.name().toLowerCase(Locale.ROOT) + "(uuid) does not exist");
            }
        }
    }

    /** The expressions of one node, rewritten as the class comment says. */
    private static final class Expressions extends RexShuttle {
        private final RexBuilder rex;

        Expressions(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            SqlKind kind = call.getKind();
            if (call.getOperands().size() == 2 && SqlKind.COMPARISON.contains(kind)) {
                RexNode a = call.getOperands().get(0);
                RexNode b = call.getOperands().get(1);
                RexNode left = uuidOperand(a, b);
                RexNode right = uuidOperand(b, a);
                if (left != null || right != null) {
                    left = left != null ? left.accept(this) : uuidConstant(a);
                    right = right != null ? right.accept(this) : uuidConstant(b);
                }
                if (left != null && right != null) {
                    boolean ordering = kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS;
                    return ordering
                            ? rex.makeCall(call.getOperator(), rex.makeCall(ORDER, left), rex.makeCall(ORDER, right))
                            : rex.makeCall(call.getOperator(), left, right);
                }
            }
            RexNode visited = super.visitCall(call);
            return visited instanceof RexCall c && c.getKind() == SqlKind.CAST ? cast(c) : visited;
        }

        /**
         * The uuid {@code e} compares when the other side is {@code other}: {@code e} itself when a
         * uuid, the uuid inside when {@code e} is Calcite's implicit cast of one to the type of the
         * text constant {@code other} (PostgreSQL reads the constant as a uuid instead); else null.
         */
        private static RexNode uuidOperand(RexNode e, RexNode other) {
            if (isUuid(e)) {
                return e;
            }
            if (e instanceof RexCall c
                    && c.getKind() == SqlKind.CAST
                    && isUuid(c.getOperands().get(0))
                    && other instanceof RexLiteral
                    && c.getType().getSqlTypeName() == other.getType().getSqlTypeName()
                    && c.getType().getPrecision() == other.getType().getPrecision()) {
                return c.getOperands().get(0);
            }
            return null;
        }

        /** A text constant read as a uuid (22P02 if it is none), a uuid as it is; null for anything else. */
        private RexNode uuidConstant(RexNode e) {
            if (isUuid(e)) {
                return e.accept(this);
            }
            return e instanceof RexLiteral lit && isText(lit) && !lit.isNull()
                    ? rex.makeUuidLiteral(PgUuidText.parse(lit.getValueAs(String.class)))
                    : null;
        }

        private RexNode cast(RexCall cast) {
            RexNode operand = cast.getOperands().get(0);
            if (isUuid(operand) && isText(cast)) {
                return rex.makeCast(cast.getType(), rex.makeCall(ORDER, operand));
            }
            if (isUuid(cast) && isText(operand)) {
                return rex.makeCall(cast.getType(), INPUT, List.of(operand));
            }
            return cast;
        }
    }
}
