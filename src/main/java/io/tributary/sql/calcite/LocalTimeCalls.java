package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code localtimestamp} and {@code localtime} as PostgreSQL has them: the statement's {@code now()}
 * (the transaction's start, {@link CurrentTimes}) cast to {@code timestamp} or {@code time}, which
 * {@link ZonedTimestamps} reads in the session's zone. Calcite's own read a clock of their own, so
 * {@code localtimestamp = now()::timestamp} was false. {@code localtimestamp(p)} casts to {@code
 * timestamp(p)} (PostgreSQL reduces a precision above 6 to 6), which rounds as PostgreSQL does;
 * {@code localtime(p)} with a precision below 3 stays Calcite's, as a time holds milliseconds. The
 * label stays the name ({@link ColumnLabels} reads the statement before the rewrites). Applied by
 * {@link StatementRewrite#applyAll} before {@link CurrentTimePrecisions}, in queries and views alike
 * (a temporal filter sees through the cast); one instance per statement.
 */
final class LocalTimeCalls extends StatementRewrite {
    private static final String TIMESTAMP = "LOCALTIMESTAMP";
    private static final String TIME = "LOCALTIME";
    /** PostgreSQL's largest precision, its timestamps' microseconds. */
    private static final int MICROS_DIGITS = 6;
    /** Calcite's time holds milliseconds: a smaller precision is left to Calcite's own call. */
    private static final int MILLIS_DIGITS = 3;

    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!name.equals(TIMESTAMP) && !name.equals(TIME)) {
            return super.visit(call);
        }
        if (call.operandCount() == 0) {
            return rewritten(localNow(name, -1, call.getParserPosition()));
        }
        if (call.operandCount() == 1
                && call.operand(0) instanceof SqlLiteral literal
                && literal.getTypeName() == SqlTypeName.DECIMAL) {
            int precision = literal.getValueAs(BigDecimal.class)
                    .min(BigDecimal.valueOf(MICROS_DIGITS))
                    .intValue();
            if (name.equals(TIMESTAMP)) {
                return rewritten(localNow(name, precision, call.getParserPosition()));
            }
            if (precision >= MILLIS_DIGITS) {
                return rewritten(localNow(name, -1, call.getParserPosition()));
            }
        }
        return super.visit(call);
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        // a bare name the validator would make Calcite's niladic call; quoted, it is a column
        if (id.isSimple() && !id.isComponentQuoted(0)) {
            String name = id.getSimple().toUpperCase(Locale.ROOT);
            if (name.equals(TIMESTAMP) || name.equals(TIME)) {
                return rewritten(localNow(name, -1, id.getParserPosition()));
            }
        }
        return id;
    }

    /** {@code now()} cast to the local type {@code name} stands for, of {@code precision} (-1: the type's own). */
    private static SqlNode localNow(String name, int precision, SqlParserPos pos) {
        SqlTypeName type = name.equals(TIMESTAMP) ? SqlTypeName.TIMESTAMP : SqlTypeName.TIME;
        SqlBasicTypeNameSpec spec = precision < 0 || precision == MICROS_DIGITS
                ? new SqlBasicTypeNameSpec(type, pos)
                : new SqlBasicTypeNameSpec(type, precision, pos);
        return SqlStdOperatorTable.CAST.createCall(pos, PgIntervals.call("now", pos), new SqlDataTypeSpec(spec, pos));
    }
}
