package io.tributary.sql.calcite;

import com.google.common.collect.ImmutableList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.interpreter.Bindables.BindableTableScan;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * The last planning step of a query: every expression of the plan that Calcite will compile
 * ({@code Calc}s, join and filter conditions, table function calls, the filters a table scan's
 * interpreter applies) rewritten by {@link
 * MillisecondCalls}, and each {@code VALUES} with timestamp columns written as counts of
 * microseconds under a calculation that types them back, and the interval offsets of a RANGE
 * frame ordered by a timestamp in microseconds, so the generated code holds timestamps as
 * microseconds throughout. Runs after the cost-based planner on the session's thread.
 */
final class MicrosecondPlans {
    private MicrosecondPlans() {}

    /** The program; a plan without timestamps comes back unchanged. */
    static Program after() {
        return (planner, rel, traits, materializations, lattices) -> rewrite(rel);
    }

    private static RelNode rewrite(RelNode rel) {
        RelNode node = PlanInputs.rewritten(rel, MicrosecondPlans::rewrite);
        RexBuilder rexBuilder = node.getCluster().getRexBuilder();
        if (node instanceof EnumerableCalc calc) {
            return calc(calc, rexBuilder);
        }
        if (node instanceof EnumerableValues values) {
            return values(values, rexBuilder);
        }
        if (node instanceof BindableTableScan scan) {
            return scan(scan, rexBuilder);
        }
        if (node instanceof Window window) {
            return window(window, rexBuilder);
        }
        return node.accept(MillisecondCalls.shuttle(rexBuilder));
    }

    /** A table scan with the filters Calcite's interpreter compiles rewritten (the table reads none of timestamps). */
    private static RelNode scan(BindableTableScan scan, RexBuilder rexBuilder) {
        List<RexNode> filters = new ArrayList<>(scan.filters.size());
        boolean changed = false;
        for (RexNode filter : scan.filters) {
            RexNode next = MillisecondCalls.rewrite(rexBuilder, filter);
            changed |= next != filter;
            filters.add(next);
        }
        return changed ? BindableTableScan.create(scan.getCluster(), scan.getTable(), filters, scan.projects) : scan;
    }

    /**
     * A window whose RANGE frame is ordered by a timestamp with its day-time interval constants (the
     * frame's offsets, Calcite's milliseconds) as microseconds, the unit of the values they are
     * added to; any other window as it is.
     */
    private static RelNode window(Window window, RexBuilder rexBuilder) {
        List<RelDataTypeField> input = window.getInput().getRowType().getFieldList();
        boolean timestampRange = window.groups.stream()
                .anyMatch(g -> !g.isRows
                        && g.orderKeys.getFieldCollations().stream()
                                .anyMatch(k -> MillisecondCalls.isTimestamp(
                                        input.get(k.getFieldIndex()).getType())));
        if (!timestampRange) {
            return window;
        }
        List<RexLiteral> constants = new ArrayList<>(window.constants.size());
        boolean changed = false;
        for (RexLiteral constant : window.constants) {
            if (SqlTypeName.DAY_INTERVAL_TYPES.contains(constant.getType().getSqlTypeName()) && !constant.isNull()) {
                constants.add((RexLiteral) rexBuilder.makeIntervalLiteral(
                        constant.getValueAs(BigDecimal.class).multiply(BigDecimal.valueOf(1000)),
                        constant.getType().getIntervalQualifier()));
                changed = true;
            } else {
                constants.add(constant);
            }
        }
        return changed ? window.copy(constants) : window;
    }

    private static RelNode calc(EnumerableCalc calc, RexBuilder rexBuilder) {
        RexProgram program = calc.getProgram();
        RexProgram rebuilt = WholeExpressionPrograms.rewrite(program, MillisecondCalls.shuttle(rexBuilder), rexBuilder);
        return rebuilt == program ? calc : EnumerableCalc.create(calc.getInput(), rebuilt);
    }

    /**
     * {@code values} with its timestamp columns as BIGINT counts of microseconds and a calculation
     * above that gives them their types again; {@code values} itself when it has none.
     */
    private static RelNode values(EnumerableValues values, RexBuilder rexBuilder) {
        List<RelDataTypeField> fields = values.getRowType().getFieldList();
        if (fields.stream().noneMatch(f -> MillisecondCalls.isTimestamp(f.getType()))) {
            return values;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RelDataTypeFactory.Builder counted = types.builder();
        for (RelDataTypeField f : fields) {
            counted.add(
                    f.getName(),
                    MillisecondCalls.isTimestamp(f.getType())
                            ? types.createTypeWithNullability(
                                    types.createSqlType(SqlTypeName.BIGINT),
                                    f.getType().isNullable())
                            : f.getType());
        }
        RelDataType countedType = counted.build();
        ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
        for (List<RexLiteral> tuple : values.getTuples()) {
            ImmutableList.Builder<RexLiteral> row = ImmutableList.builder();
            for (int i = 0; i < tuple.size(); i++) {
                RexLiteral literal = tuple.get(i);
                if (!MillisecondCalls.isTimestamp(fields.get(i).getType())) {
                    row.add(literal);
                } else if (literal.isNull()) {
                    row.add((RexLiteral) rexBuilder.makeNullLiteral(
                            countedType.getFieldList().get(i).getType()));
                } else {
                    row.add(rexBuilder.makeExactLiteral(
                            BigDecimal.valueOf(MillisecondCalls.micros(literal)),
                            countedType.getFieldList().get(i).getType()));
                }
            }
            tuples.add(row.build());
        }
        RelNode counts = EnumerableValues.create(values.getCluster(), countedType, tuples.build());
        List<RexNode> projects = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            RexNode ref = rexBuilder.makeInputRef(counts, i);
            projects.add(
                    MillisecondCalls.isTimestamp(fields.get(i).getType())
                            ? rexBuilder.makeCall(fields.get(i).getType(), TimestampUnitCalls.AS_MICROS, List.of(ref))
                            : ref);
        }
        return EnumerableCalc.create(
                counts, RexProgram.create(countedType, projects, null, values.getRowType(), rexBuilder));
    }
}
