package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.BuiltInMethod;

/**
 * PostgreSQL's formatting functions {@code to_char(value, text)}, {@code to_date(text, text)},
 * {@code to_timestamp(text, text)} and {@code to_timestamp(double precision)} as schema functions
 * of their own names with a {@code pg_} prefix: Calcite's library has functions of the plain names
 * with other semantics, so {@link PgValueSemantics} writes each call under the prefixed name
 * ({@link #rename}), and {@link ColumnLabels} labels it with the plain one. Parameters are ANY, so
 * validation takes the arguments as they are; the code is chosen by the value's validated type
 * when Calcite generates it (planning thread) and calls {@link PgFormattingFunctions} per row.
 * A value type PostgreSQL has no overload for is 42883, a NULL or bare string literal 42725.
 * {@code to_number} is a plain reflective function ({@link PgNumberFunctions}).
 */
final class PgFormattingCalls {
    static final String TO_CHAR = "pg_to_char";
    static final String TO_DATE = "pg_to_date";
    static final String TO_TIMESTAMP = "pg_to_timestamp";

    /** The plain names {@link #rename} takes, lower case. */
    private static final Set<String> NAMES = Set.of("to_char", "to_date", "to_timestamp");

    private PgFormattingCalls() {}

    /** Adds the functions to {@code root}. Called once per Calcite root by {@link CatalogSchema}. */
    static void register(SchemaPlus root) {
        root.add(TO_CHAR, new Function(Kind.TO_CHAR));
        root.add(TO_DATE, new Function(Kind.TO_DATE));
        root.add(TO_TIMESTAMP, new Function(Kind.TO_TIMESTAMP));
        root.add(TO_TIMESTAMP, new Function(Kind.FROM_EPOCH));
    }

