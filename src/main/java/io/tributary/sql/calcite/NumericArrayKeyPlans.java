package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * Numeric arrays as keys in PostgreSQL's equality, where {@code {2}} and {@code {2.0}} are one value
 * ({@link PgNumericArrayKey}, an array of the same type and elements). A planning step for ad-hoc
 * queries, run by the frontend's program ahead of the planner on the planning thread: the
 * numeric-array columns an aggregate reads (GROUP BY, DISTINCT, {@code count(DISTINCT a)}) and
 * those of a UNION that removes duplicates, an INTERSECT or an EXCEPT become such keys below it, so
 * the group or row keeps the first array met, as PostgreSQL's does. Comparisons of numeric arrays
 * (and so a join's keys) compare such keys through {@link PgScalarCalls}, in queries and views
 * alike. Views group, join and remove duplicates by {@code KeyCodec}'s encoding, which writes a
 * numeric by its value (2 and 2.0 alike), in arrays too. Stateless.
 */
final class NumericArrayKeyPlans {
    /** Typed at each call as its argument. */
    private static final SqlUserDefinedFunction KEY =
            PlanFunctions.scalar(PgNumericArrayKey.class, "pg_numeric_array_key", ReturnTypes.ARG0_NULLABLE);

    private NumericArrayKeyPlans() {}

    /** Rewrites the plan's aggregates and set operations over numeric arrays, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return NodeRewrites.before(planning, NumericArrayKeyPlans::rewritten, type -> false);
    }

    /** Whether {@code call}'s two operands are numeric arrays, which must compare as keys. */
    static boolean keyed(RexCall call) {
        return call.getOperands().size() == 2
                && isNumericArray(call.getOperands().get(0).getType())
                && isNumericArray(call.getOperands().get(1).getType());
    }

    /** Each of {@code operands} as a key. */
    static List<RexNode> keys(RexBuilder rex, List<RexNode> operands) {
        return operands.stream().map(o -> key(rex, o)).toList();
    }

    /** Whether {@code node} is a key made here, which constant folding must leave (its value is no literal). */
    static boolean isKey(RexNode node) {
        return node instanceof RexCall call && call.getOperator() == KEY;
    }

    private static RexNode key(RexBuilder rex, RexNode array) {
        if (isKey(array)) {
            return array;
        }
        // a cast between numeric arrays only sets scales (Calcite's common type of numeric(10,2)[]
        // and numeric[] even rounds to numeric(38,0)[]); PostgreSQL compares the values as they are
        RexNode value = array;
        while (value.getKind() == SqlKind.CAST
                && isNumericArray(((RexCall) value).getOperands().get(0).getType())) {
            value = ((RexCall) value).getOperands().get(0);
        }
        return rex.makeCall(value.getType(), KEY, List.of(value));
    }

    private static boolean isNumericArray(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.ARRAY
                && type.getComponentType() != null
                && type.getComponentType().getSqlTypeName() == SqlTypeName.DECIMAL;
    }

    private static RelNode rewritten(RelNode node) {
        node = node.accept(new KeyedSubQueries(node.getCluster().getRexBuilder()));
        if (node instanceof LogicalAggregate aggregate) {
            RelNode input = keyed(aggregate.getInput());
            return input == aggregate.getInput() ? aggregate : aggregate.copy(aggregate.getTraitSet(), List.of(input));
        }
        // INTERSECT ALL and EXCEPT ALL match rows too; only UNION ALL compares none
        if (node instanceof SetOp setOp && (!setOp.all || setOp.kind != SqlKind.UNION)) {
            List<RelNode> inputs =
                    setOp.getInputs().stream().map(NumericArrayKeyPlans::keyed).toList();
            return inputs.equals(setOp.getInputs()) ? setOp : setOp.copy(setOp.getTraitSet(), inputs, setOp.all);
        }
        return node;
    }

    /** {@code input} with its numeric-array columns as keys (same types), or itself when it has none. */
    private static RelNode keyed(RelNode input) {
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        if (fields.stream().noneMatch(f -> isNumericArray(f.getType()))) {
            return input;
        }
        RexBuilder rex = input.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>(fields.size());
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(input, field.getIndex());
            columns.add(isNumericArray(field.getType()) ? key(rex, ref) : ref);
        }
        return LogicalProject.create(
                input, List.of(), columns, input.getRowType().getFieldNames(), Set.of());
    }

    /**
     * Each {@code a IN (SELECT ...)} and {@code a = ANY (SELECT ...)} of numeric arrays as the same
     * test of keys: planning makes a semi-join of it after this step, whose hash keys must be keys.
     */
    private static final class KeyedSubQueries extends RexShuttle {
        private final RexBuilder rex;

        KeyedSubQueries(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            boolean equality = visited.getKind() == SqlKind.IN
                    || visited.getOperator() instanceof SqlQuantifyOperator some
                            && some.comparisonKind == SqlKind.EQUALS;
            if (!equality || visited.getOperands().stream().noneMatch(o -> isNumericArray(o.getType()))) {
                return visited;
            }
            List<RexNode> operands = visited.getOperands().stream()
                    .map(o -> isNumericArray(o.getType()) ? key(rex, o) : o)
                    .toList();
            return visited.clone(keyed(visited.rel)).clone(visited.getType(), operands);
        }
    }
}
