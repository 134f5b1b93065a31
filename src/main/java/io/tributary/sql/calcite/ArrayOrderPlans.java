package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that sort by arrays, run by the frontend's program ahead of
 * the planner on the planning thread; stateless. Calcite's generated comparator casts a sort key to
 * {@link Comparable}, which an array value (a list) is not: a sort with an array key among others
 * failed inside. Each array key of a sort is replaced by {@link PgArrayOrder#pg_array_order} of
 * it, which orders as PostgreSQL orders arrays.
 */
final class ArrayOrderPlans {
    private static final SqlUserDefinedFunction ORDER =
            PlanFunctions.scalar(PgArrayOrder.class, "pg_array_order", SqlTypeName.ANY);

    private ArrayOrderPlans() {}

    /**
     * Rewrites the plan's sorts, then runs {@code planning} on it; a required output order on array
     * columns (the query's ORDER BY) is dropped from the traits, as the rewritten sort already gives
     * it and the planner would otherwise sort again by the arrays themselves.
     */
    static Program before(Program planning) {
        return (planner, rel, traits, materializations, lattices) -> {
            RelNode rewritten = rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    RelNode visited = super.visit(other);
                    return visited instanceof LogicalSort sort ? rewrite(sort) : visited;
                }
            });
            RelCollation order = traits.getTrait(RelCollationTraitDef.INSTANCE);
            boolean arrayOrder = order != null
                    && order.getFieldCollations().stream()
                            .anyMatch(k -> isArray(rel.getRowType()
                                    .getFieldList()
                                    .get(k.getFieldIndex())
                                    .getType()));
            RelTraitSet required = arrayOrder ? traits.replace(RelCollations.EMPTY) : traits;
            return planning.run(planner, rewritten, required, materializations, lattices);
        };
    }

    private static boolean isArray(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.ARRAY;
    }

    /**
     * A sort on array columns as a sort on their sort keys: the keys are appended to the input,
     * sorted on in the arrays' place, and projected away again.
     */
    private static RelNode rewrite(LogicalSort sort) {
        RelNode input = sort.getInput();
        int width = input.getRowType().getFieldCount();
        RexBuilder rex = sort.getCluster().getRexBuilder();
        List<RexNode> fields = new ArrayList<>(rex.identityProjects(input.getRowType()));
        List<RelFieldCollation> keys = new ArrayList<>();
        for (RelFieldCollation key : sort.getCollation().getFieldCollations()) {
            RexNode field = fields.get(key.getFieldIndex());
            if (isArray(field.getType())) {
                keys.add(key.withFieldIndex(fields.size()));
                fields.add(rex.makeCall(ORDER, field));
            } else {
                keys.add(key);
            }
        }
        if (fields.size() == width) {
            return sort;
        }
        RelNode widened = LogicalProject.create(input, List.of(), fields, (List<String>) null, Set.of());
        RelNode sorted = LogicalSort.create(widened, RelCollations.of(keys), sort.offset, sort.fetch);
        return LogicalProject.create(
                sorted,
                List.of(),
                rex.identityProjects(sorted.getRowType()).subList(0, width),
                input.getRowType().getFieldNames(),
                Set.of());
    }
}
