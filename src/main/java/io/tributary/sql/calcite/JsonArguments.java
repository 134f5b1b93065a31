package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Refuses date, time, timestamp and interval arguments of the functions that turn SQL values into JSON
 * ({@link PgJsonFunctions}): those receive a value without its SQL type, and a date or timestamp
 * or interval arrives as the number Tributary stores, where PostgreSQL writes ISO text ({@code
 * "2024-01-01T10:00:00"}). Until the type reaches them, 0A000 rather than a wrong document. Called
 * by {@link PgValidator} before it derives such a call's type, on the validating thread.
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
     * @throws TributaryException 0A000 when {@code call} turns a date/time value into JSON; {@code
     *     typeOf} derives an argument's type
     */
    static void refuseDateTimes(SqlCall call, Function<SqlNode, RelDataType> typeOf) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!TO_JSON.contains(name)) {
            return;
        }
        for (SqlNode operand : call.getOperandList()) {
            RelDataType type = typeOf.apply(operand);
            while (type.getComponentType() != null) {
                type = type.getComponentType(); // an array's elements reach JSON as bare values too
            }
            if (SqlTypeName.DATETIME_TYPES.contains(type.getSqlTypeName()) || isInterval(type)) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        (name.startsWith("pg_") ? "a json aggregate" : name)
                                + " of a date, time, timestamp or interval value is not supported yet; cast it to text"
                                + " first");
            }
        }
    }
}
