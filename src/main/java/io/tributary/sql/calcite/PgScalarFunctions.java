package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.PgDateTimeInput;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's scalar functions and casts where Calcite's runtime answers differently, called by
 * the code Calcite generates for the calls {@link PgScalarCalls} puts in a plan (by reflection; the
 * methods must stay public and static). Strict: a NULL operand gives NULL without a call. Pure
 * functions of their operands, safe on any thread.
 */
@Strict
public final class PgScalarFunctions {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** PostgreSQL's first date, 4714-11-24 BC (Julian day 0), as an epoch day. */
    private static final long MIN_DATE = LocalDate.of(-4713, 11, 24).toEpochDay();
    /** PostgreSQL's last date, 5874897-12-31, as an epoch day. */
    private static final long MAX_DATE = LocalDate.of(5_874_897, 12, 31).toEpochDay();

    private PgScalarFunctions() {}

    /** {@code float8::text}: PostgreSQL's shortest round-trip text ({@code 1e+300}, {@code 1e-05}, {@code -0}). */
    public static String float8Text(double x) {
        return PgTextFormat.formatDouble(x);
    }

    /** {@code float4::text}: as {@link #float8Text}, with float4's six-digit fixed range. */
    public static String float4Text(float x) {
        return PgTextFormat.formatFloat(x);
    }