    /** {@code call} under its prefixed name when it is one of the formatting functions, else null. */
    static SqlCall rename(SqlCall call, List<org.apache.calcite.sql.SqlNode> operands) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!NAMES.contains(name) || call.getOperator().getNameAsId().names.size() > 1) {
            return null;
        }
        if (name.equals("to_timestamp") ? operands.size() > 2 : operands.size() != 2) {
            return null;
        }
        var pos = call.getParserPosition();
        return new SqlBasicCall(
                new SqlUnresolvedFunction(
                        new SqlIdentifier("pg_" + name, pos),
                        null,
                        null,
                        null,
                        null,
                        SqlFunctionCategory.USER_DEFINED_FUNCTION),
                new ArrayList<>(operands),
                pos);
    }

    private enum Kind {
        TO_CHAR,
        TO_DATE,
        TO_TIMESTAMP,
        FROM_EPOCH
    }

    /** One overload: its parameters, its type and the code chosen for its operands' types. */
    private record Function(Kind kind) implements ScalarFunction, ImplementableFunction {
        @Override
        public List<FunctionParameter> getParameters() {
            if (kind == Kind.FROM_EPOCH) {
                return List.of(new RequiredParameter(0, "seconds", SqlTypeName.ANY));
            }
            return List.of(
                    new RequiredParameter(0, "value", SqlTypeName.ANY),
                    new RequiredParameter(1, "template", SqlTypeName.ANY));
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
            SqlTypeName type = switch (kind) {
                case TO_CHAR -> SqlTypeName.VARCHAR;
                case TO_DATE -> SqlTypeName.DATE;
                default -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            };
            // NULL in, NULL out: Calcite adjusts no nullability for a function that is not reflective
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(type), true);
        }

        @Override
        public CallImplementor getImplementor() {
            return RexImpTable.createImplementor(
                    (translator, call, operands) -> {
                        List<RelDataType> types = new ArrayList<>();
                        call.getOperands().forEach(o -> types.add(o.getType()));
                        if (kind != Kind.TO_CHAR && types.stream().anyMatch(t -> t.getSqlTypeName() == SqlTypeName.NULL)
                                || kind == Kind.TO_CHAR && types.get(1).getSqlTypeName() == SqlTypeName.NULL) {
                            // a bare NULL argument: the answer is NULL whatever the other is
                            return Expressions.constant(
                                    null,
                                    kind == Kind.TO_CHAR
                                            ? String.class
                                            : kind == Kind.TO_DATE ? Integer.class : Long.class);
                        }
                        Expression zone = Expressions.call(BuiltInMethod.TIME_ZONE.method, translator.getRoot());
                        return switch (kind) {
                            case TO_CHAR -> toChar(types, operands, zone);
                            case TO_DATE -> {
                                requireText("to_date", types);
                                yield call("toDate", text(operands.get(0)), text(operands.get(1)));
                            }
                            case TO_TIMESTAMP -> {
                                requireText("to_timestamp", types);
                                yield call("toTimestamp", text(operands.get(0)), zone, text(operands.get(1)));
                            }
                            case FROM_EPOCH -> {
                                SqlTypeName t = types.get(0).getSqlTypeName();
                                if (!SqlTypeFamily.NUMERIC.contains(types.get(0))) {
                                    throw undefined("to_timestamp", types);
                                }
                                Expression seconds = t == SqlTypeName.DECIMAL
                                        ? Expressions.call(
                                                EnumUtils.convert(operands.get(0), BigDecimal.class), "doubleValue")
                                        : EnumUtils.convert(operands.get(0), double.class);
                                yield call("fromEpoch", seconds);
                            }
                        };
                    },
                    NullPolicy.ANY,
                    false);
        }

        private static Expression toChar(List<RelDataType> types, List<Expression> operands, Expression zone) {
            RelDataType type = types.get(0);
            if (!isText(types.get(1))) {
                throw undefined("to_char", types);
            }
            Expression template = text(operands.get(1));
            Expression value = operands.get(0);
            if (PgIntervals.isInterval(type)) {
                return call("interval", EnumUtils.convert(value, Object.class), template);
            }
            if (SqlTypeUtil.isInterval(type)) {
                // Calcite's own interval constants: months, or milliseconds (whole days as days)
                return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH
                        ? call("months", EnumUtils.convert(value, int.class), template)
                        : call(
                                "millis",
                                EnumUtils.convert(value, long.class),
                                Expressions.constant(type.getSqlTypeName().getStartUnit() == TimeUnit.DAY),
                                template);
            }
            return switch (type.getSqlTypeName()) {
                case TIMESTAMP -> call("timestamp", EnumUtils.convert(value, long.class), template);
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    call("timestamptz", EnumUtils.convert(value, long.class), zone, template);
                case DATE -> call("date", EnumUtils.convert(value, int.class), zone, template);
                case DECIMAL -> call("numeric", EnumUtils.convert(value, BigDecimal.class), template);
                case TINYINT, SMALLINT, INTEGER -> call("int4", EnumUtils.convert(value, long.class), template);
                case BIGINT -> call("int8", EnumUtils.convert(value, long.class), template);
                case DOUBLE -> call("float8", EnumUtils.convert(value, double.class), template);
                case REAL, FLOAT -> call("float4", EnumUtils.convert(value, double.class), template);
                case NULL, CHAR ->
                    throw new TributaryException(
                            SqlState.AMBIGUOUS_FUNCTION, "function to_char(unknown, unknown) is not unique");
                default -> throw undefined("to_char", types);
            };
        }

        private static void requireText(String name, List<RelDataType> types) {
            for (RelDataType t : types) {
                if (!isText(t)) {
                    throw undefined(name, types);
                }
            }
        }

        private static boolean isText(RelDataType t) {
            return SqlTypeFamily.CHARACTER.contains(t) || t.getSqlTypeName() == SqlTypeName.NULL;
        }

        private static TributaryException undefined(String name, List<RelDataType> types) {
            StringBuilder s = new StringBuilder("function ").append(name).append('(');
            for (int i = 0; i < types.size(); i++) {
                s.append(i == 0 ? "" : ", ").append(PgTypeOf.name(types.get(i)));
            }
            return new TributaryException(
                    SqlState.UNDEFINED_FUNCTION, s.append(") does not exist").toString());
        }

        private static Expression text(Expression operand) {
            return EnumUtils.convert(operand, String.class);
        }

        private static Expression call(String method, Expression... args) {
            return Expressions.call(PgFormattingFunctions.class, method, args);
        }
    }
}
