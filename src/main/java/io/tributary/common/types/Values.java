package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Assignment casts: turning a value of one canonical type into the canonical value of a column's
 * type, with PostgreSQL's rules for rounding, range and length errors. Stateless and thread-safe.
 */
public final class Values {
    private Values() {}

    /**
     * As {@link #assign(Object, DataType, DataType)}, in a session whose TimeZone is {@code zone}:
     * text without an offset, a timestamp and a date become a timestamptz as that zone's local
     * time, and a timestamptz becomes a timestamp, date, time or text as its local time there.
     */
    public static Object assign(Object value, DataType from, DataType to, PgTimeZone zone) {
        if (value == null || zone.isUtc()) {
            return assign(value, from, to);
        }
        TypeKind source = from == null ? null : from.kind();
        TypeKind target = to.kind();
        if (target == TypeKind.TIMESTAMPTZ) {
            if (value instanceof String s) {
                return fitDateTime(PgTextFormat.parseTimestamptz(s, zone), to);
            }
            if (source == TypeKind.TIMESTAMP) {
                return fitDateTime(zone.toInstant((Long) value), to);
            }
            if (source == TypeKind.DATE) {
                return zone.toInstant(InfiniteDateTimes.dateToTimestamp((Integer) value));
            }
        } else if (source == TypeKind.TIMESTAMPTZ) {
            long instant = (Long) value;
            if (target.isString()) {
                return fitString(zone.format(instant), to);
            }
            return assign(instant + zone.offsetSeconds(instant) * 1_000_000L, DataType.TIMESTAMP, to);
        }
        return assign(value, from, to);
    }

