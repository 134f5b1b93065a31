package io.tributary.sql.calcite;

import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's interval in Calcite's type system: a Java type whose values are {@link Interval}
 * (months, days and microseconds apart), which Calcite carries as an opaque object. Stored interval
 * columns have this type; {@link PgIntervalFunctions} holds the functions that read and make such
 * values. Stateless.
 */
final class PgIntervals {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private PgIntervals() {}

    /**
     * The type of an interval column, as factory {@code f} makes it: {@code OTHER}, which Calcite
     * also makes of a function returning {@link Interval}, so columns and function results are one
     * type; no other value of this schema has it but json and jsonb, which {@link PgJsonTypes} tells apart.
     */
    static RelDataType type(RelDataTypeFactory f) {
        return f.createSqlType(SqlTypeName.OTHER);
    }

    /** Whether {@code t} is the type {@link #type} makes. */
    static boolean isInterval(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.OTHER && PgJsonTypes.kind(t) == null;
    }

    /** Calcite's interval constant {@code lit} as a PostgreSQL interval: {@code pg_interval('text')}. */
    static SqlNode literal(SqlIntervalLiteral lit) {
        SqlParserPos pos = lit.getParserPosition();
        return call("pg_interval", pos, SqlLiteral.createCharString(PgTextFormat.formatInterval(value(lit)), pos));
    }

    /**
     * The value of Calcite's interval constant {@code lit} as PostgreSQL keeps it: a year-month
     * constant's months; a day-time constant's days apart from its time when it counts days, as
     * PostgreSQL's input keeps them.
     */
    static Interval value(SqlIntervalLiteral lit) {
        SqlIntervalLiteral.IntervalValue value = lit.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        SqlIntervalQualifier q = value.getIntervalQualifier();
        if (q.isYearMonth()) {
            return new Interval((int) SqlParserUtil.intervalToMonths(value), 0, 0);
        }
        // a constant counting days keeps them apart from its time, as PostgreSQL's input does
        long millis = SqlParserUtil.intervalToMillis(value);
        return q.getStartUnit() == TimeUnit.DAY
                ? new Interval(0, (int) (millis / MILLIS_PER_DAY), millis % MILLIS_PER_DAY * 1000)
                : new Interval(0, 0, millis * 1000);
    }

    /** A call of the schema function {@code name}, resolved by name at validation. */
    static SqlNode call(String name, SqlParserPos pos, SqlNode... operands) {
        return function(name, pos).createCall(pos, operands);
    }

    /** The schema function {@code name} as an operator, resolved by name at validation. */
    static SqlUnresolvedFunction function(String name, SqlParserPos pos) {
        return new SqlUnresolvedFunction(
                new SqlIdentifier(name, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }
}
