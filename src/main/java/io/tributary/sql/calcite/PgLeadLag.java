package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlLeadLagAggFunction;

/**
 * {@code lead} and {@code lag} typed as PostgreSQL types them: the value's type, NULL-able unless
 * both the value and a default are NOT NULL. Calcite's call a result NOT NULL whenever the default
 * is, so {@code lag(nullable_column, 1, 0)} failed at run time on a NULL value ("Cannot convert
 * null to ..."). {@link PgOperatorTable} resolves the two names to these for validation only:
 * {@link LeadLagDefaults} puts Calcite's operators back into the plan (Calcite's code generator
 * finds a window function's implementation by its operator's class), keeping the type given here.
 * Immutable; any thread.
 */
final class PgLeadLag extends SqlLeadLagAggFunction {
    static final PgLeadLag LEAD = new PgLeadLag(SqlKind.LEAD);
    static final PgLeadLag LAG = new PgLeadLag(SqlKind.LAG);

    private PgLeadLag(SqlKind kind) {
        super(kind);
    }

    @Override
    public RelDataType inferReturnType(SqlOperatorBinding binding) {
        RelDataType value = binding.getOperandType(0);
        boolean nullable = value.isNullable()
                || binding.getOperandCount() < 3
                || binding.getOperandType(2).isNullable();
        return binding.getTypeFactory().createTypeWithNullability(value, nullable);
    }
}
