package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.TypeKind;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * Refuses, as PostgreSQL does, a query that orders or compares values of a type without the
 * operator: {@code json} has neither an ordering nor an equality operator, so ORDER BY (42883
 * "could not identify an ordering operator for type json"), GROUP BY, DISTINCT, {@code
 * count(DISTINCT j)}, a window's PARTITION BY and UNION, INTERSECT or EXCEPT without ALL (42883 "could
 * not identify an equality operator for type json") are errors. {@code jsonb} has both in
 * PostgreSQL; Tributary compares jsonb values for equality but does not order them yet, so an
 * ORDER BY over jsonb is 0A000 (Calcite would fail to compile it). Called by {@link JsonPlans} on the
 * planning thread with the converted logical plan; stateless.
 */
final class JsonOrderingCheck extends RelVisitor {
    private JsonOrderingCheck() {}

    /** Throws the error PostgreSQL reports when {@code plan} orders or compares json; else returns. */
    static void check(RelNode plan) {
        new JsonOrderingCheck().go(plan);
    }

    @Override
    public void visit(RelNode node, int ordinal, RelNode parent) {
        if (node instanceof Sort sort) {
            orders(sort.getInput(), sort.getCollation().getFieldCollations());
        } else if (node instanceof Aggregate aggregate) {
            List<RelDataTypeField> fields = aggregate.getInput().getRowType().getFieldList();
            aggregate.getGroupSet().forEach(i -> compares(fields.get(i).getType()));
            for (AggregateCall call : aggregate.getAggCallList()) {
                if (call.isDistinct()) {
                    call.getArgList().forEach(i -> compares(fields.get(i).getType()));
                }
            }
        } else if (node instanceof Window window) {
            List<RelDataTypeField> fields = window.getInput().getRowType().getFieldList();
            for (Window.Group group : window.groups) {
                group.keys.forEach(i -> compares(fields.get(i).getType()));
                group.orderKeys
                        .getFieldCollations()
                        .forEach(c -> orders(fields.get(c.getFieldIndex()).getType()));
            }
        } else if (node instanceof Project project) {
            // before planning a window function is a RexOver in a projection
            project.getProjects()
                    .forEach(e -> e.accept(new RexVisitorImpl<Void>(true) {
                        @Override
                        public Void visitOver(RexOver over) {
                            over.getWindow().partitionKeys.forEach(k -> compares(k.getType()));
                            over.getWindow().orderKeys.forEach(k -> orders(k.left.getType()));
                            return super.visitOver(over);
                        }
                    }));
        } else if (node instanceof SetOp setOp && !(setOp instanceof Union && setOp.all)) {
            setOp.getRowType().getFieldList().forEach(f -> compares(f.getType()));
        }
        super.visit(node, ordinal, parent);
    }

    private static void orders(RelNode input, List<RelFieldCollation> collations) {
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        collations.forEach(c -> orders(fields.get(c.getFieldIndex()).getType()));
    }

    private static void orders(RelDataType type) {
        TypeKind kind = PgJsonTypes.kind(type);
        if (kind == TypeKind.JSON) {
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION, "could not identify an ordering operator for type json");
        }
        if (kind == TypeKind.JSONB) {
            throw TributaryException.notSupported("ordering by a jsonb value");
        }
    }

    private static void compares(RelDataType type) {
        if (PgJsonTypes.kind(type) == TypeKind.JSON) {
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION, "could not identify an equality operator for type json");
        }
    }
}
