package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * The {@link KeyPlans} step for ad-hoc queries that match NUMERICs of different scales; stateless.
 * PostgreSQL matches {@code 1.5} with {@code 1.50}; the semi-joins and hash joins that planning
 * makes of {@code x IN (SELECT y ...)}, {@code = ANY}, {@code NOT IN}, a join's equality and a
 * sub-query's correlated equality key by {@link java.math.BigDecimal#equals}, which tells them
 * apart. So in each of these, both sides are compared by {@link PgNumericKeys} when they are
 * NUMERICs whose values may differ in scale (an unconstrained NUMERIC, or two scales); an
 * unconstrained NUMERIC group key of GROUP BY, DISTINCT or a set operation is grouped by it too,
 * each group showing the first value it met, at its own scale, as PostgreSQL's hash aggregate
 * does, and so is a window's partition key of such a type. Views key by
 * {@code KeyCodec}'s encoding, which already writes a numeric without trailing zeros.
 */
final class NumericKeyPlans {
    private static final SqlUserDefinedFunction NUMERIC_KEY =
            PlanFunctions.scalar(PgNumericKeys.class, "pg_numeric_key", ReturnTypes.ARG0);

    private static final KeyPlans PLANS = new KeyPlans(
            new KeyPlans.Keys() {
                @Override
                public boolean compared(RelDataType a, RelDataType b) {
                    return a.getSqlTypeName() == SqlTypeName.DECIMAL
                            && b.getSqlTypeName() == SqlTypeName.DECIMAL
                            && (a.getScale() != b.getScale() || unconstrained(a) || unconstrained(b));
                }

                /** {@code value}, a NUMERIC, without trailing fraction zeros, typed as {@code value} is. */
                @Override
                public RexNode key(RexBuilder rex, RexNode value) {
                    return rex.makeCall(value.getType(), NUMERIC_KEY, List.of(value));
                }

                /** The first value, at its own scale, as PostgreSQL's hash aggregate shows. */
                @Override
                public RexNode shown(RexBuilder rex, RexNode key, RexNode first) {
                    return first;
                }
            },
            true);

    private NumericKeyPlans() {}

    /** Rewrites the plan's joins and sub-queries over numeric keys, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return PLANS.before(planning);
    }

    private static boolean unconstrained(RelDataType t) {
        return TypeMapping.unconstrainedNumeric(t.getPrecision(), t.getScale());
    }
}
