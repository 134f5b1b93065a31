package io.tributary.sql.calcite;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * A public static method as a Calcite function whose result type is given rather than read from
 * the method: a Java {@code List} result names no element type, so array functions
 * ({@code regexp_match}, {@code string_to_array}) say theirs here. Parameters and the generated
 * call are the reflective function's. Immutable.
 */
record TypedReflectiveFunction(ScalarFunctionImpl reflective, Function<RelDataTypeFactory, RelDataType> result)
        implements ScalarFunction, ImplementableFunction {
    /** {@code method} returning what {@code result} makes of the planner's type factory. */
    static TypedReflectiveFunction of(Method method, Function<RelDataTypeFactory, RelDataType> result) {
        return new TypedReflectiveFunction((ScalarFunctionImpl) ScalarFunctionImpl.create(method), result);
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return result.apply(types);
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return reflective.getParameters();
    }

    @Override
    public CallImplementor getImplementor() {
        return reflective.getImplementor();
    }
}
