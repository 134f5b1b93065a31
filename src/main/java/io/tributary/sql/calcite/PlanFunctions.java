package io.tributary.sql.calcite;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Operators that planning steps put into plans they rewrite ({@link ZonedTimestamps},
 * {@link UuidPlans}): a public static method called by name, typed explicitly rather than from its
 * Java signature. Stateless.
 */
final class PlanFunctions {
    private PlanFunctions() {}

    /** The operator calling {@code owner.name(...)}, returning {@code returns}, nullable when an argument is. */
    static SqlUserDefinedFunction scalar(Class<?> owner, String name, SqlTypeName returns) {
        return scalar(owner, name, ReturnTypes.cascade(ReturnTypes.explicit(returns), SqlTypeTransforms.TO_NULLABLE));
    }

    /** The operator calling {@code owner.name(...)}, typed by {@code returns}. */
    static SqlUserDefinedFunction scalar(Class<?> owner, String name, SqlReturnTypeInference returns) {
        return new SqlUserDefinedFunction(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                returns,
                null,
                null,
                ScalarFunctionImpl.create(owner, name));
    }
}
