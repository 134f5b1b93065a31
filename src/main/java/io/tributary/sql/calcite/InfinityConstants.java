package io.tributary.sql.calcite;

import io.tributary.common.types.InfiniteDateTimes;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's constants {@code 'infinity'} and {@code '-infinity'} of date, timestamp and
 * timestamptz, which Calcite's literals cannot hold: {@link DateTimeConstants} and {@link
 * PgSyntaxText} write such a constant as a call of one of these functions, whose generated code is
 * {@link InfiniteDateTimes}' encoding itself (microseconds as they are: {@link MicrosecondTimestamps}).
 * Registered in every Calcite root ({@link CatalogSchema#registerFunctions}); immutable.
 */
@MicrosecondTimestamps
final class InfinityConstants implements ScalarFunction, ImplementableFunction {
    private final SqlTypeName type;
    private final Object value;

    private InfinityConstants(SqlTypeName type, Object value) {
        this.type = type;
        this.value = value;
    }

    /** The function's name for the infinity of {@code kind} ({@code DATE}, {@code TIMESTAMP}, {@code TIMESTAMPTZ}). */
    static String name(String kind, boolean positive) {
        return "pg_" + kind.toLowerCase(java.util.Locale.ROOT) + (positive ? "_infinity" : "_minus_infinity");
    }

    /** The type's name PostgreSQL labels a constant of function {@code name} with; null for another function. */
    static String label(String name) {
        if (!name.endsWith("infinity")) {
            return null;
        }
        for (String kind : List.of("date", "timestamptz", "timestamp")) {
            if (name.equals(name(kind, true)) || name.equals(name(kind, false))) {
                return kind;
            }
        }
        return null;
    }

    /** Adds the six functions to a Calcite root. Called once per root, before planning. */
    static void register(SchemaPlus root) {
        root.add(name("DATE", true), new InfinityConstants(SqlTypeName.DATE, InfiniteDateTimes.DATE_INFINITY));
        root.add(name("DATE", false), new InfinityConstants(SqlTypeName.DATE, InfiniteDateTimes.DATE_MINUS_INFINITY));
        for (boolean positive : new boolean[] {true, false}) {
            long micros = positive ? InfiniteDateTimes.TIMESTAMP_INFINITY : InfiniteDateTimes.TIMESTAMP_MINUS_INFINITY;
            root.add(name("TIMESTAMP", positive), new InfinityConstants(SqlTypeName.TIMESTAMP, micros));
            root.add(
                    name("TIMESTAMPTZ", positive),
                    new InfinityConstants(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, micros));
        }
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        RelDataType t = type == SqlTypeName.DATE ? types.createSqlType(type) : types.createSqlType(type, 6);
        return types.createTypeWithNullability(t, false);
    }

    @Override
    public CallImplementor getImplementor() {
        Expression constant = Expressions.constant(value);
        return RexImpTable.createImplementor((translator, call, operands) -> constant, NullPolicy.NONE, false);
    }
}
