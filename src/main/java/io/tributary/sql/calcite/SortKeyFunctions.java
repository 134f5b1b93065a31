package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;

/**
 * A sort whose keys of some type are sorted by a function of them instead (a key object in
 * PostgreSQL's order of that type, which Calcite's generated comparator can compare): used by
 * {@link UuidPlans} and {@link ArrayOrderPlans} on the planning thread. Stateless.
 */
final class SortKeyFunctions {
    private SortKeyFunctions() {}

    /**
     * {@code sort} with each key {@code replaced} accepts sorted on {@code key(field)} in its place:
     * the key values are appended to the input, sorted on, and projected away again; {@code sort}
     * itself when no key is replaced.
     */
    static RelNode sortedBy(LogicalSort sort, Predicate<RexNode> replaced, SqlOperator key) {
        RelNode input = sort.getInput();
        int width = input.getRowType().getFieldCount();
        RexBuilder rex = sort.getCluster().getRexBuilder();
        List<RexNode> fields = new ArrayList<>(rex.identityProjects(input.getRowType()));
        List<RelFieldCollation> keys = new ArrayList<>();
        for (RelFieldCollation k : sort.getCollation().getFieldCollations()) {
            RexNode field = fields.get(k.getFieldIndex());
            if (replaced.test(field)) {
                keys.add(k.withFieldIndex(fields.size()));
                fields.add(rex.makeCall(key, field));
            } else {
                keys.add(k);
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
