package io.tributary.sql.calcite;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A public static method as a Calcite function whose {@code Long} parameters marked {@link
 * MicrosecondTimestamps} are SQL {@code TIMESTAMP}s, and whose {@code Long} result is one when the
 * method is marked: the generated code hands such a method the microseconds the plan holds as they
 * are. (A {@code java.sql.Timestamp} parameter would get them through Calcite's conversion, which
 * reads the count as milliseconds of a calendar date: before 1970 that date is thousands of years
 * BC, which {@code java.sql} does not carry back exactly.) Parameters, call and null handling are
 * the reflective function's. Immutable; registered by {@link CatalogSchema#registerFunctions}.
 */
@MicrosecondTimestamps
record MicrosecondParameters(ScalarFunctionImpl reflective, Method method)
        implements ScalarFunction, ImplementableFunction {
    /** {@code method} as a function: one of these when it is marked, else Calcite's reflective function. */
    static org.apache.calcite.schema.Function of(Method method) {
        ScalarFunctionImpl reflective = (ScalarFunctionImpl) ScalarFunctionImpl.create(method);
        return method.isAnnotationPresent(MicrosecondTimestamps.class)
                ? new MicrosecondParameters(reflective, method)
                : reflective;
    }

    @Override
    public List<FunctionParameter> getParameters() {
        List<FunctionParameter> parameters = reflective.getParameters();
        Parameter[] declared = method.getParameters();
        List<FunctionParameter> out = new ArrayList<>(parameters.size());
        for (int i = 0; i < parameters.size(); i++) {
            FunctionParameter p = parameters.get(i);
            out.add(declared[i].isAnnotationPresent(MicrosecondTimestamps.class) ? timestamp(p) : p);
        }
        return out;
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return method.getReturnType() == Long.class
                ? types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP), true)
                : reflective.getReturnType(types);
    }

    @Override
    public CallImplementor getImplementor() {
        return reflective.getImplementor();
    }

    private static FunctionParameter timestamp(FunctionParameter p) {
        return new FunctionParameter() {
            @Override
            public int getOrdinal() {
                return p.getOrdinal();
            }

            @Override
            public String getName() {
                return p.getName();
            }

            @Override
            public RelDataType getType(RelDataTypeFactory types) {
                return types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP), true);
            }

            @Override
            public boolean isOptional() {
                return p.isOptional();
            }
        };
    }
}
