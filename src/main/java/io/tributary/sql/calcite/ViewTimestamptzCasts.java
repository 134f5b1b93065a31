package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * A view's casts between timestamptz and text as PostgreSQL's in UTC: a timestamptz written as
 * {@code 2024-01-01 10:00:00.5+00} ({@link PgTimestamptzFunctions#pg_timestamptz_text}), text read
 * with PostgreSQL's input rules, zone names included ({@link
 * PgTimestamptzFunctions#pg_timestamptz_parse}). Calcite's own casts write milliseconds and the
 * zone's name, and read neither offsets nor zone names as PostgreSQL does. A query's casts are {@link ZonedTimestamps}' (the session's
 * zone); a view is maintained in UTC, and {@link TimeZoneUse} refuses one that converts a
 * timestamptz in another zone, so UTC is its zone. Applied by {@link ExpressionCompiler} to each
 * expression of a view before it is compiled; stateless but for its builder.
 */
final class ViewTimestamptzCasts extends RexShuttle {
    private static final SqlUserDefinedFunction TEXT =
            PlanFunctions.scalar(PgTimestamptzFunctions.class, "pg_timestamptz_text", SqlTypeName.VARCHAR);

    private static final SqlUserDefinedFunction PARSE = PlanFunctions.scalar(
            PgTimestamptzFunctions.class, "pg_timestamptz_parse", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private final RexBuilder rexBuilder;

    ViewTimestamptzCasts(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (!(visited instanceof RexCall cast) || cast.getKind() != SqlKind.CAST) {
            return visited;
        }
        RexNode operand = cast.getOperands().get(0);
        SqlTypeName from = operand.getType().getSqlTypeName();
        SqlTypeName to = cast.getType().getSqlTypeName();
        if (from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && SqlTypeFamily.CHARACTER.contains(cast.getType())) {
            return rexBuilder.makeCall(cast.getType(), TEXT, List.of(operand, rexBuilder.makeLiteral("UTC")));
        }
        if (to == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && SqlTypeFamily.CHARACTER.contains(operand.getType())) {
            return rexBuilder.makeCall(cast.getType(), PARSE, List.of(operand, rexBuilder.makeLiteral("UTC")));
        }
        return visited;
    }
}
