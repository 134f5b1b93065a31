package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's type of {@code real} ({@code float4}) arithmetic beside an integer or a NUMERIC.
 * PostgreSQL has {@code + - * /} for {@code float4} with {@code float4} and with {@code float8}
 * only; an integer or NUMERIC operand can become either, and its preferred float8 wins, so {@code
 * 0.1::real * 3} is double precision ({@code 0.30000000447034836}). Calcite's least restrictive
 * type of the two is REAL, which printed {@code 0.3}. A string constant, NULL or parameter beside a
 * {@code real} still takes its type, as in PostgreSQL.
 */
final class RealArithmetic {
    private RealArithmetic() {}

    /**
     * Before validation derives {@code call}'s type: when it is {@code + - * /} of a REAL and an
     * exact number, the REAL operand becomes {@code CAST(x AS DOUBLE)}, so that Calcite types the
     * call double precision. Called by {@link PgValidator} on the validating thread, in queries and
     * materialized views alike; another call is left alone.
     */
    static void widen(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        SqlKind kind = call.getKind();
        if (call.operandCount() != 2
                || kind != SqlKind.PLUS && kind != SqlKind.MINUS && kind != SqlKind.TIMES && kind != SqlKind.DIVIDE) {
            return;
        }
        int real = -1;
        int exact = -1;
        for (int i = 0; i < 2; i++) {
            SqlNode operand = call.operand(i);
            if (operand instanceof SqlDynamicParam || SqlUtil.isNullLiteral(operand, true)) {
                return;
            }
            RelDataType type = validator.deriveType(scope, operand);
            if (type.getSqlTypeName() == SqlTypeName.REAL) {
                real = i;
            } else if (SqlTypeUtil.isExactNumeric(type)) {
                exact = i;
            }
        }
        if (real < 0 || exact < 0) {
            return;
        }
        SqlNode operand = call.operand(real);
        SqlParserPos pos = operand.getParserPosition();
        SqlDataTypeSpec doubleSpec =
                SqlTypeUtil.convertTypeToSpec(validator.getTypeFactory().createSqlType(SqlTypeName.DOUBLE));
        call.setOperand(real, SqlStdOperatorTable.CAST.createCall(pos, operand, doubleSpec));
    }
}
