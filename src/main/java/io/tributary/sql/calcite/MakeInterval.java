package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code make_interval(years, months, weeks, days, hours, mins, secs)}, its arguments
 * given in order or by name ({@code make_interval(days => 10)}), each defaulting to zero, as a call
 * of {@link PgIntervalFunctions#pg_make_interval} with all seven, cast to its parameter types
 * (integers, the seconds double precision). Used by {@link IntervalSemantics}; stateless.
 */
final class MakeInterval {
    private static final List<String> NAMES = List.of("years", "months", "weeks", "days", "hours", "mins", "secs");

    private MakeInterval() {}

    /**
     * @throws TributaryException 42883 for more than seven arguments or an unknown name, as
     *     PostgreSQL finds no such function
     */
    static SqlNode positional(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        SqlNode[] args = new SqlNode[NAMES.size()];
        List<SqlNode> given = call.getOperandList();
        if (given.size() > args.length) {
            throw noSuchFunction();
        }
        for (int i = 0; i < given.size(); i++) {
            SqlNode arg = given.get(i);
            int at = i;
            if (arg instanceof SqlCall named && named.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
                at = NAMES.indexOf(
                        ((SqlIdentifier) named.operand(1)).getSimple().toLowerCase(Locale.ROOT));
                arg = named.operand(0);
            }
            if (at < 0) {
                throw noSuchFunction();
            }
            args[at] = arg;
        }
        for (int i = 0; i < args.length; i++) {
            SqlNode value = args[i] != null ? args[i] : SqlLiteral.createExactNumeric("0", pos);
            SqlTypeName type = i == args.length - 1 ? SqlTypeName.DOUBLE : SqlTypeName.INTEGER;
            args[i] = SqlStdOperatorTable.CAST.createCall(
                    pos, value, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
        }
        return PgIntervals.call("pg_make_interval", pos, args);
    }

    private static TributaryException noSuchFunction() {
        return new TributaryException(SqlState.UNDEFINED_FUNCTION, "function make_interval does not exist");
    }
}
