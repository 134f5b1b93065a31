package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgUuidText;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.TimeZone;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Converts between Tributary's types and canonical values and Calcite's: column types for the
 * schema, rows for scans (Calcite keeps DATE as days, TIME as millis of day; TIMESTAMP is Tributary's
 * microseconds, which {@link MillisecondCalls} makes the generated code hold),
 * and JDBC results back to canonical values. Thread-safe.
 */
final class TypeMapping {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Scale given to NUMERIC columns declared without one; Calcite requires a fixed scale. */
    static final int UNCONSTRAINED_NUMERIC_SCALE = 16;

    private static final java.util.regex.Pattern VARCHAR_LENGTH =
            java.util.regex.Pattern.compile("VARCHAR\\((\\d+)\\)");

    private TypeMapping() {}

    static RelDataType toRelType(RelDataTypeFactory f, DataType t, boolean nullable) {
        RelDataType rel = switch (t.kind()) {
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case SMALLINT -> f.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> f.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case REAL -> f.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            case NUMERIC ->
                t.precision() > 0 && t.precision() <= TributaryTypeSystem.MAX_NUMERIC_PRECISION
                        ? f.createSqlType(SqlTypeName.DECIMAL, t.precision(), Math.max(0, t.scale()))
                        : f.createSqlType(
                                SqlTypeName.DECIMAL,
                                TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                                UNCONSTRAINED_NUMERIC_SCALE);
            case VARCHAR ->
                t.precision() > 0
                        ? f.createSqlType(SqlTypeName.VARCHAR, t.precision())
                        : f.createSqlType(SqlTypeName.VARCHAR);
            case TEXT -> f.createSqlType(SqlTypeName.VARCHAR);
            // Calcite's CHAR(n) holds the padded value (BpcharText drops the blanks where
            // PostgreSQL does); bpchar without a length pads nothing
            case BPCHAR ->
                t.precision() > 0
                        ? f.createSqlType(SqlTypeName.CHAR, t.precision())
                        : f.createSqlType(SqlTypeName.VARCHAR);
            case ARRAY -> f.createArrayType(toRelType(f, t.element(), true), -1);
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIME -> f.createSqlType(SqlTypeName.TIME, 6);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, 6);
            case TIMESTAMPTZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
            // PostgreSQL's interval as one value (months, days, microseconds): Calcite's own interval
            // types hold months or milliseconds, never both (PgIntervals has its operators)
            case INTERVAL -> PgIntervals.type(f);
            case BYTEA -> f.createSqlType(SqlTypeName.VARBINARY);
            case UUID -> f.createSqlType(SqlTypeName.UUID);
            case JSON, JSONB -> PgJsonTypes.type(f, t.kind());
        };
        return f.createTypeWithNullability(rel, nullable);
    }

    /** A canonical value as Calcite's enumerable runtime represents it. */
    static Object toCalcite(DataType t, Object v) {
        if (v == null) {
            return null;
        }
        return switch (t.kind()) {
            case TIME -> (int) ((Long) v / 1000);
            case BYTEA -> new ByteString((byte[]) v);
            case ARRAY -> toCalciteElements(t.element(), (java.util.List<?>) v);
            default -> v;
        };
    }

    /** An array's elements as Calcite holds them: a new list only for the kinds Calcite keeps otherwise. */
    private static java.util.List<?> toCalciteElements(DataType element, java.util.List<?> values) {
        switch (element.kind()) {
            case TIME, BYTEA -> {
                java.util.List<Object> out = new java.util.ArrayList<>(values.size());
                for (Object e : values) {
                    out.add(toCalcite(element, e));
                }
                return out;
            }
            default -> {
                return values;
            }
        }
    }

    /**
     * The Tributary type of a Calcite type, the inverse of {@link #toRelType}: DECIMAL(p,s) is
     * numeric(p,s) except the DECIMAL that stands for an unconstrained NUMERIC, VARCHAR(n) is
     * varchar(n), VARCHAR and CHAR(n) are text.
     *
     * @throws TributaryException 0A000 for types no column can hold (arrays, maps, rows ...)
     */
    static DataType fromRelType(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT, SMALLINT -> DataType.SMALLINT;
            case INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case REAL -> DataType.REAL;
            case FLOAT, DOUBLE -> DataType.DOUBLE;
            case DECIMAL -> numeric(t.getPrecision(), t.getScale());
            case VARCHAR ->
                t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                        ? DataType.TEXT
                        : DataType.varchar(t.getPrecision());
            case CHAR, NULL -> DataType.TEXT;
            case DATE -> DataType.DATE;
            case TIME -> DataType.TIME;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> DataType.TIMESTAMPTZ;
            case BINARY, VARBINARY -> DataType.BYTEA;
            case UUID -> DataType.UUID;
            case ARRAY -> {
                RelDataType component = t.getComponentType();
                if (component == null || component.getSqlTypeName() == SqlTypeName.ARRAY) {
                    throw new TributaryException(
                            SqlState.FEATURE_NOT_SUPPORTED, "multidimensional arrays are not supported here");
                }
                DataType element = fromRelType(component);
                if (!element.kind().arrayElement()) {
                    throw new TributaryException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "arrays of type " + element.sqlName() + " are not supported");
                }
                yield DataType.array(element);
            }
            case OTHER, ANY -> {
                if (PgJsonTypes.kind(t) != null) {
                    yield DataType.of(PgJsonTypes.kind(t));
                }
                if (PgIntervals.isInterval(t)) {
                    yield DataType.INTERVAL;
                }
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "values of type " + t.getFullTypeString().toLowerCase() + " are not supported here");
            }
            default -> {
                if (SqlTypeName.INTERVAL_TYPES.contains(t.getSqlTypeName())) {
                    yield DataType.INTERVAL;
                }
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "values of type " + t.getSqlTypeName().getName().toLowerCase() + " are not supported here");
            }
        };
    }

    /**
     * The Tributary type of Calcite's DECIMAL(precision, scale): numeric(p,s), except the DECIMAL
     * that stands for an unconstrained NUMERIC ({@link #toRelType}), which is {@code numeric}.
     */
    static DataType numeric(int precision, int scale) {
        return unconstrainedNumeric(precision, scale) ? DataType.NUMERIC : DataType.numeric(precision, scale);
    }

    /** Whether Calcite's DECIMAL(precision, scale) is the one that stands for an unconstrained NUMERIC. */
    static boolean unconstrainedNumeric(int precision, int scale) {
        return precision == TributaryTypeSystem.MAX_NUMERIC_PRECISION && scale == UNCONSTRAINED_NUMERIC_SCALE;
    }

    /**
     * A value as Calcite's generated code represents {@code calciteType} (the inverse of
     * {@link #toCalcite}) as the canonical value of {@code type}, its {@link #fromRelType}.
     * Year-month intervals are whole months; day-time intervals milliseconds.
     */
    static Object fromCalcite(DataType type, SqlTypeName calciteType, Object v) {
        if (v == null) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> (Boolean) v;
            case SMALLINT -> ((Number) v).shortValue();
            case INTEGER, DATE -> ((Number) v).intValue();
            case BIGINT -> ((Number) v).longValue();
            case REAL -> ((Number) v).floatValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case NUMERIC -> v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
            case VARCHAR, TEXT, BPCHAR -> v.toString();
            case ARRAY -> {
                java.util.List<?> values = (java.util.List<?>) v;
                java.util.List<Object> out = new java.util.ArrayList<>(values.size());
                // an interval element is PgIntervals' value already, so no element type is needed
                for (Object e : values) {
                    out.add(fromCalcite(type.element(), SqlTypeName.ANY, e));
                }
                yield out;
            }
            case TIME -> (long) ((Number) v).intValue() * 1000L;
            case TIMESTAMP, TIMESTAMPTZ -> ((Number) v).longValue();
            case INTERVAL ->
                v instanceof Interval iv
                        ? iv
                        : SqlTypeName.YEAR_INTERVAL_TYPES.contains(calciteType)
                                ? new Interval(((Number) v).intValue(), 0, 0)
                                : dayTime(calciteType, ((Number) v).longValue());
            case BYTEA -> ((ByteString) v).getBytes();
            case UUID -> (java.util.UUID) v;
            case JSON, JSONB -> Values.assign(v, null, type);
        };
    }

    /** The Tributary type of a result column from Calcite's JDBC metadata. */
    static DataType fromJdbc(String calciteTypeName, int precision, int scale) {
        String name = calciteTypeName.toUpperCase();
        if (!PgArrayText.isArray(name)
                && (name.startsWith("INTERVAL")
                        || name.contains(Interval.class.getName().toUpperCase(java.util.Locale.ROOT)))) {
            return DataType.INTERVAL;
        }
        if (PgJsonTypes.kind(calciteTypeName) != null) {
            return DataType.of(PgJsonTypes.kind(calciteTypeName));
        }
        if (PgArrayText.isArray(name)) {
            String elementName = name.substring(0, name.length() - PgArrayText.ARRAY_SUFFIX.length());
            // varchar(n)[]: the length is in the element's name only
            java.util.regex.Matcher varchar = VARCHAR_LENGTH.matcher(elementName);
            // an array of OTHER is of intervals (PgIntervals; json and jsonb are named apart)
            DataType element = PgArrayText.isArray(elementName)
                    ? null
                    : varchar.matches()
                            ? DataType.varchar(Integer.parseInt(varchar.group(1)))
                            : elementName.equals("OTHER") ? DataType.INTERVAL : fromJdbc(elementName, 0, 0);
            // nested arrays reach clients as text, as do arrays of types without an array type here;
            // interval arrays (PgIntervals' OTHER or Calcite's own interval types) are results only
            // (not column types), read as lists of intervals
            return element == null || !(element.kind().arrayElement() || element.kind() == TypeKind.INTERVAL)
                    ? DataType.TEXT
                    : DataType.array(element);
        }
        int paren = name.indexOf('(');
        if (paren > 0) {
            name = name.substring(0, paren).trim();
        }
        return switch (name) {
            case "BOOLEAN" -> DataType.BOOLEAN;
            case "TINYINT", "SMALLINT" -> DataType.SMALLINT;
            case "INTEGER" -> DataType.INTEGER;
            case "BIGINT" -> DataType.BIGINT;
            case "REAL" -> DataType.REAL;
            case "FLOAT", "DOUBLE" -> DataType.DOUBLE;
            case "DECIMAL" -> DataType.NUMERIC;
            case "DATE" -> DataType.DATE;
            case "TIME" -> DataType.TIME;
            case "TIMESTAMP" -> DataType.TIMESTAMP;
            case "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMP_TZ", "TIMESTAMP WITH LOCAL TIME ZONE" ->
                DataType.TIMESTAMPTZ;
            case "BINARY", "VARBINARY" -> DataType.BYTEA;
            case "UUID" -> DataType.UUID;
            // varchar(n) is PostgreSQL's character varying with its length; unbounded, text
            case "VARCHAR" ->
                precision > 0 && precision < Integer.MAX_VALUE ? DataType.varchar(precision) : DataType.TEXT;
            default -> DataType.TEXT;
        };
    }

    /**
     * The session's time zone as {@code SessionSchemas} keeps it in the Calcite connection's {@code
     * timeZone} property, for date and timestamp array elements; UTC for other elements.
     */
    private static TimeZone sessionZone(ResultSet rs, DataType element) throws SQLException {
        switch (element.kind()) {
            case DATE, TIMESTAMP, TIMESTAMPTZ -> {
                String id = rs.getStatement()
                        .getConnection()
                        .unwrap(org.apache.calcite.jdbc.CalciteConnection.class)
                        .getProperties()
                        .getProperty("timeZone");
                return TimeZone.getTimeZone(id == null ? "UTC" : id);
            }
            default -> {
                return TimeZone.getTimeZone("UTC");
            }
        }
    }

    /**
     * Column {@code i} (1-based) of the current row, an array of intervals, as a list of them; null
     * for SQL NULL. Avatica reads such an array as an object (an Array, though not by its column's
     * accessor) whose elements are PgIntervals' values already, or Calcite's counts of months or
     * milliseconds when the elements are of its own interval types.
     */
    private static java.util.List<Object> intervals(ResultSet rs, int i) throws SQLException {
        Object o = rs.getObject(i);
        if (o == null) {
            return null;
        }
        Object[] elements = o instanceof java.sql.Array a ? (Object[]) a.getArray() : ((java.util.List<?>) o).toArray();
        String name = rs.getMetaData().getColumnTypeName(i).toUpperCase(java.util.Locale.ROOT);
        java.util.List<Object> values = new java.util.ArrayList<>(elements.length);
        for (Object e : elements) {
            values.add(
                    e instanceof Number n
                            ? isYearMonth(name)
                                    ? new Interval(n.intValue(), 0, 0)
                                    : dayTime(name.contains("DAY"), n.longValue())
                            : e);
        }
        return values;
    }

    /** Reads column {@code i} (1-based) of the current row as a canonical value of {@code t}. */
    static Object read(ResultSet rs, int i, DataType t) throws SQLException {
        Object v = switch (t.kind()) {
            case BOOLEAN -> rs.getBoolean(i);
            case SMALLINT -> rs.getShort(i);
            case INTEGER -> rs.getInt(i);
            case BIGINT -> rs.getLong(i);
            case REAL -> rs.getFloat(i);
            case DOUBLE -> rs.getDouble(i);
            case NUMERIC -> rs.getBigDecimal(i);
            // Calcite's epoch days and milliseconds count in the proleptic Gregorian calendar, as
            // Tributary's do: read as numbers, not through java.sql.Date/Timestamp, whose hybrid
            // calendar has no 1582-10-05 to 1582-10-14 (those dates came out ten days late)
            case DATE -> rs.getInt(i);
            // milliseconds of the day, 86,400,000 being PostgreSQL's 24:00:00
            case TIME -> rs.getLong(i) * 1000L;
            // microseconds, as MicrosecondPlans has the generated code hold them
            case TIMESTAMP, TIMESTAMPTZ -> rs.getLong(i);
            case INTERVAL -> {
                Object o = rs.getObject(i);
                String name = rs.getMetaData().getColumnTypeName(i).toUpperCase(java.util.Locale.ROOT);
                // a year-month interval is a count of months, a day-time one of milliseconds
                yield o == null || o instanceof Interval
                        ? o
                        : o instanceof Number n
                                ? isYearMonth(name)
                                        ? new Interval(n.intValue(), 0, 0)
                                        : dayTime(name.contains("DAY"), n.longValue())
                                : PgTextFormat.parse(DataType.INTERVAL, o.toString());
            }
            case BYTEA -> rs.getBytes(i);
            case ARRAY ->
                t.element().kind() == TypeKind.INTERVAL
                        ? intervals(rs, i)
                        : PgArrayText.elements(rs.getArray(i), t.element(), sessionZone(rs, t.element()));
            case UUID -> {
                Object o = rs.getObject(i);
                yield o == null || o instanceof java.util.UUID ? o : PgUuidText.parse(o.toString());
            }
            case JSON, JSONB -> {
                Object o = rs.getObject(i);
                yield o == null ? null : Values.assign(o, null, t);
            }
            case VARCHAR, TEXT, BPCHAR -> {
                Object o = rs.getObject(i);
                yield o == null
                        ? null
                        : o instanceof String s
                                ? s
                                : o instanceof java.sql.Array a ? PgArrayText.format(a) : String.valueOf(o);
            }
        };
        return rs.wasNull() ? null : v;
    }

    /** Whether Calcite's JDBC type name {@code name} is a year-month interval type. */
    private static boolean isYearMonth(String name) {
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return upper.contains("YEAR") || upper.contains("MONTH") || upper.contains("QUARTER");
    }

    /**
     * A Calcite day-time interval of {@code millis} as PostgreSQL's: whole days apart when the
     * type counts days ({@code INTERVAL '1' DAY}, a timestamp difference), else all time, as
     * PostgreSQL keeps {@code INTERVAL '27 hours'} ({@code 27:00:00}).
     */
    private static Interval dayTime(boolean countsDays, long millis) {
        return countsDays
                ? new Interval(0, (int) (millis / MILLIS_PER_DAY), (millis % MILLIS_PER_DAY) * 1000)
                : new Interval(0, 0, millis * 1000);
    }

    private static Interval dayTime(SqlTypeName calciteType, long millis) {
        return dayTime(calciteType.getStartUnit() == TimeUnit.DAY, millis);
    }
}
