package io.tributary.sql.calcite;

import io.tributary.common.types.TypeKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

/**
 * PostgreSQL's {@code json_agg}, {@code jsonb_agg}, {@code json_object_agg} and {@code
 * jsonb_object_agg} in queries: Calcite aggregate operators over {@link PgJsonAggregates} that take an
 * {@code ORDER BY} inside the call, which {@link PgOperatorTable} offers to every validator. Calcite
 * skips a row whose aggregate argument is NULL, where PostgreSQL adds a JSON null (and refuses a NULL
 * key), so {@link PgValueSemantics} passes each argument through {@link PgJsonFunctions#pg_json_element}
 * or {@link PgJsonFunctions#pg_json_key} ({@link #wrapArguments}), which never answer NULL. The stream
 * planner has no such aggregate: a materialized view refuses them. Stateless.
 */
final class JsonAggregates {
    /**
     * {@code json_agg} of whole rows ({@link WholeRowReferences}) or of arrays ({@link
     * #separateArrays}), whose elements PostgreSQL sets apart by a line break.
     */
    static final String STRUCTURES_AGG = "pg_json_agg_structures";

    private static final Map<String, SqlOperator> BY_NAME = Map.of(
            "json_agg",
            aggregate("json_agg", TypeKind.JSON, PgJsonAggregates.JsonAgg.class),
            "jsonb_agg",
            aggregate("jsonb_agg", TypeKind.JSONB, PgJsonAggregates.JsonbAgg.class),
            "json_object_agg",
            aggregate("json_object_agg", TypeKind.JSON, PgJsonAggregates.JsonObjectAgg.class),
            "jsonb_object_agg",
            aggregate("jsonb_object_agg", TypeKind.JSONB, PgJsonAggregates.JsonbObjectAgg.class),
            STRUCTURES_AGG,
            aggregate(STRUCTURES_AGG, TypeKind.JSON, PgJsonAggregates.JsonAggOfStructures.class));

    private JsonAggregates() {}

    private static SqlOperator aggregate(String name, TypeKind result, Class<?> accumulator) {
        int arguments = name.contains("object") ? 2 : 1;
        return new SqlUserDefinedAggFunction(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                binding -> PgJsonTypes.type(binding.getTypeFactory(), result),
                null,
                // the arguments are pg_json_key / pg_json_element text by then (wrapArguments)
                OperandTypes.operandMetadata(
                        java.util.Collections.nCopies(arguments, SqlTypeFamily.CHARACTER),
                        types -> java.util.Collections.nCopies(arguments, types.createSqlType(SqlTypeName.VARCHAR)),
                        i -> "arg" + i,
                        i -> false),
                AggregateFunctionImpl.create(accumulator),
                false,
                false,
                Optionality.OPTIONAL);
    }

    /** Every one of these operators. */
    static java.util.Collection<SqlOperator> all() {
        return BY_NAME.values();
    }

    /** The operator named {@code name} (any case), or null when it is none of these. */
    static SqlOperator named(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * {@code call} with its arguments as JSON text when it is one of these aggregates with its
     * argument count, otherwise null; {@code visit} rewrites each argument first.
     */
    static SqlCall wrapArguments(SqlCall call, UnaryOperator<SqlNode> visit) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        boolean pairs = name.equals("json_object_agg") || name.equals("jsonb_object_agg");
        boolean single = name.equals("json_agg") || name.equals("jsonb_agg");
        if (!(pairs && call.operandCount() == 2 || single && call.operandCount() == 1)) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        List<SqlNode> operands = pairs
                ? List.of(
                        text("pg_json_key", visit.apply(call.operand(0)), pos),
                        text("pg_json_element", visit.apply(call.operand(1)), pos))
                : List.of(text("pg_json_element", visit.apply(call.operand(0)), pos));
        return new SqlBasicCall(call.getOperator(), operands, pos, call.getFunctionQuantifier());
    }

    /**
     * Makes {@code call}, when it is {@code json_agg} of an array ({@code typeOf} derives its
     * argument's type), {@link #STRUCTURES_AGG}: PostgreSQL sets an aggregate's array elements apart
     * by a line break as it does rows (a json value holding an array is no array here). Called by
     * {@link PgValidator} before it derives the call's type, after {@link #wrapArguments}.
     */
    static void separateArrays(SqlBasicCall call, Function<SqlNode, RelDataType> typeOf) {
        if (call.getOperator().getName().equalsIgnoreCase("json_agg")
                && call.operandCount() == 1
                && call.operand(0) instanceof SqlCall element
                && element.getOperator().getName().equalsIgnoreCase("pg_json_element")
                && element.operandCount() == 1
                && typeOf.apply(element.operand(0)).getSqlTypeName() == SqlTypeName.ARRAY) {
            call.setOperator(BY_NAME.get(STRUCTURES_AGG));
        }
    }

    private static SqlNode text(String function, SqlNode argument, SqlParserPos pos) {
        SqlUnresolvedFunction f = new SqlUnresolvedFunction(
                new SqlIdentifier(function, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
        return new SqlBasicCall(f, List.of(argument), pos);
    }
}
