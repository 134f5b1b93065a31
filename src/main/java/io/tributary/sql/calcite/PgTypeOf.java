package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_typeof(any)}: the name of its argument's type as {@code regtype} prints it
 * ({@code integer}, {@code character varying}, {@code timestamp without time zone}, {@code
 * integer[]}). Registered in the root schema by {@link CatalogSchema#registerFunctions}; its one
 * parameter is Calcite's ANY, so validation takes any argument as it is. The name is decided when
 * Calcite generates code for the call, from the operand's validated type, and the generated code
 * is that constant (planning thread; nothing runs per row). PostgreSQL's bare string literal and
 * bare NULL are {@code unknown}; Calcite types a string literal {@code CHAR(n)} like any string
 * expression, so {@link PgValueSemantics} writes such an argument as NULL before validation
 * ({@link #isStringLiteral}), and a NULL operand (typed ANY by the parameter) is {@code unknown}.
 */
final class PgTypeOf implements ScalarFunction, ImplementableFunction {
    /** The function's name in SQL. */
    static final String NAME = "pg_typeof";

    /** Any argument as it is; a NULL (and a string literal, made NULL) is inferred ANY. */
    private static final List<FunctionParameter> PARAMETERS =
            List.of(new RequiredParameter(0, "value", SqlTypeName.ANY));

    @Override
    public List<FunctionParameter> getParameters() {
        return PARAMETERS;
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createSqlType(SqlTypeName.VARCHAR);
    }

    @Override
    public CallImplementor getImplementor() {
        return (translator, call, nullAs) ->
                Expressions.constant(name(call.getOperands().get(0).getType()));
    }

    /** Whether {@code argument} is a bare string literal, which PostgreSQL types {@code unknown}. */
    static boolean isStringLiteral(SqlNode argument) {
        return argument instanceof SqlLiteral lit && lit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER;
    }

    /**
     * PostgreSQL's name for a value of Calcite type {@code type}.
     *
     * @throws io.tributary.common.TributaryException 0A000 for a type no Tributary column has
     *     (maps)
     */
    static String name(RelDataType type) {
        SqlTypeName sql = type.getSqlTypeName();
        if (sql == SqlTypeName.NULL || sql == SqlTypeName.ANY) {
            return "unknown";
        }
        if (type instanceof Int2VectorType) {
            return "int2vector";
        }
        if (sql == SqlTypeName.ARRAY) {
            return name(type.getComponentType()) + "[]";
        }
        if (sql == SqlTypeName.ROW) {
            return "record"; // an anonymous row value, ROW(1, 'a')
        }
        // CHAR, a string expression (bare literals were made NULL before validation), is text there
        return TypeMapping.fromRelType(type).kind().pgName();
    }
}
