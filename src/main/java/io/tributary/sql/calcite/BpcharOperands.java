package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code character(n)} semantics for values of a {@code char(n)} column, which are
 * stored padded with blanks and which Calcite holds as {@code CHAR(n)} with their padding: where
 * PostgreSQL converts {@code bpchar} to text (a cast to text or varchar, {@code ||}, a function
 * taking text such as {@code length} or {@code upper}) the trailing blanks are dropped, and a
 * comparison with a {@code CHAR} operand compares its operands without trailing blanks ({@code
 * bpchareq} and {@code bpcharcmp} ignore them). {@code LIKE}, {@code octet_length} and the
 * functions taking {@code any} ({@link BpcharText#KEEPING_BLANKS}) keep the padding, as
 * PostgreSQL's do. A string constant is CHAR to Calcite too but is PostgreSQL's {@code unknown}, so
 * it keeps its blanks outside comparisons; casts of constants to {@code char(n)} are {@link
 * BpcharText}'s, before validation.
 *
 * <p>Called by {@link PgArithmetic} for each call after its operands, so queries and views answer
 * alike; grouping, DISTINCT and joins on one {@code char(n)} column need nothing, as its values
 * all have the same padding. Planning thread; stateless.
 */
final class BpcharOperands {
    private BpcharOperands() {}

    /** {@code call} with its {@code CHAR} operands stripped where PostgreSQL strips them, typed as {@code call}; itself when none is. */
    static RexCall stripped(RexCall call, RexBuilder rexBuilder) {
        if (call.getOperator() instanceof SqlFunction
                && BpcharText.KEEPING_BLANKS.contains(
                        call.getOperator().getName().toUpperCase(Locale.ROOT))) {
            return withBlanks(call);
        }
        boolean comparison = SqlKind.BINARY_COMPARISON.contains(call.getKind());
        boolean toText = call.getKind() == SqlKind.CAST && isVarchar(call);
        boolean textFunction = call.getOperator() == SqlStdOperatorTable.CONCAT
                || call.getOperator() instanceof SqlFunction
                        && call.getKind() != SqlKind.CAST
                        && call.getKind() != SqlKind.TRIM
                        && call.getKind() != SqlKind.COALESCE;
        if (!comparison && !toText && !textFunction) {
            return call;
        }
        // a string constant compared with a char(n) value is bpchar too: its blanks do not count either
        boolean constantsToo = comparison && call.getOperands().stream().anyMatch(BpcharOperands::isCharDerived);
        if (comparison && !constantsToo) {
            return call;
        }
        List<RexNode> operands = new ArrayList<>(call.getOperands());
        boolean changed = false;
        for (int i = 0; i < operands.size(); i++) {
            RexNode operand = operands.get(i);
            if (isCharValue(operand) || constantsToo && isStringConstant(operand)) {
                operands.set(i, trailingBlanksTrimmed(operand, rexBuilder));
                changed = true;
            }
        }
        return changed ? call.clone(call.getType(), operands) : call;
    }

    /**
     * A call of a function taking {@code any} with its operands' padding back: Calcite's coercion
     * casts a char(n) argument to VARCHAR, which {@link #stripped} had trimmed before reaching it.
     */
    private static RexCall withBlanks(RexCall call) {
        List<RexNode> operands = new ArrayList<>(call.getOperands());
        boolean changed = false;
        for (int i = 0; i < operands.size(); i++) {
            if (operands.get(i) instanceof RexCall cast
                    && cast.getKind() == SqlKind.CAST
                    && isTrimmedChar(cast.getOperands().get(0))) {
                RexNode padded =
                        ((RexCall) cast.getOperands().get(0)).getOperands().get(2);
                operands.set(i, cast.clone(cast.getType(), List.of(padded)));
                changed = true;
            }
        }
        return changed ? call.clone(call.getType(), operands) : call;
    }

    /** A char(n) value, or one this class has trimmed already (alone or cast to VARCHAR). */
    private static boolean isCharDerived(RexNode node) {
        if (isCharValue(node) || isTrimmedChar(node)) {
            return true;
        }
        return node instanceof RexCall cast
                && cast.getKind() == SqlKind.CAST
                && isTrimmedChar(cast.getOperands().get(0));
    }

    /** {@code TRIM(TRAILING ' ' FROM x)} of a char(n) value {@code x}, as {@link #trailingBlanksTrimmed} writes it. */
    private static boolean isTrimmedChar(RexNode node) {
        return node instanceof RexCall trim
                && trim.getKind() == SqlKind.TRIM
                && trim.getOperands().size() == 3
                && trim.getOperands().get(0) instanceof RexLiteral flag
                && flag.getValue() == SqlTrimFunction.Flag.TRAILING
                && isCharValue(trim.getOperands().get(2));
    }

    private static boolean isStringConstant(RexNode node) {
        SqlTypeName type = node.getType().getSqlTypeName();
        return node instanceof RexLiteral && (type == SqlTypeName.CHAR || type == SqlTypeName.VARCHAR);
    }

    private static RexNode trailingBlanksTrimmed(RexNode operand, RexBuilder rexBuilder) {
        return rexBuilder.makeCall(
                SqlStdOperatorTable.TRIM,
                rexBuilder.makeFlag(SqlTrimFunction.Flag.TRAILING),
                rexBuilder.makeLiteral(" "),
                operand);
    }

    /** A CHAR expression that is not a constant: a char(n) column or an expression of one. */
    private static boolean isCharValue(RexNode node) {
        return isChar(node) && !(node instanceof RexLiteral);
    }

    private static boolean isChar(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.CHAR;
    }

    private static boolean isVarchar(RexCall cast) {
        return cast.getType().getSqlTypeName() == SqlTypeName.VARCHAR;
    }
}
