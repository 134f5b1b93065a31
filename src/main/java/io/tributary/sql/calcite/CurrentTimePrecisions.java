package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code current_timestamp(p)}, {@code localtimestamp(p)}, {@code current_time(p)} and {@code
 * localtime(p)} with PostgreSQL's precisions: up to 6 digits of a second (a larger one PostgreSQL
 * reduces to 6), where Calcite refuses more than 3. Tributary's times hold milliseconds, so a
 * precision of 3 or more is the value itself: such a call is written with precision 3, and
 * {@code current_timestamp(p)} as {@code now()} (PostgreSQL's timestamptz, {@link
 * CurrentTimestampCalls}). Smaller precisions stay Calcite's. Applied by {@link
 * StatementRewrite#applyAll} before validation; one instance per statement.
 */
final class CurrentTimePrecisions extends StatementRewrite {
    private static final Set<String> NAMES = Set.of("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_TIME", "LOCALTIME");
    /** Calcite's largest precision of these calls (SqlTypeName.MAX_DATETIME_PRECISION). */
    private static final int CALCITE_MAX = 3;

    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (call.operandCount() == 1
                && NAMES.contains(name)
                && call.operand(0) instanceof SqlLiteral literal
                && literal.getTypeName() == SqlTypeName.DECIMAL
                && literal.getValueAs(BigDecimal.class).compareTo(BigDecimal.valueOf(CALCITE_MAX)) >= 0) {
            if (name.equals("CURRENT_TIMESTAMP")) {
                return rewritten(PgIntervals.call("now", call.getParserPosition()));
            }
            call.setOperand(
                    0, SqlLiteral.createExactNumeric(Integer.toString(CALCITE_MAX), literal.getParserPosition()));
            return rewritten(call);
        }
        return super.visit(call);
    }
}
