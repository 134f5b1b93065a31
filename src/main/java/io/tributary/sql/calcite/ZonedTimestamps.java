package io.tributary.sql.calcite;

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
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * A planning step for ad-hoc queries that gives timestamptz ({@code TIMESTAMP WITH LOCAL TIME
 * ZONE}) PostgreSQL's meaning in the session's TimeZone, which Calcite's casts to and from
 * timestamp read from the statement's DataContext ({@link SessionSchemas#timeZone}):
 * {@code extract(field FROM tz)} and {@code date_trunc('unit', tz)} (Calcite's FLOOR) work on the
 * local time ({@code extract(epoch ...)} on the instant), and {@code tz::text} prints the local
 * time and its offset ({@link PgTimestamptzFunctions}). Calcite's own versions read the UTC time, and
 * its text names the zone. Run by the frontend's program on the planning thread; stateless.
 */
final class ZonedTimestamps {
    private static final SqlUserDefinedFunction TEXT = new SqlUserDefinedFunction(
            new SqlIdentifier("pg_timestamptz_text", SqlParserPos.ZERO),
            SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.explicit(SqlTypeName.VARCHAR), SqlTypeTransforms.TO_NULLABLE),
            null,
            null,
            ScalarFunctionImpl.create(PgTimestamptzFunctions.class, "pg_timestamptz_text"));

    private ZonedTimestamps() {}

    /** {@code planning}, preceded by the pass that rewrites the calls above in every node. */
    static Program before(Program planning) {
        return Programs.sequence(
                (planner, rel, traits, materializations, lattices) -> rel.accept(new RelHomogeneousShuttle() {
                    @Override
                    public RelNode visit(RelNode other) {
                        return super.visit(other)
                                .accept(new Calls(other.getCluster().getRexBuilder()));
                    }
                }),
                planning);
    }

    private static boolean zoned(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** Rewrites one node's expressions. */
    private static final class Calls extends RexShuttle {
        private final RexBuilder rex;

        Calls(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall original) {
            RexNode visited = super.visitCall(original);
            if (!(visited instanceof RexCall call) || call.getOperands().isEmpty()) {
                return visited;
            }
            List<RexNode> operands = call.getOperands();
            SqlKind kind = call.getKind();
            if (kind == SqlKind.CAST && zoned(operands.get(0)) && SqlTypeFamily.CHARACTER.contains(call.getType())) {
                RexNode tz = operands.get(0);
                return rex.makeCast(call.getType(), rex.makeCall(TEXT, local(tz), tz), false, false);
            }
            if (kind == SqlKind.EXTRACT && operands.size() == 2 && zoned(operands.get(1))) {
                RexNode tz = operands.get(1);
                boolean epoch = operands.get(0) instanceof RexLiteral unit
                        && unit.getValueAs(TimeUnitRange.class) == TimeUnitRange.EPOCH;
                // the epoch counts from the instant: the value's UTC time, read as a timestamp
                RexNode arg = epoch ? rex.makeReinterpretCast(timestamp(tz), tz, rex.makeLiteral(false)) : local(tz);
                return rex.makeCall(call.getType(), call.getOperator(), List.of(operands.get(0), arg));
            }
            if ((kind == SqlKind.FLOOR || kind == SqlKind.CEIL) && operands.size() == 2 && zoned(operands.get(0))) {
                RexNode truncated = rex.makeCall(call.getOperator(), local(operands.get(0)), operands.get(1));
                return rex.makeCast(call.getType(), truncated, false, false);
            }
            return call;
        }

        /** The value's local time in the session's zone. */
        private RexNode local(RexNode tz) {
            return rex.makeCast(timestamp(tz), tz, false, false);
        }

        private RelDataType timestamp(RexNode tz) {
            RelDataTypeFactory types = rex.getTypeFactory();
            return types.createTypeWithNullability(
                    types.createSqlType(SqlTypeName.TIMESTAMP, tz.getType().getPrecision()),
                    tz.getType().isNullable());
        }
    }
}
