package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * A {@code real} cast to numeric reads the real's 6 significant digits ({@code float4_numeric}),
 * not the double's 15. {@link NumericCast} writes every {@code ::numeric} as {@code pg_numeric(x)},
 * but Calcite's overload resolution cannot rank a REAL argument among {@link PgFunctions}'
 * overloads (an assertion: {@code 3.4e38::real::numeric} and {@code r::numeric} of a real column
 * were XX000), so such a call is sent to {@link PgFunctions#pg_numeric_real} by name before its type
 * is derived. Called by {@link PgValidator} on the validating thread, in queries and views alike.
 */
final class RealNumericCasts {
    private RealNumericCasts() {}

    /** Renames {@code call} to {@code pg_numeric_real} when it is {@code pg_numeric} of a REAL. */
    static void resolve(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (call.operandCount() != 1
                || !call.getOperator().getName().equalsIgnoreCase("pg_numeric")
                || validator.deriveType(scope, call.operand(0)).getSqlTypeName() != SqlTypeName.REAL) {
            return;
        }
        call.setOperator(new SqlUnresolvedFunction(
                new SqlIdentifier(List.of("pg_numeric_real"), call.getParserPosition()),
                null,
                null,
                null,
                null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION));
    }
}
