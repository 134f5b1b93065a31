package io.tributary.sql.calcite;

import io.tributary.common.types.PgArrayLiteral;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code x = ANY (ARRAY[a, b])} and {@code x = ANY ('{a,b}')} (and {@code ALL}, and the other
 * comparisons) answered as PostgreSQL answers them: as {@code (x = a OR x = b)} (and {@code AND}
 * for {@code ALL}), which is PostgreSQL's three-valued definition (true when some comparison is
 * true, else NULL when some is NULL, else false). Calcite's own code for a quantified comparison
 * with an array failed on a NULL {@code x} of a primitive type (an internal error). A string
 * constant there is PostgreSQL's array text ({@link PgArrayLiteral}): each element becomes a
 * string constant, which its comparison coerces to {@code x}'s type as PostgreSQL's unknown-typed
 * elements are (so {@code 1 = ANY ('{1,x}')} is 22P02, a date column compares with dates); an
 * empty array is false for {@code ANY} and true for {@code ALL}. An {@code ARRAY[...]} of string
 * constants alone is {@code text[]}, as in PostgreSQL. A sub-query on either side is
 * left to Calcite. One instance per statement; planning thread.
 */
final class AnyArrayConstants extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlCall visited = (SqlCall) super.visit(call);
        if (visited == null
                || !(visited.getOperator() instanceof SqlQuantifyOperator quantify)
                || visited.operandCount() != 2
                || visited.operand(0).getKind() == SqlKind.SELECT) {
            return visited;
        }
        // the parenthesized operand is a one-element list: ANY ('{...}') or ANY (ARRAY[...])
        if (!(visited.operand(1) instanceof SqlNodeList list) || list.size() != 1) {
            return visited;
        }
        SqlParserPos pos = visited.getParserPosition();
        List<SqlNode> elements;
        if (list.get(0) instanceof SqlCharStringLiteral constant) {
            elements = new ArrayList<>();
            for (String e : PgArrayLiteral.elements(constant.getValueAs(String.class))) {
                elements.add(e == null ? SqlLiteral.createNull(pos) : SqlLiteral.createCharString(e, pos));
            }
        } else if (list.get(0) instanceof SqlCall array && array.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            elements = textIfAllStrings(array.getOperandList(), pos);
        } else if (visited.operand(0) instanceof SqlCharStringLiteral text) {
            // 'a' = ANY (tags) over an array column: a materialized view's validator finds CHAR(1) and
            // a VARCHAR array's elements incompatible; PostgreSQL's unknown constant is text here
            visited.setOperand(0, toText(text, pos));
            return rewritten(visited);
        } else {
            return visited;
        }
        boolean all = visited.getKind() == SqlKind.ALL;
        if (elements.isEmpty()) {
            return rewritten(SqlLiteral.createBoolean(all, pos));
        }
        SqlBinaryOperator comparison = comparison(quantify.comparisonKind);
        SqlNode result = null;
        for (SqlNode element : elements) {
            SqlNode test = comparison.createCall(pos, visited.operand(0), element);
            result = result == null
                    ? test
                    : (all ? SqlStdOperatorTable.AND : SqlStdOperatorTable.OR).createCall(pos, result, test);
        }
        return rewritten(result);
    }

    /**
     * The elements of {@code ARRAY[...]}, each string constant cast to text when every element is a
     * string constant or NULL: PostgreSQL types such an array {@code text[]}, so {@code b = ANY
     * (ARRAY['yes'])} compares a boolean with text (42883), while a string beside a typed element
     * ({@code ARRAY['1', 2]}) takes that element's type, as the comparisons then give it.
     */
    private static List<SqlNode> textIfAllStrings(List<SqlNode> elements, SqlParserPos pos) {
        boolean anyString = false;
        for (SqlNode element : elements) {
            if (element instanceof SqlCharStringLiteral) {
                anyString = true;
            } else if (!SqlUtil.isNullLiteral(element, false)) {
                return elements;
            }
        }
        if (!anyString) {
            return elements;
        }
        List<SqlNode> texts = new ArrayList<>(elements.size());
        for (SqlNode element : elements) {
            texts.add(element instanceof SqlCharStringLiteral ? toText(element, pos) : element);
        }
        return texts;
    }

    private static SqlNode toText(SqlNode operand, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, operand, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
    }

    private static SqlBinaryOperator comparison(SqlKind kind) {
        return switch (kind) {
            case EQUALS -> SqlStdOperatorTable.EQUALS;
            case NOT_EQUALS -> SqlStdOperatorTable.NOT_EQUALS;
            case LESS_THAN -> SqlStdOperatorTable.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case GREATER_THAN -> SqlStdOperatorTable.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
            default -> throw new IllegalStateException("no quantified comparison " + kind);
        };
    }
}
