package io.tributary.sql.calcite;

import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's common type of dates and timestamps among GREATEST's or LEAST's arguments: a date
 * beside a timestamp is that timestamp ({@code least(d, ts)} and {@code least(d, '2024-01-15',
 * ts)} are timestamps), beside a timestamptz a timestamptz. Calcite's GREATEST and LEAST want one
 * type and refused the mix; the date operands are cast to the wider type, so a string constant
 * among them is then read as that type ({@link ConstructConstants}). Called by {@link PgValidator}
 * on the validating thread; stateless.
 */
final class DateTimeOperands {
    private DateTimeOperands() {}

    /**
     * Casts {@code call}'s date and timestamp operands to the widest of their types when they mix
     * them; {@code typeOf} gives an operand's type. Other calls are left alone.
     *
     * @return whether an operand was cast
     */
    static boolean widen(SqlCall call, Function<SqlNode, RelDataType> typeOf) {
        boolean date = false;
        SqlTypeName widest = null;
        for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlCharStringLiteral
                    || operand instanceof SqlDynamicParam
                    || SqlUtil.isNullLiteral(operand, false)) {
                continue;
            }
            SqlTypeName name = typeOf.apply(operand).getSqlTypeName();
            switch (name) {
                case DATE -> date = true;
                case TIMESTAMP -> widest = widest == null ? name : widest;
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> widest = name;
                default -> {
                    return false;
                }
            }
        }
        if (!date || widest == null) {
            return false;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode operand = call.operand(i);
            if (!(operand instanceof SqlCharStringLiteral
                            || operand instanceof SqlDynamicParam
                            || SqlUtil.isNullLiteral(operand, false))
                    && typeOf.apply(operand).getSqlTypeName() == SqlTypeName.DATE) {
                SqlParserPos pos = operand.getParserPosition();
                call.setOperand(
                        i,
                        SqlStdOperatorTable.CAST.createCall(
                                pos, operand, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(widest, pos), pos)));
            }
        }
        return true;
    }
}
