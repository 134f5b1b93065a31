package io.tributary.sql.calcite;

import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.InfiniteDateTimes;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * The operators {@link MillisecondCalls} puts into plans to move a timestamp between the
 * microseconds Calcite's generated code holds and the milliseconds Calcite's own operations (and
 * functions not marked {@link MicrosecondTimestamps}) compute in. Each call is made with its type
 * given ({@code RexBuilder.makeCall(type, op, operands)}), so the operators need no type inference;
 * each is strict (NULL in, NULL out). Immutable, shared by every plan. Public for the generated
 * code, which calls {@link #roundToPrecision}.
 */
public final class TimestampUnitCalls {
    /** The operand as it is, typed as the call: a count of microseconds as a timestamp. */
    static final SqlOperator AS_MICROS = operator("pg_timestamp_micros", operands -> asLong(operands.get(0)));

    /** Microseconds to milliseconds, rounded down (to the earlier instant); an infinity stays its count. */
    static final SqlOperator TO_MILLIS = operator(
            "pg_timestamp_to_millis",
            operands -> Expressions.call(InfiniteDateTimes.class, "toMillis", asLong(operands.get(0))));

    /** Milliseconds to microseconds; an infinity stays its count, 22008 past the range. */
    static final SqlOperator FROM_MILLIS = operator(
            "pg_timestamp_from_millis",
            operands -> Expressions.call(InfiniteDateTimes.class, "fromMillis", asLong(operands.get(0))));

    /** {@code CAST(date AS timestamp)}: the day's midnight in microseconds; infinities stay infinite. */
    static final SqlOperator FROM_DATE = operator(
            "pg_timestamp_of_date",
            operands -> Expressions.call(
                    InfiniteDateTimes.class, "dateToTimestamp", Expressions.convert_(operands.get(0), int.class)));

    /** {@code CAST(timestamp AS date)}: the timestamp's day; infinities stay infinite. */
    static final SqlOperator TO_DATE = operator(
            "pg_timestamp_date",
            operands -> Expressions.call(InfiniteDateTimes.class, "timestampToDate", asLong(operands.get(0))));

    /**
     * A result in milliseconds (first operand) with the microseconds below the millisecond of the
     * operand it was computed from (second operand): for operations that move a timestamp by whole
     * milliseconds (adding an interval of Calcite's, a change of time zone), which keep them; an
     * infinite operand is the result, as PostgreSQL's infinity moved stays infinite.
     */
    static final SqlOperator KEEP_MICROS = operator(
            "pg_timestamp_keep_micros",
            operands -> Expressions.call(
                    InfiniteDateTimes.class, "keepMicros", asLong(operands.get(0)), asLong(operands.get(1))));

    /** {@code timestamp(p)}: {@link #roundToPrecision} of a timestamp and a precision. */
    static final SqlOperator ROUND = PgArithmetic.function(TimestampUnitCalls.class, "roundToPrecision");

    private TimestampUnitCalls() {}

    /**
     * A timestamp of microseconds rounded to {@code precision} fraction digits (0 to 6) as
     * PostgreSQL's {@code AdjustTimestampForTypmod} rounds it ({@link FractionalSeconds#roundTimestamp}).
     * NULL for NULL.
     */
    @MicrosecondTimestamps
    public static Long roundToPrecision(Long micros, int precision) {
        return micros == null ? null : FractionalSeconds.roundTimestamp(micros, Math.max(precision, 0));
    }

    private static Expression asLong(Expression operand) {
        return Expressions.convert_(operand, long.class);
    }

    private static SqlOperator operator(String name, Code code) {
        return new SqlUserDefinedFunction(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0,
                null,
                null,
                new Conversion(code));
    }

    /** The Java expression of a conversion over its operands' (non-null) expressions. */
    @FunctionalInterface
    private interface Code {
        Expression of(List<Expression> operands);
    }

    /** A conversion as Calcite's function: its code is generated inline. */
    @MicrosecondTimestamps
    private static final class Conversion implements ScalarFunction, ImplementableFunction {
        private final Code code;

        Conversion(Code code) {
            this.code = code;
        }

        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory types) {
            return types.createSqlType(SqlTypeName.TIMESTAMP, 6);
        }

        @Override
        public CallImplementor getImplementor() {
            return RexImpTable.createImplementor(
                    (translator, call, operands) -> code.of(operands), NullPolicy.STRICT, false);
        }
    }
}
