package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that group, join, partition or compare sets by floats, run by
 * the frontend's program ahead of the planner on the planning thread (its {@link KeyPlans} use, with
 * the aggregates' and set operations' rewrite of its own); stateless. PostgreSQL holds
 * {@code -0} and {@code 0} equal, so they are one group of a GROUP BY or DISTINCT, one row of a
 * UNION, INTERSECT or EXCEPT, one window partition, and join and match ({@code IN (SELECT ...)})
 * each other; Calcite's hash aggregates, set operations, windows and joins key by {@link
 * Double#equals}, which tells them apart. A float group key of an aggregate is replaced, below it,
 * by {@link PgFloatKeys} of it (the group showing its first value, which may be {@code -0}, as
 * PostgreSQL's does), as is a float argument of a DISTINCT aggregate, a set operation's float
 * column (but UNION ALL's; INTERSECT ALL and EXCEPT ALL show their first input's first value), a
 * float partition key, both sides of a join's equality of floats and both of a float {@code IN
 * (SELECT ...)}; sub-queries' plans are
 * rewritten alike. Views key by {@code KeyCodec}'s encoding, which already writes {@code -0} as
 * {@code 0}.
 */
final class FloatKeyPlans {
    private static final SqlUserDefinedFunction FLOAT8_KEY =
            PlanFunctions.scalar(PgFloatKeys.class, "pg_float8_key", SqlTypeName.DOUBLE);
    private static final SqlUserDefinedFunction FLOAT4_KEY =
            PlanFunctions.scalar(PgFloatKeys.class, "pg_float4_key", SqlTypeName.REAL);

    private static final KeyPlans PLANS = new KeyPlans(
            new KeyPlans.Keys() {
                @Override
                public boolean compared(RelDataType a, RelDataType b) {
                    return isFloat(a) && isFloat(b);
                }

                @Override
                public RexNode key(RexBuilder rex, RexNode value) {
                    return FloatKeyPlans.key(rex, value);
                }

                /** {@code -0} when a zero group met it first; min's start, the greatest double, stays for NaN or Infinity. */
                @Override
                public RexNode shown(RexBuilder rex, RexNode key, RexNode first) {
                    return rex.makeCall(
                            key.getType(),
                            SqlStdOperatorTable.CASE,
                            List.of(
                                    rex.makeCall(SqlStdOperatorTable.EQUALS, key, rex.makeZeroLiteral(key.getType())),
                                    first,
                                    key));
                }
            },
            true);

    private FloatKeyPlans() {}

    /** Rewrites the plan's aggregates and joins over float keys, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return PLANS.before(planning);
    }

    static boolean isFloat(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.DOUBLE || name == SqlTypeName.FLOAT || name == SqlTypeName.REAL;
    }

    /** {@code value}, a float, with {@code -0} as {@code 0}, typed as {@code value} is. */
    static RexNode key(RexBuilder rex, RexNode value) {
        return rex.makeCall(
                value.getType(),
                value.getType().getSqlTypeName() == SqlTypeName.REAL ? FLOAT4_KEY : FLOAT8_KEY,
                List.of(value));
    }
}
