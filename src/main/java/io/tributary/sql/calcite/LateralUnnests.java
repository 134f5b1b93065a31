package io.tributary.sql.calcite;

import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Recognises the lateral {@code unnest} of one array Calcite converts {@code FROM t, unnest(t.a)}
 * (and a select list's {@code unnest(a)}, which {@link SelectListSetFunctions} moves into FROM)
 * into: a {@link Correlate} of the left rows with an {@link Uncollect} of one expression over the
 * left row, projected over a one-row VALUES. Such a correlate is a per-row expansion ({@code
 * plan.UnnestNode}); any other correlate is not. Stateless; called on the view planner's thread.
 */
final class LateralUnnests {
    private LateralUnnests() {}

    /**
     * A recognised unnest.
     *
     * @param array the array, over the correlate's left row (input refs in place of the correlation
     *     variable's fields)
     * @param ordinality whether the unnest also answers each element's position ({@code WITH ORDINALITY})
     * @param outer whether a row without elements still gives one row ({@code LEFT JOIN LATERAL})
     */
    record Unnest(RexNode array, boolean ordinality, boolean outer) {}

    /** {@code correlate} as an unnest of an array of its left row, or null when it is not one. */
    static Unnest of(Correlate correlate) {
        boolean outer = correlate.getJoinType() == JoinRelType.LEFT;
        if (!(correlate.getJoinType() == JoinRelType.INNER || outer)
                || !(correlate.getRight() instanceof Uncollect uncollect)
                || !(uncollect.getInput() instanceof Project project)
                || project.getProjects().size() != 1
                || !(project.getInput() instanceof Values values)
                || values.getTuples().size() != 1
                || uncollect.getRowType().getFieldList().get(0).getType().getSqlTypeName() == SqlTypeName.ROW
                || project.getProjects().get(0).getType().getSqlTypeName() != SqlTypeName.ARRAY) {
            return null;
        }
        OverLeftRow overLeftRow = new OverLeftRow(correlate);
        RexNode array = project.getProjects().get(0).accept(overLeftRow);
        return overLeftRow.foreign ? null : new Unnest(array, uncollect.withOrdinality, outer);
    }

    /** Reads the correlation variable's fields as the left row's columns. */
    private static final class OverLeftRow extends RexShuttle {
        private final Correlate correlate;
        /** Whether the expression reads anything but the correlate's own left row. */
        private boolean foreign;

        OverLeftRow(Correlate correlate) {
            this.correlate = correlate;
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable variable
                    && variable.id.equals(correlate.getCorrelationId())) {
                return new RexInputRef(access.getField().getIndex(), access.getType());
            }
            return super.visitFieldAccess(access);
        }

        @Override
        public RexNode visitCorrelVariable(RexCorrelVariable variable) {
            foreign = true;
            return variable;
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            // the one-row VALUES' own column
            foreign = true;
            return ref;
        }
    }
}
