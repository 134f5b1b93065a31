package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's type of {@code ||} of strings, one a {@code varchar(n)}: {@code text} (its {@code
 * textcat} takes and returns text), where Calcite's is {@code varchar} of the lengths' sum, so
 * {@code pg_typeof(v || v)} of a {@code varchar(5)} column said {@code character varying}.
 */
final class VarcharConcatenation {
    private VarcharConcatenation() {}

    /**
     * Before validation derives {@code call}'s type: when it is {@code ||} of two strings, each
     * {@code varchar(n)} operand becomes {@code CAST(x AS VARCHAR)} (text), so that Calcite types
     * the call text. Called by {@link PgValidator} on the validating thread; another call (an
     * array's or jsonb's {@code ||}, a parameter or NULL operand) is left alone.
     */
    static void widen(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (call.getOperator() != SqlStdOperatorTable.CONCAT || call.operandCount() != 2) {
            return;
        }
        boolean bounded = false;
        for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlDynamicParam || SqlUtil.isNullLiteral(operand, true)) {
                return;
            }
            RelDataType type = validator.deriveType(scope, operand);
            if (!SqlTypeUtil.isCharacter(type)) {
                return;
            }
            bounded |= isBoundedVarchar(type);
        }
        if (!bounded) {
            return;
        }
        SqlDataTypeSpec text =
                SqlTypeUtil.convertTypeToSpec(validator.getTypeFactory().createSqlType(SqlTypeName.VARCHAR));
        for (int i = 0; i < 2; i++) {
            SqlNode operand = call.operand(i);
            if (isBoundedVarchar(validator.deriveType(scope, operand))) {
                call.setOperand(i, SqlStdOperatorTable.CAST.createCall(operand.getParserPosition(), operand, text));
            }
        }
    }

    private static boolean isBoundedVarchar(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.VARCHAR
                && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED;
    }
}