    /**
     * {@code date + integer} (Calcite's {@code date + n days}): the date that many days away, 22008
     * {@code date out of range} past PostgreSQL's dates (4714-11-24 BC to 5874897-12-31) where
     * Calcite's int would wrap; an infinite date stays infinite, as PostgreSQL's.
     */
    public static int datePlusMillis(int date, long millis) {
        if (!InfiniteDateTimes.isFiniteDate(date)) {
            return date;
        }
        long day = date + Math.floorDiv(millis, MILLIS_PER_DAY);
        if (day < MIN_DATE || day > MAX_DATE) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range");
        }
        return (int) day;
    }

    /** {@code date - integer}: as {@link #datePlusMillis} with the days negated. */
    public static int dateMinusMillis(int date, long millis) {
        return datePlusMillis(date, -millis);
    }

    /** {@code text::date}: PostgreSQL's date input ({@link PgDateTimeInput}), as Calcite's epoch day. */
    public static int textDate(String s) {
        return PgDateTimeInput.parseDate(s);
    }

    /** {@code text::float8}: PostgreSQL's input ({@code 'inf'}, {@code 'nan'} in any case; 22003 past its range). */
    public static double textFloat8(String s) {
        return (Double) PgTextFormat.parse(DataType.DOUBLE, s);
    }

    /** {@code text::real}: PostgreSQL's input, as {@link #textFloat8}. */
    public static float textFloat4(String s) {
        return (Float) PgTextFormat.parse(DataType.REAL, s);
    }

    /** {@code numeric::float8}: 22003 where the value is beyond a double's range, as PostgreSQL's float input says. */
    public static double numericFloat8(BigDecimal x) {
        double d = x.doubleValue();
        if (Double.isInfinite(d) || d == 0 && x.signum() != 0) {
            throw floatOutOfRange(x, "double precision");
        }
        return d;
    }

    /** {@code numeric::real}: as {@link #numericFloat8}, for a float's range. */
    public static float numericFloat4(BigDecimal x) {
        float f = x.floatValue();
        if (Float.isInfinite(f) || f == 0 && x.signum() != 0) {
            throw floatOutOfRange(x, "real");
        }
        return f;
    }

    private static TributaryException floatOutOfRange(BigDecimal x, String type) {
        return new TributaryException(
                SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"" + x.toPlainString() + "\" is out of range for type " + type);
    }

    /** {@code text::time}: PostgreSQL's time input, as Calcite's milliseconds of the day. */
    public static int textTime(String s) {
        return (int) (PgDateTimeInput.parseTime(s) / 1000);
    }

    /**
     * {@code text::bytea}: PostgreSQL's bytea input of the text (hex {@code \x...} or escape form),
     * as PostgreSQL's I/O conversion cast reads it, with its errors for a malformed one.
     */
    public static ByteString textBytea(String s) {
        return new ByteString(PgTextFormat.parseBytea(s));
    }

    /** {@code text::timestamp}: PostgreSQL's timestamp input, in microseconds. */
    @MicrosecondTimestamps
    public static long textTimestamp(String s) {
        return PgDateTimeInput.parseTimestamp(s, false, PgTimeZone.UTC);
    }

    /** {@code timestamp::text}: PostgreSQL's text, with the fraction of a second it has (Calcite's drops it). */
    @MicrosecondTimestamps
    public static String timestampText(Long micros) {
        return micros == null ? null : PgTextFormat.formatTimestamp(micros);
    }

    /** {@code date::text}: PostgreSQL's text ({@code infinity}, years past 9999), from Calcite's epoch day. */
    public static String dateText(Integer epochDay) {
        return epochDay == null ? null : PgTextFormat.formatDate(epochDay);
    }

    /** {@code time::text}: PostgreSQL's text, with the fraction of a second it has. */
    public static String timeText(Integer millisOfDay) {
        return millisOfDay == null ? null : PgTextFormat.formatTime(millisOfDay * 1000L);
    }

    /** {@code numeric::text}: every digit of the scale, and a 0 before the point (Calcite drops it). */
    public static String numericText(BigDecimal x) {
        return x.toPlainString();
    }

    /**
     * A NUMERIC whose type only becomes nullable (Calcite's cast of a window aggregate's result):
     * the value as it is. Calcite's cast to the unconstrained NUMERIC's DECIMAL would give it that
     * type's fixed scale, where PostgreSQL keeps the value's own.
     */
    public static BigDecimal numericNullable(BigDecimal x) {
        return x;
    }

    /** {@code bool::text}: {@code true} or {@code false}, PostgreSQL's boolean output (Calcite: TRUE). */
    public static String boolText(boolean x) {
        return x ? "true" : "false";
    }

    /** {@code round(float8)}: half to even, keeping the sign of zero, as PostgreSQL's {@code rint}. */
    public static double float8Round(double x) {
        return Math.rint(x);
    }

    /** {@code sqrt(float8)}; 2201F for a negative operand (Calcite answers NaN). */
    public static double float8Sqrt(double x) {
        if (x < 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER, "cannot take square root of a negative number");
        }
        return Math.sqrt(x);
    }

    /**
     * {@code power(float8, float8)} and {@code ^}: 2201E for zero to a negative power, 2201F for a
     * negative number to a non-integer power, 22003 when a finite result overflows.
     */
    public static double float8Power(double a, double b) {
        if (a == 0 && b < 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER, "zero raised to a negative power is undefined");
        }
        if (a < 0 && Math.floor(b) != b && !Double.isInfinite(b)) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_POWER,
                    "a negative number raised to a non-integer power yields a complex result");
        }
        double r = Math.pow(a, b);
        if (Double.isInfinite(r) && !Double.isInfinite(a) && !Double.isInfinite(b)) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
        }
        return r;
    }

    /** {@code ln(float8)}; 2201E for zero and negative operands (Calcite answers -Infinity, NaN). */
    public static double float8Ln(double x) {
        checkLogarithm(x);
        return Math.log(x);
    }

    /** {@code log(float8)}: PostgreSQL's one-argument {@code log} is base 10 (Calcite's is natural). */
    public static double float8Log10(double x) {
        checkLogarithm(x);
        return Math.log10(x);
    }

    /** {@code log(b, x)}: the logarithm of {@code x} to base {@code b}, PostgreSQL's argument order. */
    public static double float8LogBase(double b, double x) {
        checkLogarithm(b);
        checkLogarithm(x);
        if (b == 1) {
            throw new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        return Math.log(x) / Math.log(b);
    }

    private static void checkLogarithm(double x) {
        if (x == 0) {
            throw new TributaryException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of zero");
        }
        if (x < 0) {
            throw new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of a negative number");
        }
    }

    /**
     * {@code regexp_replace(s, pattern, replacement)} without flags: the first match only
     * (Calcite's replaces every match). The replacement's {@code \1}..{@code \9} are groups and
     * {@code \&} the whole match, as in PostgreSQL; every other character is literal.
     */
    public static String regexpReplaceFirst(String s, String pattern, String replacement) {
        Matcher m = Pattern.compile(pattern).matcher(s);
        if (!m.find()) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + replacement.length());
        out.append(s, 0, m.start());
        for (int i = 0; i < replacement.length(); i++) {
            char c = replacement.charAt(i);
            if (c == '\\' && i + 1 < replacement.length()) {
                char next = replacement.charAt(i + 1);
                if (next >= '1' && next <= '9') {
                    int group = next - '0';
                    if (group <= m.groupCount() && m.group(group) != null) {
                        out.append(m.group(group));
                    }
                    i++;
                    continue;
                }
                if (next == '&') {
                    out.append(m.group());
                    i++;
                    continue;
                }
                if (next == '\\') {
                    out.append('\\');
                    i++;
                    continue;
                }
            }
            out.append(c);
        }
        return out.append(s, m.end(), s.length()).toString();
    }

    /**
     * {@code substr(s, start)}: from character {@code start} (1-based) to the end; a start before
     * the first character starts at the first (Calcite counts a negative start from the end).
     */
    public static String substrFrom(String s, int start) {
        return substr(s, start, Integer.MAX_VALUE);
    }

    /**
     * {@code substr(s, start, count)}: the characters at positions {@code start ..
     * start + count - 1} that exist, as PostgreSQL's {@code text_substr}.
     *
     * @throws TributaryException 22011 for a negative count
     */
    public static String substr(String s, int start, int count) {
        if (count < 0) {
            throw new TributaryException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
        }
        long end = (long) start + count; // exclusive, 1-based
        long from = Math.max(start, 1);
        int length = s.codePointCount(0, s.length());
        long to = Math.min(end, (long) length + 1);
        if (from >= to) {
            return "";
        }
        int begin = s.offsetByCodePoints(0, (int) from - 1);
        return s.substring(begin, s.offsetByCodePoints(begin, (int) (to - from)));
    }

    /**
     * {@code left(text, n)}: the first {@code n} characters, or all but the last {@code -n} when
     * {@code n} is negative, as PostgreSQL counts characters (code points).
     */
    public static String left(String s, int n) {
        int length = s.codePointCount(0, s.length());
        int keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(0, s.offsetByCodePoints(0, keep));
    }

    /** {@code right(text, n)}: the last {@code n} characters, or all but the first {@code -n}. */
    public static String right(String s, int n) {
        int length = s.codePointCount(0, s.length());
        int keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(s.offsetByCodePoints(0, length - keep));
    }

    /**
     * {@code chr(int)}: the character of that code point (UTF8); 54000 for 0, a surrogate or a code
     * point past U+10FFFF (a negative one reads as the unsigned value, as PostgreSQL prints it).
     */
    public static String chr(int codePoint) {
        if (codePoint == 0) {
            throw new TributaryException(SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
        }
        if (codePoint < 0 || codePoint > Character.MAX_CODE_POINT) {
            throw new TributaryException(
                    SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "requested character too large for encoding: " + Integer.toUnsignedString(codePoint));
        }
        if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
            throw new TributaryException(
                    SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: " + codePoint);
        }
        return new String(Character.toChars(codePoint));
    }

    /** {@code width_bucket(float8, float8, float8, int)}, the form PostgreSQL picks when any argument is a float. */
    public static int widthBucketFloat8(double operand, double low, double high, int count) {
        return PgNumberFunctions.widthBucket(operand, low, high, count);
    }

    /** {@code upper(text)} in the C locale Tributary's databases have: ASCII letters only, as PostgreSQL. */
    public static String upper(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                if (out == null) {
                    out = new StringBuilder(s);
                }
                out.setCharAt(i, (char) (c - 32));
            }
        }
        return out == null ? s : out.toString();
    }

    /** {@code lower(text)} in the C locale: ASCII letters only, as PostgreSQL. */
    public static String lower(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (out == null) {
                    out = new StringBuilder(s);
                }
                out.setCharAt(i, (char) (c + 32));
            }
        }
        return out == null ? s : out.toString();
    }

    /**
     * {@code x::numeric(p,s)}: rounded half away from zero to {@code s} decimals; 22003 when the
     * rounded value needs more than {@code p - s} integer digits (Calcite truncates and never fails).
     */
    public static BigDecimal numericTypmod(BigDecimal x, int precision, int scale) {
        BigDecimal r = x.setScale(scale, java.math.RoundingMode.HALF_UP);
        int integerDigits = r.precision() - r.scale();
        if (r.signum() != 0 && integerDigits > precision - scale) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "numeric field overflow",
                    0,
                    "A field with precision " + precision + ", scale " + scale
                            + " must round to an absolute value less than 10^" + (precision - scale) + ".",
                    null,
                    null);
        }
        return r;
    }
}
