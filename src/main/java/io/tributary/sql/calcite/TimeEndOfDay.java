package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's time {@code 24:00:00}, the end of the day, which sorts after every other time.
 * Calcite's {@code TIME} values are milliseconds of the day and can hold 86,400,000, but its
 * literals ({@code TimeString}) and its {@code java.sql.Time} conversions cannot: {@link
 * DateTimeConstants} writes the constant {@code '24:00:00'::time} as a call of this function, whose
 * generated code is that count itself. Registered in every Calcite root ({@link
 * CatalogSchema#registerFunctions}); immutable.
 */
final class TimeEndOfDay implements ScalarFunction, ImplementableFunction {
    /** The function's name in SQL, as {@link DateTimeConstants} writes the call. */
    static final String NAME = "pg_time_end_of_day";

    private static final int MILLIS_PER_DAY = 86_400_000;

    /** Adds the function to a Calcite root. Called once per root, before planning. */
    static void register(SchemaPlus root) {
        root.add(NAME, new TimeEndOfDay());
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIME), false);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(
                (translator, call, operands) -> Expressions.constant(MILLIS_PER_DAY), NullPolicy.NONE, false);
    }
}
