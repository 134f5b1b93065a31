package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A UNION, INTERSECT or EXCEPT without ALL as the grouping it is: the inputs' rows together (UNION
 * ALL), each with how many rows it stands for of each input, grouped by every column; then the
 * groups of rows of every input (INTERSECT) or of the first and no other (EXCEPT). As a grouping
 * its columns' values are chosen as a GROUP BY's are ({@link FloatKeyPlans}: {@code -0} and {@code
 * 0} one group that shows a value of its own, not {@code 0} for both). Stateless.
 */
final class SetOperationGroups {
    private SetOperationGroups() {}

    /**
     * @param setOp a UNION, INTERSECT or EXCEPT without ALL
     * @param grouping how the grouping is planned further (its float keys)
     * @return rows equal to {@code setOp}'s, typed as its
     */
    static RelNode grouped(SetOp setOp, Function<Aggregate, RelNode> grouping) {
        RexBuilder rex = setOp.getCluster().getRexBuilder();
        int columns = setOp.getRowType().getFieldCount();
        int inputs = setOp.getInputs().size();
        boolean counted = setOp.kind != SqlKind.UNION;
        RelNode all = marked(setOp, counted);
        List<AggregateCall> counts = new ArrayList<>();
        for (int m = 0; counted && m < inputs; m++) {
            counts.add(AggregateCall.create(
                    SqlStdOperatorTable.SUM0,
                    false,
                    false,
                    false,
                    List.of(),
                    List.of(columns + m),
                    -1,
                    null,
                    RelCollations.EMPTY,
                    columns,
                    all,
                    null,
                    "$rows" + m));
        }
        RelNode groups =
                grouping.apply(LogicalAggregate.create(all, List.of(), ImmutableBitSet.range(columns), null, counts));
        if (!counted) {
            return groups;
        }
        List<RexNode> conditions = new ArrayList<>(inputs);
        for (int m = 0; m < inputs; m++) {
            RexNode rows = rex.makeInputRef(groups, columns + m);
            RexNode none = rex.makeZeroLiteral(rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER));
            boolean wanted = m == 0 || setOp.kind == SqlKind.INTERSECT;
            conditions.add(
                    rex.makeCall(wanted ? SqlStdOperatorTable.GREATER_THAN : SqlStdOperatorTable.EQUALS, rows, none));
        }
        RelNode kept = LogicalFilter.create(groups, rex.makeCall(SqlStdOperatorTable.AND, conditions));
        List<RexNode> values = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            values.add(rex.makeInputRef(kept, c));
        }
        return LogicalProject.create(kept, List.of(), values, setOp.getRowType(), Set.of());
    }

    /**
     * {@code setOp}'s inputs' rows together (UNION ALL), typed as {@code setOp}'s columns, each
     * followed, when {@code counted}, by one column per input ({@code $input0}, ...): 1 for a row
     * of that input, else 0.
     */
    static RelNode marked(SetOp setOp, boolean counted) {
        RexBuilder rex = setOp.getCluster().getRexBuilder();
        int columns = setOp.getRowType().getFieldCount();
        int inputs = setOp.getInputs().size();
        List<RelNode> marked = new ArrayList<>(inputs);
        for (int b = 0; b < inputs; b++) {
            RelNode input = setOp.getInputs().get(b);
            List<RexNode> values = new ArrayList<>();
            List<String> names = new ArrayList<>(setOp.getRowType().getFieldNames());
            // the union of them all types its columns as setOp's are
            for (int c = 0; c < columns; c++) {
                values.add(rex.makeInputRef(input, c));
            }
            for (int m = 0; counted && m < inputs; m++) {
                values.add(rex.makeExactLiteral(m == b ? BigDecimal.ONE : BigDecimal.ZERO));
                names.add("$input" + m);
            }
            marked.add(LogicalProject.create(input, List.of(), values, names, Set.of()));
        }
        return LogicalUnion.create(marked, true);
    }
}
