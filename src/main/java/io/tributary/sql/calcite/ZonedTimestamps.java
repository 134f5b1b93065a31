package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgSession;
import io.tributary.common.types.PgTimeZone;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * A planning step for ad-hoc queries that gives timestamptz ({@code TIMESTAMP WITH LOCAL TIME
 * ZONE}) PostgreSQL's meaning in the session's TimeZone: casts to and from timestamp, date, time
 * and text convert in that zone with PostgreSQL's rules ({@link PgTimestamptzFunctions}: Calcite's
 * own go through {@code java.util.TimeZone}, which rounds historical offsets and refuses a local
 * time a DST change skips), {@code extract(field FROM tz)} and {@code date_trunc('unit', tz)}
 * (Calcite's FLOOR) work on the local time ({@code extract(epoch ...)} on the instant), a timestamp
 * compared with a timestamptz is the instant it names in that zone. The zone
 * is a constant of the plan: a change of the session's zone invalidates its plans. Run by the
 * frontend's program on the planning thread.
 */
final class ZonedTimestamps {
    private static final SqlUserDefinedFunction LOCAL = function("pg_timestamptz_local", SqlTypeName.TIMESTAMP);
    private static final SqlUserDefinedFunction OF_LOCAL =
            function("pg_timestamptz_of_local", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final SqlUserDefinedFunction TEXT = function("pg_timestamptz_text", SqlTypeName.VARCHAR);
    private static final SqlUserDefinedFunction PARSE =
            function("pg_timestamptz_parse", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private static final SqlUserDefinedFunction MOVED =
            function("pg_timestamptz_moved", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    /** The units date_trunc truncates to without finding the offset anew. */
    private static final java.util.Set<TimeUnitRange> SUB_DAY = java.util.EnumSet.of(
            TimeUnitRange.HOUR,
            TimeUnitRange.MINUTE,
            TimeUnitRange.SECOND,
            TimeUnitRange.MILLISECOND,
            TimeUnitRange.MICROSECOND);

    private ZonedTimestamps() {}

    private static SqlUserDefinedFunction function(String name, SqlTypeName returns) {
        return PlanFunctions.scalar(PgTimestamptzFunctions.class, name, returns);
    }

    /**
     * {@code planning}, preceded by the pass that rewrites the calls above in every node.
     *
     * @param session whose {@code timezone} setting is read as each statement is planned
     */
    static Program before(Program planning, PgSession session) {
        return Programs.sequence(
                (planner, rel, traits, materializations, lattices) -> {
                    String zone = PgTimeZone.parse(session.setting("timezone")).name();
                    return rel.accept(new RelHomogeneousShuttle() {
                        @Override
                        public RelNode visit(RelNode other) {
                            return super.visit(other)
                                    .accept(new Calls(other.getCluster().getRexBuilder(), zone));
                        }
                    });
                },
                planning);
    }

    private static boolean zoned(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** Rewrites one node's expressions. */
    private static final class Calls extends RexShuttle {
        private final RexBuilder rex;
        private final RexNode zone;

        Calls(RexBuilder rex, String zone) {
            this.rex = rex;
            this.zone = rex.makeLiteral(zone);
        }

        @Override
        public RexNode visitCall(RexCall original) {
            RexNode visited = super.visitCall(original);
            if (!(visited instanceof RexCall call) || call.getOperands().isEmpty()) {
                return visited;
            }
            List<RexNode> operands = call.getOperands();
            RelDataType type = call.getType();
            switch (call.getKind()) {
                case CAST -> {
                    RexNode from = operands.get(0);
                    if (zoned(from.getType()) && !zoned(type)) {
                        return SqlTypeFamily.CHARACTER.contains(type)
                                ? rex.makeCast(type, rex.makeCall(TEXT, from, zone), false, false)
                                : rex.makeCast(type, local(from), false, false);
                    }
                    if (!zoned(from.getType()) && zoned(type)) {
                        return fromLocal(type, from);
                    }
                }
                case EXTRACT -> {
                    if (operands.size() == 2 && zoned(operands.get(1).getType())) {
                        RexNode tz = operands.get(1);
                        boolean epoch = operands.get(0) instanceof RexLiteral unit
                                && (unit.getValue() == TimeUnitRange.EPOCH
                                        || SqlTypeFamily.CHARACTER.contains(unit.getType())
                                                && "epoch".equalsIgnoreCase(unit.getValueAs(String.class)));
                        // the epoch counts from the instant: the value's UTC time, read as a timestamp
                        RexNode arg =
                                epoch ? rex.makeReinterpretCast(timestamp(tz), tz, rex.makeLiteral(false)) : local(tz);
                        return rex.makeCall(type, call.getOperator(), List.of(operands.get(0), arg));
                    }
                }
                case FLOOR, CEIL -> {
                    if (operands.size() == 2 && zoned(operands.get(0).getType())) {
                        RexNode tz = operands.get(0);
                        RexNode local = local(tz);
                        RexNode truncated = call.getKind() == SqlKind.FLOOR
                                ? PgDateTrunc.truncateCall(rex, local.getType(), local, operands.get(1))
                                : null;
                        if (truncated == null) {
                            truncated = rex.makeCall(call.getOperator(), local, operands.get(1));
                        }
                        // PostgreSQL finds the offset anew for a day or longer; a shorter unit keeps the value's
                        return operands.get(1) instanceof RexLiteral unit
                                        && unit.getValue() instanceof TimeUnitRange range
                                        && SUB_DAY.contains(range)
                                ? rex.makeCall(type, MOVED, List.of(tz, local, truncated))
                                : fromLocal(type, truncated);
                    }
                }
                case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                    // PostgreSQL compares a timestamp with a timestamptz as the instant it names in the zone
                    if (operands.size() == 2) {
                        RexNode a = operands.get(0);
                        RexNode b = operands.get(1);
                        boolean localA = a.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
                        boolean localB = b.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
                        if (zoned(a.getType()) && localB) {
                            return rex.makeCall(call.getOperator(), a, fromLocal(instant(b, a), b));
                        }
                        if (localA && zoned(b.getType())) {
                            return rex.makeCall(call.getOperator(), fromLocal(instant(a, b), a), b);
                        }
                    }
                }
                default -> {}
            }
            return call;
        }

        /** A timestamptz from a timestamp, date or text {@code from}, read in the session's zone. */
        private RexNode fromLocal(RelDataType type, RexNode from) {
            if (SqlTypeFamily.CHARACTER.contains(from.getType())) {
                return rex.makeCall(type, PARSE, List.of(from, zone));
            }
            RexNode local = from.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
                    ? from
                    : rex.makeCast(timestamp(from), from, false, false);
            return rex.makeCall(type, OF_LOCAL, List.of(local, zone));
        }

        /** The timestamptz type {@code local} takes beside {@code zoned}: its precision, its nullability. */
        private RelDataType instant(RexNode local, RexNode zoned) {
            return rex.getTypeFactory()
                    .createTypeWithNullability(zoned.getType(), local.getType().isNullable());
        }

        /** The value's local time in the session's zone. */
        private RexNode local(RexNode tz) {
            return rex.makeCall(timestamp(tz), LOCAL, List.of(tz, zone));
        }

        private RelDataType timestamp(RexNode tz) {
            RelDataTypeFactory types = rex.getTypeFactory();
            return types.createTypeWithNullability(
                    types.createSqlType(
                            SqlTypeName.TIMESTAMP, Math.max(tz.getType().getPrecision(), 0)),
                    tz.getType().isNullable());
        }
    }
}
