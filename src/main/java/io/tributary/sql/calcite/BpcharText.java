package io.tributary.sql.calcite;

import java.util.Set;
import java.util.function.Predicate;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's conversion of a {@code character(n)} value to text, which drops its trailing
 * blanks: {@code length('ab  '::char(4))} is 2 and {@code 'ab'::char(4) || 'x'} is {@code abx},
 * where Calcite's CHAR keeps its padding in every function (4, {@code 'ab  x'}). Such a value is a
 * cast to CHAR(n) or a table's {@code character(n)} column, named by an identifier (directly or
 * through derived tables, WITH queries and views; {@link CharColumns}
 * tells); Calcite's own type of a string constant is CHAR too, as is a derived table's column made
 * of one (PostgreSQL's text), which is why the type alone does not tell.
 */
final class BpcharText {
    /**
     * Calls whose arguments PostgreSQL takes as {@code any} or as {@code character} itself, so
     * that they keep the blanks: {@code concat('ab'::char(4), 'x')} is {@code 'ab  x'}, and {@code
     * octet_length} (written as {@code pg_octet_length} before validation) counts the padding.
     */
    static final Set<String> KEEPING_BLANKS =
            Set.of("CONCAT", "CONCAT_WS", "FORMAT", "PG_CONCAT_TEXT", "PG_TYPEOF", "PG_OCTET_LENGTH", "PG_COLUMN_SIZE");

    private BpcharText() {}

    /**
     * Before validation derives {@code call}'s type: when it is {@code ||}, a function taking
     * text or a cast to text or varchar, each of its arguments cast to CHAR(n) or naming a table's
     * {@code character(n)} column ({@code charColumn} tells) becomes {@code TRIM(TRAILING ' ' FROM
     * x)}; when it is a comparison or IN list with such a value, so do the value and the string
     * constants and parameters compared with it ({@code 'a'::char(3) = 'a'} is true, as
     * PostgreSQL's {@code bpchar} comparison ignores trailing blanks); a {@link #KEEPING_BLANKS}
     * call's casts of such values to text are dropped, so they keep their padding (an explicit
     * {@code concat(c::text)} too, where PostgreSQL drops it). Called by {@link PgValidator} on the
     * validating thread, in queries and materialized views alike; CASE and COALESCE are left alone.
     */
    static void strip(SqlBasicCall call, Predicate<SqlNode> charColumn) {
        if (call.getKind() == SqlKind.CAST && isToText(call) && isCharValue(call.operand(0), charColumn)) {
            call.setOperand(0, trailingBlanksTrimmed(call.operand(0)));
            return;
        }
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        if (call.getOperator() instanceof SqlFunction && KEEPING_BLANKS.contains(name)) {
            // concat's own casts of its arguments to text keep the padding: its argument is "any"
            for (int i = 0; i < call.operandCount(); i++) {
                if (call.operand(i) instanceof SqlBasicCall cast
                        && cast.getKind() == SqlKind.CAST
                        && isToText(cast)
                        && isCharValue(cast.operand(0), charColumn)) {
                    call.setOperand(i, cast.operand(0));
                }
            }
            return;
        }
        if (call.getKind() == SqlKind.IN
                && isCharValue(call.operand(0), charColumn)
                && call.operand(1) instanceof SqlNodeList list) {
            // c IN ('a', 'b') is c = 'a' OR c = 'b'
            call.setOperand(0, trailingBlanksTrimmed(call.operand(0)));
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof SqlCharStringLiteral) {
                    list.set(i, trailingBlanksTrimmed(list.get(i)));
                }
            }
            return;
        }
        boolean concatenation = call.getOperator() == SqlStdOperatorTable.CONCAT;
        boolean function = call.getOperator() instanceof SqlFunction
                && !(call.getOperator() instanceof SqlAggFunction)
                && call.getKind() != SqlKind.COALESCE
                && call.getKind() != SqlKind.CAST
                && call.getKind() != SqlKind.TRIM
                && !KEEPING_BLANKS.contains(call.getOperator().getName().toUpperCase(java.util.Locale.ROOT));
        boolean comparison = SqlKind.BINARY_COMPARISON.contains(call.getKind())
                && call.operandCount() == 2
                && (isCharValue(call.operand(0), charColumn) || isCharValue(call.operand(1), charColumn));
        if (!concatenation && !function && !comparison) {
            return;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode operand = call.operand(i);
            // compared with a character(n), a string constant is one too: its blanks do not count either
            // a parameter compared with one is typed CHAR(n) by the comparison, so it is padded
            if (isCharValue(operand, charColumn)
                    || comparison && (operand instanceof SqlCharStringLiteral || operand instanceof SqlDynamicParam)) {
                call.setOperand(i, trailingBlanksTrimmed(operand));
            }
        }
    }

    /** A cast to text or varchar, which PostgreSQL's {@code rtrim1} does for a bpchar value. */
    private static boolean isToText(SqlBasicCall cast) {
        if (cast.operandCount() != 2 || !(cast.operand(1) instanceof SqlDataTypeSpec spec)) {
            return false;
        }
        String name = spec.getTypeNameSpec().getTypeName().getSimple();
        return name.equalsIgnoreCase("VARCHAR") || name.equalsIgnoreCase("TEXT");
    }

    private static SqlNode trailingBlanksTrimmed(SqlNode operand) {
        SqlParserPos pos = operand.getParserPosition();
        return SqlStdOperatorTable.TRIM.createCall(
                pos, SqlTrimFunction.Flag.TRAILING.symbol(pos), SqlLiteral.createCharString(" ", pos), operand);
    }

    /** A cast to CHAR(n), or a table's {@code character(n)} column ({@code charColumn}). */
    private static boolean isCharValue(SqlNode node, Predicate<SqlNode> charColumn) {
        return isCharCast(node) || node instanceof SqlIdentifier && charColumn.test(node);
    }

    private static boolean isCharCast(SqlNode node) {
        return node instanceof SqlBasicCall cast
                && cast.getKind() == SqlKind.CAST
                && cast.operandCount() == 2
                && cast.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("CHAR");
    }
}
