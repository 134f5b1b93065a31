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
import org.apache.calcite.rex.RexNode;
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
 * A value type PostgreSQL has no overload for is 42883, a bare literal value of {@code to_char} 42725
 * (PostgreSQL's unknown fits every overload), a bare NULL elsewhere gives NULL; error messages name a
 * bare literal {@code unknown}, as PostgreSQL does.
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
    @MicrosecondTimestamps
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
                        Operands args = new Operands(call.getOperands());
                        Expression zone = Expressions.call(BuiltInMethod.TIME_ZONE.method, translator.getRoot());
                        return switch (kind) {
                            case TO_CHAR -> toChar(args, operands, zone);
                            case TO_DATE -> {
                                args.requireText("to_date");
                                yield args.anyNull()
                                        ? Expressions.constant(null, Integer.class)
                                        : call("toDate", text(operands.get(0)), text(operands.get(1)));
                            }
                            case TO_TIMESTAMP -> {
                                args.requireText("to_timestamp");
                                yield args.anyNull()
                                        ? Expressions.constant(null, Long.class)
                                        : call("toTimestamp", text(operands.get(0)), zone, text(operands.get(1)));
                            }
                            case FROM_EPOCH -> {
                                if (args.nullLiteral[0]) {
                                    yield Expressions.constant(null, Long.class);
                                }
                                if (!SqlTypeFamily.NUMERIC.contains(args.types.get(0))) {
                                    throw args.undefined("to_timestamp");
                                }
                                Expression seconds = args.types.get(0).getSqlTypeName() == SqlTypeName.DECIMAL
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

        private static Expression toChar(Operands args, List<Expression> operands, Expression zone) {
            RelDataType type = args.types.get(0);
            if (args.unknown[0]) {
                // a bare literal fits every overload, as PostgreSQL's unknown does
                throw new TributaryException(
                        SqlState.AMBIGUOUS_FUNCTION, "function to_char(" + args.names() + ") is not unique");
            }
            if (!isText(args, 1) || !formattable(type)) {
                throw args.undefined("to_char");
            }
            if (args.nullLiteral[1]) {
                return Expressions.constant(null, String.class);
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
                default -> call("float4", EnumUtils.convert(value, double.class), template);
            };
        }

        /** Whether PostgreSQL has a {@code to_char} overload for a value of {@code type}. */
        private static boolean formattable(RelDataType type) {
            if (PgIntervals.isInterval(type) || SqlTypeUtil.isInterval(type)) {
                return true;
            }
            return switch (type.getSqlTypeName()) {
                case TIMESTAMP,
                        TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                        DATE,
                        DECIMAL,
                        TINYINT,
                        SMALLINT,
                        INTEGER,
                        BIGINT,
                        DOUBLE,
                        REAL,
                        FLOAT -> true;
                default -> false;
            };
        }

        private static boolean isText(Operands args, int i) {
            return args.nullLiteral[i] || SqlTypeFamily.CHARACTER.contains(args.types.get(i));
        }

        /**
         * A call's operands as PostgreSQL resolves the function by them: their types, and which
         * are bare literals, typed {@code unknown} there (a NULL one is NULL of whatever type the
         * function takes).
         */
        private static final class Operands {
            final List<RelDataType> types = new ArrayList<>();
            final boolean[] unknown;
            final boolean[] nullLiteral;

            Operands(List<RexNode> operands) {
                unknown = new boolean[operands.size()];
                nullLiteral = new boolean[operands.size()];
                for (int i = 0; i < operands.size(); i++) {
                    // the operands are a program's local references: a bare literal shows only in its type, NULL
                    // as ANY (the parameters' type; NULL::timestamp keeps its own), a string as CHAR (text is VARCHAR)
                    RelDataType type = operands.get(i).getType();
                    types.add(type);
                    nullLiteral[i] =
                            type.getSqlTypeName() == SqlTypeName.ANY || type.getSqlTypeName() == SqlTypeName.NULL;
                    unknown[i] = nullLiteral[i] || type.getSqlTypeName() == SqlTypeName.CHAR;
                }
            }

            boolean anyNull() {
                for (boolean n : nullLiteral) {
                    if (n) {
                        return true;
                    }
                }
                return false;
            }

            /** 42883 unless every operand is text or a bare literal. */
            void requireText(String name) {
                for (int i = 0; i < types.size(); i++) {
                    if (!isText(this, i)) {
                        throw undefined(name);
                    }
                }
            }

            String names() {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < types.size(); i++) {
                    s.append(i == 0 ? "" : ", ").append(unknown[i] ? "unknown" : PgTypeOf.name(types.get(i)));
                }
                return s.toString();
            }

            TributaryException undefined(String name) {
                return new TributaryException(
                        SqlState.UNDEFINED_FUNCTION, "function " + name + "(" + names() + ") does not exist");
            }
        }

        private static Expression text(Expression operand) {
            return EnumUtils.convert(operand, String.class);
        }

        private static Expression call(String method, Expression... args) {
            return Expressions.call(PgFormattingFunctions.class, method, args);
        }
    }
}
