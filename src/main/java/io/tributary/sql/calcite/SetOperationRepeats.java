package io.tributary.sql.calcite;

import com.google.common.collect.ImmutableList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * An INTERSECT ALL or EXCEPT ALL whose keyed columns match by their keys, as PostgreSQL's
 * HashSetOp answers it: each group of rows equal by their keys gives as many rows as the set
 * operation keeps of it (INTERSECT ALL: its fewest rows in any input; EXCEPT ALL: the first
 * input's rows less the others'), each showing the group's first row of the first input, not its
 * key ({@code 1.50} where the key is {@code 1.5}, {@code -0} where it is {@code 0}). Planned as
 * windows over the inputs' rows together (partitioned by the keys, the first input's rows first):
 * each row of the first input is numbered within its group and kept while its number is within
 * what the set operation keeps, so no row is repeated and no join is needed. Stateless.
 */
final class SetOperationRepeats {
    private SetOperationRepeats() {}

    /**
     * @param setOp an INTERSECT ALL or EXCEPT ALL
     * @param keyed which columns' types match by their keys
     * @param key a keyed column's key, typed as the column
     * @return rows equal to {@code setOp}'s under the keys, typed as its
     */
    static RelNode repeated(SetOp setOp, Predicate<RelDataType> keyed, UnaryOperator<RexNode> key) {
        RexBuilder rex = setOp.getCluster().getRexBuilder();
        List<RelDataTypeField> fields = setOp.getRowType().getFieldList();
        int columns = fields.size();
        int inputs = setOp.getInputs().size();
        RelNode all = SetOperationGroups.marked(setOp, true);

        List<RexNode> partition = new ArrayList<>(columns);
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(all, field.getIndex());
            partition.add(keyed.test(field.getType()) ? key.apply(ref) : ref);
        }
        // the first input's rows ($input0 = 1) first in each group
        ImmutableList<RexFieldCollation> firstInputFirst =
                ImmutableList.of(new RexFieldCollation(rex.makeInputRef(all, columns), Set.of(SqlKind.DESCENDING)));
        RexWindow upToRow = rex.makeWindow(
                partition, firstInputFirst, RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.CURRENT_ROW, true);
        RexWindow group = rex.makeWindow(
                partition,
                firstInputFirst,
                RexWindowBounds.UNBOUNDED_PRECEDING,
                RexWindowBounds.UNBOUNDED_FOLLOWING,
                true);

        List<RexNode> windowed = new ArrayList<>(columns + 2 + inputs);
        List<String> names = new ArrayList<>(columns + 2 + inputs);
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(all, field.getIndex());
            windowed.add(
                    keyed.test(field.getType())
                            ? WindowCalls.over(
                                    rex, field.getType(), SqlStdOperatorTable.FIRST_VALUE, List.of(ref), upToRow)
                            : ref);
            names.add(field.getName());
        }
        windowed.add(rex.makeInputRef(all, columns));
        names.add("$first");
        windowed.add(over(rex, SqlStdOperatorTable.ROW_NUMBER, List.of(), upToRow));
        names.add("$row");
        for (int m = 0; m < inputs; m++) {
            windowed.add(over(rex, SqlStdOperatorTable.SUM0, List.of(rex.makeInputRef(all, columns + m)), group));
            names.add("$rows" + m);
        }
        RelNode numbered = LogicalProject.create(all, List.of(), windowed, names, Set.of());

        RexNode row = rex.makeInputRef(numbered, columns + 1);
        List<RexNode> conditions = new ArrayList<>(inputs);
        conditions.add(rex.makeCall(
                SqlStdOperatorTable.EQUALS, rex.makeInputRef(numbered, columns), rex.makeExactLiteral(BigDecimal.ONE)));
        if (setOp.kind == SqlKind.INTERSECT) {
            for (int m = 1; m < inputs; m++) {
                conditions.add(rex.makeCall(
                        SqlStdOperatorTable.LESS_THAN_OR_EQUAL, row, rex.makeInputRef(numbered, columns + 2 + m)));
            }
        } else {
            // a row of the first input stays while it and the other inputs' rows fit in the first's
            RexNode taken = row;
            for (int m = 1; m < inputs; m++) {
                taken = rex.makeCall(SqlStdOperatorTable.PLUS, taken, rex.makeInputRef(numbered, columns + 2 + m));
            }
            conditions.add(rex.makeCall(
                    SqlStdOperatorTable.LESS_THAN_OR_EQUAL, taken, rex.makeInputRef(numbered, columns + 2)));
        }
        RelNode kept = LogicalFilter.create(numbered, rex.makeCall(SqlStdOperatorTable.AND, conditions));
        List<RexNode> values = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            values.add(rex.makeInputRef(kept, c));
        }
        return LogicalProject.create(kept, List.of(), values, setOp.getRowType(), Set.of());
    }

    private static RexNode over(RexBuilder rex, SqlAggFunction function, List<RexNode> operands, RexWindow window) {
        RelDataType type = function.inferReturnType(
                rex.getTypeFactory(), operands.stream().map(RexNode::getType).toList());
        return WindowCalls.over(rex, type, function, operands, window);
    }
}
