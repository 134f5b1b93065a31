package io.tributary.sql.calcite;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Sends the array functions whose Calcite namesakes differ from PostgreSQL's to Tributary's:
 * {@code string_to_array} to {@link PgTextArrays} (text elements, PostgreSQL's NULL and empty
 * delimiters) and the two-argument {@code array_length} to {@link PgArrayFunctions} (Calcite's
 * takes one), as {@code array_to_string} (Calcite's takes only text elements), {@code array_agg} to {@link PgArrayAgg} (which keeps NULL elements), and {@code ||} beside an array to {@link ArrayFunctions}' {@code array_cat},
 * {@code array_append} or {@code array_prepend}. Labels are taken before rewrites, so the columns
 * keep PostgreSQL's names.
 */
final class PgArrayCalls extends StatementRewrite {
    /** Functions whose value is an array, so that {@code ||} beside them is an array operator. */
    private static final Set<String> ARRAY_FUNCTIONS = Set.of(
            "array_append",
            "array_prepend",
            ArrayFunctions.CONCAT_NAME,
            "array_cat",
            "array_remove",
            "array_replace",
            "array_fill",
            ArrayFunctions.EMPTY_NAME,
            "array_agg",
            PgArrayAgg.NAME,
            "string_to_array",
            "pg_string_to_array");

    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        boolean split = name.equals("string_to_array") && (call.operandCount() == 2 || call.operandCount() == 3);
        boolean length = name.equals("array_length") && call.operandCount() == 2
                || name.equals("array_to_string") && (call.operandCount() == 2 || call.operandCount() == 3);
        if (call.getOperator().getName().equals("||") && call.operandCount() == 2) {
            return concatenation((SqlCall) super.visit(call));
        }
        if (name.equals("array_agg")) {
            SqlNode aggregate = aggregate(call);
            if (aggregate != null) {
                return rewritten(aggregate);
            }
        }
        if (!split && !length) {
            return super.visit(call);
        }
        List<SqlNode> operands = call.getOperandList().stream()
                .map(o -> o == null ? null : o.accept(this))
                .toList();
        return rewritten(new SqlBasicCall(
                new SqlUnresolvedFunction(
                        new SqlIdentifier("pg_" + name, call.getParserPosition()),
                        null,
                        null,
                        null,
                        null,
                        SqlFunctionCategory.USER_DEFINED_FUNCTION),
                operands,
                call.getParserPosition()));
    }

    /**
     * {@code array_agg(x)} as {@link PgArrayAgg}'s call, and {@code array_agg(x ORDER BY y)} (which
     * Calcite's parser gives as one call whose last operand is the order) as that call WITHIN GROUP
     * (ORDER BY y); null for other operand counts, which stay Calcite's to refuse.
     */
    private SqlNode aggregate(SqlCall call) {
        boolean ordered = call.operandCount() == 2 && call.operand(1) instanceof SqlNodeList;
        if (call.operandCount() != 1 && !ordered) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        SqlNode collected = PgArrayAgg.OPERATOR.createCall(
                call.getFunctionQuantifier(), pos, call.operand(0).accept(this));
        return ordered
                ? SqlStdOperatorTable.WITHIN_GROUP.createCall(
                        pos, collected, call.operand(1).accept(this))
                : collected;
    }

    /**
     * {@code a || b} where an operand is an array (an {@code ARRAY[...]} or a call that answers
     * one): {@code array_cat} of two arrays, else {@link ArrayFunctions#CONCAT_NAME}, which is
     * {@code array_cat}, {@code array_append} or {@code array_prepend} by the operand types, as
     * PostgreSQL resolves the operator; other concatenations are left as they are.
     */
    private SqlNode concatenation(SqlCall call) {
        boolean left = isArray(call.operand(0));
        boolean right = isArray(call.operand(1));
        if (!left && !right) {
            return call;
        }
        // the other operand may be an array column, which only validation tells apart from an element
        String function = left && right ? "array_cat" : ArrayFunctions.CONCAT_NAME;
        return rewritten(
                ArrayFunctions.named(function).createCall(call.getParserPosition(), call.operand(0), call.operand(1)));
    }

    private static boolean isArray(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return false;
        }
        return call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || call.getKind() == SqlKind.ARRAY_QUERY_CONSTRUCTOR
                || (call.getKind() == SqlKind.WITHIN_GROUP || call.getKind() == SqlKind.FILTER)
                        && isArray(call.operand(0))
                || ARRAY_FUNCTIONS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT));
    }
}
