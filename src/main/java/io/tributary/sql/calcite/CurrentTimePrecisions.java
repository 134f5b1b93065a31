package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code current_timestamp(p)}, {@code localtimestamp(p)}, {@code current_time(p)} and {@code
 * localtime(p)} with PostgreSQL's precisions: up to 6 digits of a second (a larger one PostgreSQL
 * reduces to 6), where Calcite refuses more than 3. {@code current_timestamp(p)} is {@code now()}
 * (PostgreSQL's timestamptz, {@link CurrentTimestampCalls}, microseconds) cast to {@code
 * timestamptz(p)}, which rounds it as PostgreSQL does ({@link MillisecondCalls}); the others,
 * Calcite's, hold milliseconds, so a precision of 3 or more is written as 3. Smaller precisions stay
 * Calcite's. Applied by {@link
 * StatementRewrite#applyAll} before validation; one instance per statement.
 */
final class CurrentTimePrecisions extends StatementRewrite {
    private static final Set<String> NAMES = Set.of("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_TIME", "LOCALTIME");
    /** Calcite's largest precision of these calls (SqlTypeName.MAX_DATETIME_PRECISION). */
    private static final int CALCITE_MAX = 3;
    /** PostgreSQL's largest precision, its timestamps' microseconds. */
    private static final int MICROS_DIGITS = 6;

    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (call.operandCount() == 1
                && NAMES.contains(name)
                && call.operand(0) instanceof SqlLiteral literal
                && literal.getTypeName() == SqlTypeName.DECIMAL
                && literal.getValueAs(BigDecimal.class).compareTo(BigDecimal.valueOf(CALCITE_MAX)) >= 0) {
            if (name.equals("CURRENT_TIMESTAMP")) {
                SqlNode now = PgIntervals.call("now", call.getParserPosition());
                int precision = Math.min(literal.getValueAs(BigDecimal.class).intValue(), MICROS_DIGITS);
                return rewritten(
                        precision == MICROS_DIGITS
                                ? now
                                : SqlStdOperatorTable.CAST.createCall(
                                        call.getParserPosition(),
                                        now,
                                        new SqlDataTypeSpec(
                                                new SqlBasicTypeNameSpec(
                                                        SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                                                        precision,
                                                        call.getParserPosition()),
                                                call.getParserPosition())));
            }
            call.setOperand(
                    0, SqlLiteral.createExactNumeric(Integer.toString(CALCITE_MAX), literal.getParserPosition()));
            return rewritten(call);
        }
        return super.visit(call);
    }
}
