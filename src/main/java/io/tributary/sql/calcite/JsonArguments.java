package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Date, time and timestamp arguments of the functions that turn SQL values into JSON ({@link
 * PgJsonFunctions}) as the text PostgreSQL's JSON writes for them: those functions receive a value
 * without its SQL type, and a date or timestamp would arrive as the number Tributary holds. A date
 * or time becomes its text, a timestamp or timestamptz its ISO 8601 text ({@link
 * PgJsonFunctions#pg_json_timestamp}, {@code "2024-01-01T10:00:00.123456"}, a timestamptz in the
 * session's zone as its cast to text is), as keys and values alike, as PostgreSQL's {@code
 * JsonEncodeDateTime} writes both; an interval its text ({@code "1 day 02:00:00"}), as PostgreSQL
 * writes a type without a JSON form; an array of dates, times or timestamps a JSON array of such
 * texts ({@link PgJsonFunctions#pg_json_date_times}). An array of intervals or of timestamptz
 * values (whose text needs the session's zone), and an array of date/time values as an
 * aggregate's key, stay 0A000 rather than a wrong document. Called by {@link PgValidator} before it
 * derives such a call's type, on the validating thread.
 */
final class JsonArguments {
    private static final Set<String> TO_JSON = Set.of(
            "to_json",
            "to_jsonb",
            "json_build_object",
            "jsonb_build_object",
            "json_build_array",
            "jsonb_build_array",
            "pg_json_element",
            "pg_json_key");

    private JsonArguments() {}

    private static boolean isInterval(RelDataType type) {
        try {
            return PgTypeOf.name(type).equals("interval");
        } catch (TributaryException noColumnType) {
            return false;
        }
    }

    /**
     * Replaces each date, time, timestamp or interval argument of {@code call}, and each array of
     * date/time values, when it turns SQL values into JSON, by its JSON text (an array by its json);
     * {@code typeOf} derives an argument's type.
     *
     * @throws TributaryException 0A000 for an array of intervals or of timestamptz values, or of
     *     date/time values as a key
     */
    static void writeDateTimesAsText(SqlBasicCall call, Function<SqlNode, RelDataType> typeOf) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!TO_JSON.contains(name)) {
            return;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode operand = call.operand(i);
            RelDataType type = typeOf.apply(operand);
            SqlTypeName typeName = type.getSqlTypeName();
            if (type.getComponentType() == null && (typeName == SqlTypeName.DATE || typeName == SqlTypeName.TIME)) {
                call.setOperand(i, text(operand));
                continue;
            }
            if (type.getComponentType() == null
                    && (typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
                SqlParserPos pos = operand.getParserPosition();
                call.setOperand(i, PgIntervals.call("pg_json_timestamp", pos, text(operand)));
                continue;
            }
            if (type.getComponentType() == null && isInterval(type)) {
                call.setOperand(i, intervalText(operand, type));
                continue;
            }
            RelDataType element = type;
            while (element.getComponentType() != null) {
                element = element.getComponentType(); // an array's elements reach JSON as bare values too
            }
            SqlTypeName elementType = element.getSqlTypeName();
            boolean dateTimes = SqlTypeName.DATETIME_TYPES.contains(elementType);
            if (dateTimes && elementType != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && !name.equals("pg_json_key")) {
                SqlParserPos pos = operand.getParserPosition();
                String kind = elementType.getName().toLowerCase(Locale.ROOT);
                call.setOperand(
                        i,
                        PgIntervals.call("pg_json_date_times", pos, operand, SqlLiteral.createCharString(kind, pos)));
                continue;
            }
            if (dateTimes || isInterval(element)) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        (name.startsWith("pg_") ? "a json aggregate" : name)
                                + (dateTimes
                                        ? " of an array of timestamptz values, or of date/time values as a key,"
                                        : " of an array of interval values")
                                + " is not supported yet; cast it to text first");
            }
        }
    }

    /**
     * An interval {@code operand} of Calcite type {@code type} as PostgreSQL's text of it ({@link
     * PgJsonFunctions#pg_json_interval}): a Calcite day-time interval counting days keeps them apart
     * from its time, as its result column does.
     */
    private static SqlNode intervalText(SqlNode operand, RelDataType type) {
        SqlParserPos pos = operand.getParserPosition();
        SqlTypeName calcite = type.getSqlTypeName();
        boolean countsDays = SqlTypeName.INTERVAL_TYPES.contains(calcite) && calcite.getStartUnit() == TimeUnit.DAY;
        return PgIntervals.call("pg_json_interval", pos, operand, SqlLiteral.createBoolean(countsDays, pos));
    }

    /** {@code operand} cast to text, which writes PostgreSQL's text of a date/time value. */
    private static SqlNode text(SqlNode operand) {
        SqlParserPos pos = operand.getParserPosition();
        return SqlStdOperatorTable.CAST.createCall(
                pos, operand, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
    }
}
