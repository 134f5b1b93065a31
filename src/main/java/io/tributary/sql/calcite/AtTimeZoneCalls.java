package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * PostgreSQL's {@code timezone(zone, value)} ({@code value AT TIME ZONE zone}, see {@link
 * AtTimeZoneText}) through Calcite, whose functions cannot type their result by their argument's
 * type as this one does (a timestamp gives a timestamptz, a timestamptz a timestamp; a date or
 * text is read as a timestamptz in the session's zone first).
 *
 * <p>A materialized view's validator ({@link ViewQueryConverter}) has the operator {@link
 * #operators} gives, typed so; its generated code calls {@link AtTimeZoneFunctions}, which needs no
 * session zone, so such a view may be made in any zone; a date or text value there is 0A000.
 * Queries are validated by Calcite's JDBC layer, whose operators this cannot extend: {@link
 * #rewrite} validates the query text with the operator first and writes each call under the name of
 * the schema function of its direction ({@code pg_timezone_local}, {@code pg_timezone_instant},
 * registered by {@link CatalogSchema#registerFunctions}), a date or text value cast to timestamptz,
 * which {@link ZonedTimestamps} reads in the session's zone. Stateless; planning threads.
 */
final class AtTimeZoneCalls {
    static final String NAME = "timezone";
    /** {@code timezone(zone, timestamptz)}: a timestamp. */
    static final String LOCAL = "pg_timezone_local";
    /** {@code timezone(zone, timestamp)}: a timestamptz. */
    static final String INSTANT = "pg_timezone_instant";

    private AtTimeZoneCalls() {}

    /** The schema function {@code name}, {@link #LOCAL} or {@link #INSTANT}. */
    static ScalarFunction function(String name) {
        return new Implementation(
                name.equals(LOCAL) ? SqlTypeName.TIMESTAMP : SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    }

    /**
     * The operator {@code timezone}, typed by its value's type.
     *
     * @param casts whether a date or text value is taken (read in the session's zone): for
     *     queries, not for materialized views, which are maintained without one
     */
    static SqlOperatorTable operators(boolean casts) {
        SqlUserDefinedFunction timezone = new SqlUserDefinedFunction(
                new SqlIdentifier(NAME, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                returns(casts),
                null,
                OperandTypes.operandMetadata(
                        List.of(SqlTypeFamily.ANY, SqlTypeFamily.ANY),
                        types -> List.of(any(types), any(types)),
                        i -> i == 0 ? "zone" : "value",
                        i -> false),
                new Implementation(SqlTypeName.ANY));
        return SqlOperatorTables.of(timezone);
    }

    private static SqlReturnTypeInference returns(boolean casts) {
        return binding -> {
            RelDataTypeFactory types = binding.getTypeFactory();
            RelDataType zone = binding.getOperandType(0);
            RelDataType value = binding.getOperandType(1);
            SqlTypeName v = value.getSqlTypeName();
            boolean zoneTaken = SqlTypeFamily.CHARACTER.contains(zone)
                    || zone.getSqlTypeName() == SqlTypeName.NULL
                    || SqlTypeUtil.isInterval(zone)
                            && zone.getSqlTypeName().getFamily() != SqlTypeFamily.INTERVAL_YEAR_MONTH;
            boolean read = v == SqlTypeName.DATE || SqlTypeFamily.CHARACTER.contains(value) || v == SqlTypeName.NULL;
            if (!zoneTaken
                    || !(v == SqlTypeName.TIMESTAMP || v == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || read)) {
                throw new TributaryException(
                        SqlState.UNDEFINED_FUNCTION,
                        "function timezone(" + PgTypeOf.name(zone) + ", " + PgTypeOf.name(value) + ") does not exist");
            }
            if (read && !casts) {
                throw TributaryException.notSupported("AT TIME ZONE of a date or text in a materialized view");
            }
            SqlTypeName result =
                    v == SqlTypeName.TIMESTAMP ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP;
            return types.createTypeWithNullability(
                    types.createSqlType(result), zone.isNullable() || value.isNullable());
        };
    }

    private static RelDataType any(RelDataTypeFactory types) {
        return types.createTypeWithNullability(types.createSqlType(SqlTypeName.ANY), true);
    }

    /**
     * {@code text} with each {@code timezone(zone, value)} call written as the schema function of
     * its direction, or {@code text} itself when it has none or does not validate here (Calcite then
     * reports what is wrong). Called by the frontend before it prepares a query.
     */
    static String rewrite(String text, CalciteConnection connection) {
        if (!text.toLowerCase(Locale.ROOT).contains(NAME)) {
            return text;
        }
        Map<SqlParserPos, SqlTypeName> values = new HashMap<>();
        try {
            SqlValidator validator = DateIntervalSums.validator(connection, operators(true));
            SqlNode validated = validator.validate(
                    SqlParser.create(text, CalciteSettings.PARSER).parseStmt());
            validated.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall call) {
                    if (isTimezone(call)) {
                        RelDataType type = validator.getValidatedNodeTypeIfKnown(call.operand(1));
                        values.put(call.getParserPosition(), type == null ? SqlTypeName.ANY : type.getSqlTypeName());
                    }
                    return super.visit(call);
                }
            });
        } catch (java.sql.SQLException | SqlParseException | RuntimeException e) {
            if (e instanceof TributaryException te) {
                throw te;
            }
            return text;
        }
        if (values.isEmpty()) {
            return text;
        }
        SqlNode parsed;
        try {
            parsed = SqlParser.create(text, CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException e) {
            return text;
        }
        SqlNode rewritten = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c) || !isTimezone(c) || !values.containsKey(c.getParserPosition())) {
                    return visited;
                }
                SqlParserPos pos = c.getParserPosition();
                SqlTypeName type = values.get(pos);
                SqlNode value = c.operand(1);
                if (type != SqlTypeName.TIMESTAMP && type != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                    value = SqlStdOperatorTable.CAST.createCall(
                            pos,
                            value,
                            new SqlDataTypeSpec(
                                    new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, pos), pos));
                }
                return PgIntervals.call(type == SqlTypeName.TIMESTAMP ? INSTANT : LOCAL, pos, c.operand(0), value);
            }
        });
        return CalciteFrontend.unparse(rewritten);
    }

    private static boolean isTimezone(SqlCall call) {
        return call.operandCount() == 2 && call.getOperator().getName().equalsIgnoreCase(NAME);
    }

    /**
     * The function's parameters (ANY: validation takes each argument as it is) and its code, chosen
     * by the operands' validated types when Calcite generates it: a timestamptz value calls
     * {@link AtTimeZoneFunctions#local}, a timestamp {@link AtTimeZoneFunctions#instant}; an
     * interval zone passes its milliseconds and whether its type has a day field.
     */
    @MicrosecondTimestamps
    private record Implementation(SqlTypeName returns) implements ScalarFunction, ImplementableFunction {
        @Override
        public List<FunctionParameter> getParameters() {
            return List.of(parameter(0, "zone"), parameter(1, "value"));
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
            // NULL in, NULL out: Calcite adjusts no nullability for a function that is not reflective
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(returns), true);
        }

        @Override
        public CallImplementor getImplementor() {
            return RexImpTable.createImplementor(
                    (translator, call, operands) -> {
                        RelDataType zone = call.getOperands().get(0).getType();
                        boolean local = call.getOperands().get(1).getType().getSqlTypeName()
                                == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
                        String method = local ? "local" : "instant";
                        Expression value = EnumUtils.convert(operands.get(1), long.class);
                        if (SqlTypeUtil.isInterval(zone)) {
                            boolean days = zone.getSqlTypeName().getStartUnit() == TimeUnit.DAY;
                            return Expressions.call(
                                    AtTimeZoneFunctions.class,
                                    method,
                                    EnumUtils.convert(operands.get(0), long.class),
                                    Expressions.constant(days),
                                    value);
                        }
                        return Expressions.call(
                                AtTimeZoneFunctions.class,
                                method,
                                EnumUtils.convert(operands.get(0), String.class),
                                value);
                    },
                    NullPolicy.ANY,
                    false);
        }

        private static FunctionParameter parameter(int ordinal, String name) {
            return new RequiredParameter(ordinal, name, SqlTypeName.ANY);
        }
    }
}
