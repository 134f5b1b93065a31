package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code x = ANY ('{a,b}')} (and {@code ALL}, and the other comparisons) read as PostgreSQL reads
 * them: the string constant is an array constant whose elements take {@code x}'s type. Calcite
 * parses the parenthesized constant as a one-element list, so {@code ANY} compared {@code x} with
 * the whole text (no row matched: a silent wrong answer) or failed on a number. The constant
 * becomes {@code ARRAY['a', 'b']} of string constants (numeric constants for elements written as
 * numbers), which the comparison coerces to {@code x}'s type as PostgreSQL's unknown-typed elements
 * are. Only unquoted, unnested elements are read
 * ({@code NULL} is a NULL element); another array constant there is 0A000 asking for a cast. One
 * instance per statement; planning thread.
 */
final class AnyArrayConstants extends StatementRewrite {
    /**
     * An element written as a plain decimal number: a numeric constant, since Calcite's coercion of
     * a string element to an integer left side failed at run time on NULL values.
     */
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?");

    @Override
    public SqlNode visit(SqlCall call) {
        SqlCall visited = (SqlCall) super.visit(call);
        if (visited == null
                || (visited.getKind() != SqlKind.SOME && visited.getKind() != SqlKind.ALL)
                || visited.operandCount() != 2) {
            return visited;
        }
        // the parenthesized operand is a one-element list, as it is for ANY (ARRAY[...]), which
        // keeps its parentheses when the statement is printed again
        if (!(visited.operand(1) instanceof SqlNodeList list)
                || list.size() != 1
                || !(list.get(0) instanceof SqlCharStringLiteral constant)) {
            return visited;
        }
        list.set(0, array(constant.getValueAs(String.class), constant.getParserPosition()));
        return rewritten(visited);
    }

    /** The elements of {@code text} as an {@code ARRAY[...]} of string constants. */
    private static SqlNode array(String text, SqlParserPos pos) {
        String t = text.trim();
        if (t.length() < 2 || t.charAt(0) != '{' || t.charAt(t.length() - 1) != '}') {
            throw new TributaryException(
                    SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"" + text + "\"");
        }
        String inner = t.substring(1, t.length() - 1);
        if (inner.isBlank()) {
            throw TributaryException.notSupported("an empty array constant after ANY or ALL (cast it, as '{}'::int[])");
        }
        List<SqlNode> elements = new ArrayList<>();
        for (String element : inner.split(",", -1)) {
            String e = element.trim();
            if (e.isEmpty() || e.chars().anyMatch(c -> c == '{' || c == '}' || c == '"' || c == '\\')) {
                throw TributaryException.notSupported(
                        "an array constant with quoted, empty or nested elements after ANY or ALL"
                                + " (cast it to its array type, as '{\"a b\"}'::text[])");
            }
            elements.add(
                    e.equalsIgnoreCase("null")
                            ? SqlLiteral.createNull(pos)
                            : NUMBER.matcher(e).matches()
                                    ? SqlLiteral.createExactNumeric(e, pos)
                                    : SqlLiteral.createCharString(e, pos));
        }
        return SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(pos, elements);
    }
}