    /**
     * Converts {@code value} (a canonical value of {@code from}, or a plain Java number, string or
     * boolean when {@code from} is null) to the canonical value of {@code to}; timestamptz values
     * are read and made in UTC.
     */
    public static Object assign(Object value, DataType from, DataType to) {
        if (value == null) {
            return null;
        }
        TypeKind target = to.kind();
        if (alreadyCanonical(value, target)) {
            return switch (target) {
                case NUMERIC -> fitNumeric((BigDecimal) value, to);
                case VARCHAR, BPCHAR -> fitString((String) value, to);
                case ARRAY -> assignElements((java.util.List<?>) value, from, to);
                case TIME, TIMESTAMP, TIMESTAMPTZ -> fitDateTime(value, to);
                default -> value;
            };
        }
        if (value instanceof String s) {
            // text (a literal, an untyped parameter, a text column) is read as the target type
            return target.isString() || target == TypeKind.BPCHAR ? fitString(s, to) : PgTextFormat.parse(to, s);
        }
        switch (target) {
            case BOOLEAN:
                if (value instanceof Boolean) {
                    return value;
                }
                break;
            case SMALLINT:
                return (short) integral(value, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
            case INTEGER:
                if (from != null && from.kind() == TypeKind.DATE) {
                    break;
                }
                return (int) integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
            case BIGINT:
                if (from != null && !from.kind().isNumeric()) {
                    break;
                }
                return integral(value, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
            case REAL:
                if (value instanceof Number n) {
                    return n.floatValue();
                }
                break;
            case DOUBLE:
                if (value instanceof Number n) {
                    return n.doubleValue();
                }
                break;
            case NUMERIC:
                if (value instanceof Number n) {
                    return fitNumeric(toBigDecimal(n), to);
                }
                break;
            case VARCHAR:
            case TEXT:
            case BPCHAR:
                return fitString(from == null ? value.toString() : PgTextFormat.format(from, value), to);
            case DATE:
                if (from != null && from.kind() == TypeKind.DATE) {
                    return value;
                }
                if (from != null && (from.kind() == TypeKind.TIMESTAMP || from.kind() == TypeKind.TIMESTAMPTZ)) {
                    return InfiniteDateTimes.timestampToDate((Long) value);
                }
                break;
            case TIME:
                if (from != null && from.kind() == TypeKind.TIME) {
                    return fitDateTime(value, to);
                }
                if (from != null && (from.kind() == TypeKind.TIMESTAMP || from.kind() == TypeKind.TIMESTAMPTZ)) {
                    // PostgreSQL's timestamp_time: an infinity has no time of day
                    return InfiniteDateTimes.isFinite((Long) value)
                            ? fitDateTime(Math.floorMod((Long) value, 86_400_000_000L), to)
                            : null;
                }
                break;
            case TIMESTAMP:
            case TIMESTAMPTZ:
                if (from != null && (from.kind() == TypeKind.TIMESTAMP || from.kind() == TypeKind.TIMESTAMPTZ)) {
                    return fitDateTime(value, to);
                }
                if (from != null && from.kind() == TypeKind.DATE) {
                    return InfiniteDateTimes.dateToTimestamp((Integer) value);
                }
                break;
            case INTERVAL:
                if (value instanceof Interval) {
                    return value;
                }
                break;
            case BYTEA:
                if (value instanceof byte[]) {
                    return value;
                }
                break;
            case UUID:
                if (value instanceof java.util.UUID) {
                    return value;
                }
                break;
            case JSON:
                if (value instanceof PgJson) {
                    return value;
                }
                return value instanceof PgJsonb b ? new PgJson(b.text()) : PgJsonText.json(value.toString());
            case JSONB:
                if (value instanceof PgJsonb) {
                    return value;
                }
                return PgJsonText.jsonb(value.toString());
            default:
                break;
        }
        throw new TributaryException(
                SqlState.DATATYPE_MISMATCH,
                "column of type " + to.sqlName()
                        + " cannot be assigned a value of type "
                        + (from == null ? value.getClass().getSimpleName() : from.sqlName()));
    }

    /**
     * A time, timestamp or timestamptz value ({@code Long} microseconds) rounded to the fraction
     * digits of {@code type} ({@code timestamp(3)}), as PostgreSQL rounds it on assignment; the value
     * itself when the type has no precision.
     */
    public static Object fitDateTime(Object value, DataType type) {
        int digits = type.fractionDigits();
        if (digits < 0 || value == null) {
            return value;
        }
        long micros = (Long) value;
        return type.kind() == TypeKind.TIME
                ? FractionalSeconds.roundTime(micros, digits)
                : FractionalSeconds.roundTimestamp(micros, digits);
    }

    /** True when {@code value} is already the canonical Java class of {@code target} (the common case). */
    private static boolean alreadyCanonical(Object value, TypeKind target) {
        return switch (target) {
            case BOOLEAN -> value instanceof Boolean;
            case SMALLINT -> value instanceof Short;
            case INTEGER -> value instanceof Integer;
            case BIGINT -> value instanceof Long;
            case REAL -> value instanceof Float;
            case DOUBLE -> value instanceof Double;
            case NUMERIC -> value instanceof BigDecimal;
            case VARCHAR, TEXT, BPCHAR -> value instanceof String;
            case ARRAY -> value instanceof java.util.List;
            case INTERVAL -> value instanceof Interval;
            case BYTEA -> value instanceof byte[];
            case UUID -> value instanceof java.util.UUID;
            case JSON -> value instanceof PgJson;
            case JSONB -> value instanceof PgJsonb;
            // DATE, TIME and timestamps share Java classes with integers: the source type decides
            default -> false;
        };
    }

    /**
     * Each element of an array assigned to an array column of {@code to}'s element type (an
     * {@code ARRAY[1, 2]} into a {@code numeric(5,1)[]} column); the list itself when every element
     * is already the column's, the common case of an array read from a column of the same type.
     */
    private static java.util.List<?> assignElements(java.util.List<?> values, DataType from, DataType to) {
        DataType fromElement = from != null && from.kind() == TypeKind.ARRAY ? from.element() : null;
        java.util.List<Object> out = null;
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            Object assigned = assign(v, fromElement, to.element());
            if (assigned != v && out == null) {
                out = new java.util.ArrayList<>(values.subList(0, i));
            }
            if (out != null) {
                out.add(assigned);
            }
        }
        return out == null ? values : out;
    }

    private static long integral(Object value, long min, long max, String typeName) {
        if (value instanceof Boolean || !(value instanceof Number n)) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "cannot assign a value of type " + value.getClass().getSimpleName() + " to " + typeName);
        }
        if (n instanceof Long || n instanceof Integer || n instanceof Short) {
            // the rows of INSERT ... SELECT: a range check without BigDecimals, once per value
            long v = n.longValue();
            if (v < min || v > max) {
                throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, typeName + " out of range");
            }
            return v;
        }
        BigDecimal d = toBigDecimal(n);
        if (d.scale() > 0) {
            // as PostgreSQL: numeric rounds half away from zero (2.5 is 3), float half to even (rint)
            d = d.setScale(0, n instanceof BigDecimal ? RoundingMode.HALF_UP : RoundingMode.HALF_EVEN);
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, typeName + " out of range");
        }
        return d.longValue();
    }

    private static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal b) {
            return b;
        }
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new TributaryException(
                        SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "cannot convert " + d + " to an exact number");
            }
            return BigDecimal.valueOf(d);
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /** Rounds to the column's scale and checks its precision, as PostgreSQL does for NUMERIC(p,s). */
    public static BigDecimal fitNumeric(BigDecimal v, DataType type) {
        if (type.precision() <= 0) {
            return v;
        }
        int scale = Math.max(type.scale(), 0);
        BigDecimal r = v.setScale(scale, RoundingMode.HALF_UP);
        if (r.precision() - r.scale() > type.precision() - scale && r.signum() != 0) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "numeric field overflow",
                    0,
                    "A field with precision " + type.precision() + ", scale " + scale
                            + " must round to an absolute value less than 10^" + (type.precision() - scale) + ".",
                    null,
                    null);
        }
        return r;
    }

    /**
     * A string as a value of {@code type}: cut to a varchar's or character's length when only
     * blanks are cut (22001 otherwise), padded with blanks to a character's length.
     */
    public static String fitString(String s, DataType type) {
        if (type.kind() == TypeKind.BPCHAR && type.precision() > 0) {
            int length = s.codePointCount(0, s.length());
            if (length < type.precision()) {
                return s + " ".repeat(type.precision() - length);
            }
            if (length > type.precision()) {
                int cut = s.offsetByCodePoints(0, type.precision());
                for (int i = cut; i < s.length(); i++) {
                    if (s.charAt(i) != ' ') {
                        throw new TributaryException(
                                SqlState.STRING_DATA_RIGHT_TRUNCATION,
                                "value too long for type character(" + type.precision() + ")");
                    }
                }
                return s.substring(0, cut);
            }
            return s;
        }
        if (type.kind() == TypeKind.VARCHAR
                && type.precision() > 0
                && s.codePointCount(0, s.length()) > type.precision()) {
            // PostgreSQL cuts excess characters only if they are all spaces, keeping exactly n
            int cut = s.offsetByCodePoints(0, type.precision());
            if (s.substring(cut).chars().allMatch(c -> c == ' ')) {
                return s.substring(0, cut);
            }
            throw new TributaryException(
                    SqlState.STRING_DATA_RIGHT_TRUNCATION,
                    "value too long for type character varying(" + type.precision() + ")");
        }
        return s;
    }
}
