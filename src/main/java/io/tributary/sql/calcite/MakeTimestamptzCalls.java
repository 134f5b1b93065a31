package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code make_timestamptz(year, month, day, hour, min, sec [, zone])}: the local time
 * {@code make_timestamp} makes of the six fields, read in the session's TimeZone ({@code
 * ::timestamptz}) or in {@code zone} ({@code timezone(zone, ...)}, as {@code AT TIME ZONE} reads a
 * timestamp, a numeric offset's sign turned by {@link PgDateFunctions#pg_make_timestamptz_zone}),
 * which is what PostgreSQL computes. Other argument counts stay as written, so they
 * are 42883 as in PostgreSQL; the column keeps the label {@code make_timestamptz}, as labels are
 * taken before rewrites. Applied by {@link StatementRewrite#applyAll} before validation; one
 * instance per statement.
 */
final class MakeTimestamptzCalls extends StatementRewrite {
    private static final int FIELDS = 6;

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c)
                || !c.getOperator().getName().equalsIgnoreCase("make_timestamptz")
                || (c.operandCount() != FIELDS && c.operandCount() != FIELDS + 1)) {
            return visited;
        }
        SqlParserPos pos = c.getParserPosition();
        SqlNode local = PgIntervals.call(
                "make_timestamp", pos, c.getOperandList().subList(0, FIELDS).toArray(new SqlNode[0]));
        if (c.operandCount() == FIELDS + 1) {
            SqlNode zone = PgIntervals.call("pg_make_timestamptz_zone", pos, c.operand(FIELDS));
            return rewritten(PgIntervals.call("timezone", pos, zone, local));
        }
        return rewritten(SqlStdOperatorTable.CAST.createCall(
                pos,
                local,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, pos), pos)));
    }
}
