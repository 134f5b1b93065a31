package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * An argument of {@code concat()} as the text PostgreSQL adds for it. {@link PgValueSemantics}
 * writes each argument as {@code pg_concat_text(CAST(arg AS VARCHAR))}; {@link PgValidator}, which
 * knows the argument's type, takes the cast away from a boolean, so that the boolean overload adds
 * {@code t} or {@code f} (PostgreSQL's output of a boolean) where Calcite's cast gives {@code
 * TRUE}/{@code FALSE}. Calcite calls the public static methods by reflection, on the thread
 * evaluating the expression.
 */
public final class PgConcatText {
    static final String NAME = "pg_concat_text";

    private PgConcatText() {}

    /** A text argument, already PostgreSQL's text (or NULL). */
    public static String pg_concat_text(String text) {
        return text;
    }

    /** A boolean argument: {@code t}, {@code f} or NULL. */
    public static String pg_concat_text(Boolean b) {
        return b == null ? null : b ? "t" : "f";
    }

    /** {@code pg_concat_text(text)}, unresolved until validation. */
    static SqlNode call(SqlNode text, SqlParserPos pos) {
        SqlUnresolvedFunction function = new SqlUnresolvedFunction(
                new SqlIdentifier(NAME, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
        return new SqlBasicCall(function, List.of(text), pos);
    }

    /**
     * Before validation derives {@code call}'s type: when it is a {@code pg_concat_text(CAST(x AS
     * VARCHAR))} of a boolean {@code x}, its argument becomes {@code x}. Called by {@link
     * PgValidator} on the validating thread; another call is left alone.
     */
    static void unwrapBoolean(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (!call.getOperator().getName().equalsIgnoreCase(NAME)
                || call.operandCount() != 1
                || call.operand(0).getKind() != SqlKind.CAST) {
            return;
        }
        SqlNode value = ((SqlBasicCall) call.operand(0)).operand(0);
        RelDataType type = validator.deriveType(scope, value);
        if (type.getSqlTypeName() == SqlTypeName.BOOLEAN) {
            call.setOperand(0, value);
        }
    }

    /**
     * Before validation derives {@code call}'s type: when it is {@code concat_ws}, each boolean
     * argument after the separator becomes {@code pg_concat_text(arg)}, so it adds {@code t} or
     * {@code f} as in PostgreSQL where Calcite's would add {@code TRUE}/{@code FALSE}. Called by
     * {@link PgValidator} on the validating thread; another call is left alone.
     */
    static void wrapConcatWsBooleans(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (!call.getOperator().getName().equalsIgnoreCase("CONCAT_WS")) {
            return;
        }
        for (int i = 1; i < call.operandCount(); i++) {
            SqlNode arg = call.operand(i);
            if (validator.deriveType(scope, arg).getSqlTypeName() == SqlTypeName.BOOLEAN) {
                call.setOperand(i, call(arg, arg.getParserPosition()));
            }
        }
    }
}
