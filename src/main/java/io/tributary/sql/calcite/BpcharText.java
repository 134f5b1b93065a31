package io.tributary.sql.calcite;

import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's conversion of a {@code character(n)} value to text, which drops its trailing
 * blanks: {@code length('ab  '::char(4))} is 2 and {@code 'ab'::char(4) || 'x'} is {@code abx},
 * where Calcite's CHAR keeps its padding in every function (4, {@code 'ab  x'}). Such a value is a
 * cast to CHAR(n) or a {@code character(n)} column (a CHAR identifier); Calcite's own type of a
 * string constant is CHAR too, which is why a constant is never one. Casts of a column to text and
 * comparisons of expressions are {@link BpcharOperands}', after validation.
 */
final class BpcharText {
    /**
     * Calls whose arguments PostgreSQL takes as {@code any} or as {@code character} itself, so
     * that they keep the blanks: {@code concat('ab'::char(4), 'x')} is {@code 'ab  x'}, and {@code
     * octet_length} (written as {@code pg_octet_length} before validation) counts the padding.
     */
    static final Set<String> KEEPING_BLANKS =
            Set.of("CONCAT", "CONCAT_WS", "FORMAT", "PG_CONCAT_TEXT", "PG_TYPEOF", "PG_OCTET_LENGTH");

    private BpcharText() {}

    /**
     * Before validation derives {@code call}'s type: when it is {@code ||} or a function taking
     * text, each of its arguments cast to CHAR(n) or naming a {@code character(n)} column ({@code
     * typeOf} gives an operand's type) becomes {@code TRIM(TRAILING ' ' FROM x)}; when it is a
     * comparison with such a value, so do the value and a string constant compared with it
     * ({@code 'a'::char(3) = 'a'} is true, as PostgreSQL's {@code bpchar} comparison ignores
     * trailing blanks). Called by {@link PgValidator} on the validating thread, in queries and
     * materialized views alike; CASE, COALESCE and casts are left alone (a cast to text keeps the
     * blanks here, as before).
     */
    static void strip(SqlBasicCall call, Function<SqlNode, RelDataType> typeOf) {
        boolean concatenation = call.getOperator() == SqlStdOperatorTable.CONCAT;
        boolean function = call.getOperator() instanceof SqlFunction
                && !(call.getOperator() instanceof SqlAggFunction)
                && call.getKind() != SqlKind.COALESCE
                && call.getKind() != SqlKind.CAST
                && call.getKind() != SqlKind.TRIM
                && !KEEPING_BLANKS.contains(call.getOperator().getName().toUpperCase(java.util.Locale.ROOT));
        boolean comparison = SqlKind.BINARY_COMPARISON.contains(call.getKind())
                && call.operandCount() == 2
                && (isCharValue(call.operand(0), typeOf) || isCharValue(call.operand(1), typeOf));
        if (!concatenation && !function && !comparison) {
            return;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode operand = call.operand(i);
            // compared with a character(n), a string constant is one too: its blanks do not count either
            if (isCharValue(operand, typeOf) || comparison && operand instanceof SqlCharStringLiteral) {
                call.setOperand(i, trailingBlanksTrimmed(operand));
            }
        }
    }

    private static SqlNode trailingBlanksTrimmed(SqlNode operand) {
        SqlParserPos pos = operand.getParserPosition();
        return SqlStdOperatorTable.TRIM.createCall(
                pos, SqlTrimFunction.Flag.TRAILING.symbol(pos), SqlLiteral.createCharString(" ", pos), operand);
    }

    /**
     * A cast to CHAR(n), or a column of type {@code character(n)} (Calcite's CHAR; a string
     * constant, CHAR too, is not one).
     */
    private static boolean isCharValue(SqlNode node, Function<SqlNode, RelDataType> typeOf) {
        if (isCharCast(node)) {
            return true;
        }
        if (!(node instanceof SqlIdentifier)) {
            return false;
        }
        try {
            return typeOf.apply(node).getSqlTypeName() == SqlTypeName.CHAR;
        } catch (RuntimeException e) {
            // not a column in scope: validation reports it where it always did
            return false;
        }
    }

    private static boolean isCharCast(SqlNode node) {
        return node instanceof SqlBasicCall cast
                && cast.getKind() == SqlKind.CAST
                && cast.operandCount() == 2
                && cast.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("CHAR");
    }
}
