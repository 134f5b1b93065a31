package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's types, with their modifiers, of a materialized view's columns. PostgreSQL's {@code
 * exprTypmod} keeps a modifier for a column read as it is, for a cast to a type with one ({@code
 * x::numeric(5,2)}, {@code x::char(3)}) and for a CASE, COALESCE or UNION whose results all have
 * the same; arithmetic's and aggregates' numeric has none ({@code n + 1} of a numeric(12,2) is
 * {@code numeric}). Calcite's DECIMAL(p,s) of arithmetic and its CHAR(n), which {@link
 * TypeMapping#fromRelType} holds as text, would otherwise become the view's column types. The
 * columns are followed through Calcite's plan; the casts are the outer select list's as written
 * ({@link ModifierCasts}), as {@link CalcitePreparedQuery} describes a query's result columns.
 * Stateless.
 */
final class ViewColumnModifiers {
    /** How deep a column is followed into the plan before it is taken for one without a modifier. */
    private static final int MAX_DEPTH = 200;

    private ViewColumnModifiers() {}

    /**
     * The types of {@code root}'s result columns as the view's columns, given the types Tributary
     * holds them as ({@code planned}, one per column of {@code root.fields}): a numeric(p,s) that
     * keeps no modifier is {@code numeric}, a CHAR(n) that keeps one is {@code character(n)}, any
     * other type is the planned one. Types differ only in modifiers and in character(n) against
     * text, whose values are the same padded strings, so the view's rows are unchanged.
     *
     * @param casts {@link ModifierCasts#of} of the query as written, or null
     * @param labels {@link ColumnLabels#of}'s labels of the same query
     */
    static List<DataType> of(RelRoot root, List<Boolean> casts, List<String> labels, List<DataType> planned) {
        int width = root.fields.size();
        List<RelDataType> validated = root.validatedRowType.getFieldList().stream()
                .map(f -> f.getType())
                .toList();
        List<DataType> types = new ArrayList<>(planned.size());
        for (int i = 0; i < planned.size(); i++) {
            DataType type = planned.get(i);
            boolean keepsModifier = keeps(root.rel, root.fields.get(i).getKey(), true, 0)
                    || ModifierCasts.isCast(casts, labels, i, width);
            if (type.kind() == TypeKind.NUMERIC && type.precision() > 0 && !keepsModifier) {
                type = DataType.NUMERIC;
            } else if (type.kind() == TypeKind.TEXT
                    && keepsModifier
                    && i < validated.size()
                    && validated.get(i).getSqlTypeName() == SqlTypeName.CHAR) {
                type = DataType.bpchar(validated.get(i).getPrecision());
            }
            types.add(type);
        }
        return types;
    }

    /**
     * Whether field {@code field} of {@code rel} keeps its modifier as PostgreSQL's {@code
     * exprTypmod} keeps it: a relation's column read as it is, through projections, filters, joins
     * and GROUP BY keys; a CASE (and Calcite's COALESCE, which is one) or UNION all of whose
     * results keep the same type; a cast to DECIMAL(p,s) or CHAR(n) that a projection computes
     * (written in a derived table or plain view); not an aggregate's or any other call's result.
     *
     * @param casts false under a UNION, whose inputs' casts Calcite adds to unify their types, where
     *     PostgreSQL drops the modifier
     */
    private static boolean keeps(RelNode rel, int field, boolean casts, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (rel instanceof TableScan) {
            return true;
        }
        if (rel instanceof Project project) {
            RexNode e = project.getProjects().get(field);
            // a cast written in a derived table or plain view; under a UNION, Calcite's unifying one
            return casts && isModifierCast(e) || keeps(project.getInput(), e, casts, depth + 1);
        }
        if (rel instanceof Filter || rel instanceof Sort) {
            return keeps(rel.getInput(0), field, casts, depth + 1);
        }
        if (rel instanceof Aggregate aggregate) {
            return field < aggregate.getGroupCount()
                    && aggregate.getGroupType() == Aggregate.Group.SIMPLE
                    && keeps(aggregate.getInput(), aggregate.getGroupSet().nth(field), casts, depth + 1);
        }
        if (rel instanceof Join || rel instanceof Correlate) {
            int left = rel.getInput(0).getRowType().getFieldCount();
            return field < left
                    ? keeps(rel.getInput(0), field, casts, depth + 1)
                    : keeps(rel.getInput(1), field - left, casts, depth + 1);
        }
        if (rel instanceof Union union) {
            RelDataType type = union.getRowType().getFieldList().get(field).getType();
            for (RelNode input : union.getInputs()) {
                RelDataType own = input.getRowType().getFieldList().get(field).getType();
                if (!sameType(own, type) || !keeps(input, field, false, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Whether expression {@code e} over {@code input}'s fields keeps its modifier (see above). */
    private static boolean keeps(RelNode input, RexNode e, boolean casts, int depth) {
        if (e instanceof RexInputRef ref) {
            return keeps(input, ref.getIndex(), casts, depth);
        }
        if (!(e instanceof RexCall call)) {
            return false;
        }
        if (call.getKind() == SqlKind.CAST) {
            // only the casts that change nullability, which Calcite's COALESCE adds
            RexNode operand = call.getOperands().get(0);
            return sameType(operand.getType(), call.getType()) && keeps(input, operand, casts, depth + 1);
        }
        if (call.getKind() == SqlKind.CASE) {
            // WHEN, THEN pairs, then the ELSE
            List<RexNode> operands = call.getOperands();
            for (int i = 1; i < operands.size(); i += 2) {
                if (!keptAs(input, operands.get(i), call.getType(), casts, depth)) {
                    return false;
                }
            }
            return keptAs(input, operands.get(operands.size() - 1), call.getType(), casts, depth);
        }
        return false;
    }

    private static boolean keptAs(RelNode input, RexNode result, RelDataType type, boolean casts, int depth) {
        return sameType(result.getType(), type) && keeps(input, result, casts, depth + 1);
    }

    /** A cast to DECIMAL(p,s) or CHAR(n) that is no mere change of nullability. */
    private static boolean isModifierCast(RexNode e) {
        if (e.getKind() != SqlKind.CAST) {
            return false;
        }
        RelDataType type = e.getType();
        return (type.getSqlTypeName() == SqlTypeName.DECIMAL || type.getSqlTypeName() == SqlTypeName.CHAR)
                && !sameType(((RexCall) e).getOperands().get(0).getType(), type);
    }

    private static boolean sameType(RelDataType a, RelDataType b) {
        return a.getSqlTypeName() == b.getSqlTypeName()
                && a.getPrecision() == b.getPrecision()
                && a.getScale() == b.getScale();
    }
}
