package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * PostgreSQL's variadic {@code json_build_object}, {@code jsonb_build_object}, {@code
 * json_build_array} and {@code jsonb_build_array}, and {@code pg_row_to_json}, the object {@code
 * row_to_json} writes of a whole row ({@link WholeRowReferences}): any number of arguments of any type (an object
 * needs an even number, 22023 otherwise, as PostgreSQL checks), typed json or jsonb, never NULL.
 * {@link PgOperatorTable} offers them to every validator; Calcite's code generator calls the
 * {@link PgJsonBuild} method of the same name with the arguments boxed into an array, on the thread
 * evaluating the expression. Immutable.
 */
final class JsonBuildFunction extends SqlUserDefinedFunction {
    /** The operators by lower-case name. */
    private static final Map<String, SqlOperator> BY_NAME = Map.of(
            "json_build_object", new JsonBuildFunction("json_build_object", TypeKind.JSON, true),
            "jsonb_build_object", new JsonBuildFunction("jsonb_build_object", TypeKind.JSONB, true),
            "json_build_array", new JsonBuildFunction("json_build_array", TypeKind.JSON, false),
            "jsonb_build_array", new JsonBuildFunction("jsonb_build_array", TypeKind.JSONB, false),
            "pg_row_to_json", new JsonBuildFunction("pg_row_to_json", TypeKind.JSON, true));

    private JsonBuildFunction(String name, TypeKind result, boolean pairs) {
        super(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                binding -> PgJsonTypes.withNullability(PgJsonTypes.type(binding.getTypeFactory(), result), false),
                null,
                new AnyArguments(name, pairs),
                new Implementation(name));
    }

    /** Every one of these operators. */
    static java.util.Collection<SqlOperator> all() {
        return BY_NAME.values();
    }

    /** The operator named {@code name} (any case), or null when it is none of these. */
    static SqlOperator named(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /** Any number of arguments of any type; pairs of them when {@code pairs}. */
    private record AnyArguments(String name, boolean pairs) implements SqlOperandMetadata {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            if (pairs && binding.getOperandCount() % 2 != 0) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "argument list must have even number of elements",
                        0,
                        null,
                        "The arguments of " + name + "() must consist of alternating keys and values.",
                        null);
            }
            return true;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(0);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(VARIADIC \"any\")";
        }

        @Override
        public boolean isFixedParameters() {
            return false;
        }

        @Override
        public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
            return List.of();
        }

        @Override
        public List<String> paramNames() {
            return List.of();
        }
    }

    /** Generates {@code PgJsonBuild.name(new Object[] {boxed arguments})}. */
    private record Implementation(String name) implements ImplementableFunction {
        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }

        @Override
        public CallImplementor getImplementor() {
            return (translator, call, nullAs) -> {
                List<Expression> boxed = new ArrayList<>();
                for (Expression argument : translator.translateList(call.getOperands())) {
                    boxed.add(Expressions.convert_(Expressions.box(argument), Object.class));
                }
                Expression array = Expressions.newArrayInit(Object.class, boxed);
                return nullAs.handle(Expressions.call(PgJsonBuild.class, name, array));
            };
        }
    }
}
