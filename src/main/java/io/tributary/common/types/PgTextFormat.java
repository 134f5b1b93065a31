package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Locale;

/**
 * PostgreSQL's text input and output formats for every {@link TypeKind}, so that what a client reads
 * from Tributary is byte for byte what PostgreSQL prints for the same value (DateStyle ISO, TimeZone
 * UTC, IntervalStyle postgres, bytea_output hex); {@link PgTimeZone} prints and reads timestamptz
 * in another session zone. Stateless and thread-safe.
 */
public final class PgTextFormat {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PgTextFormat() {}

    /** Formats a canonical value; returns null for SQL NULL. */
    public static String format(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> ((Boolean) value) ? "t" : "f";
            case SMALLINT, INTEGER, BIGINT -> value.toString();
            case REAL -> formatFloat(((Number) value).floatValue());
            case DOUBLE -> formatDouble(((Number) value).doubleValue());
            case NUMERIC -> ((BigDecimal) value).toPlainString();
            case VARCHAR, TEXT, BPCHAR -> (String) value;
            case ARRAY -> PgArrayLiteral.format(type.element(), (java.util.List<?>) value, PgTimeZone.UTC);
            case DATE -> formatDate((Integer) value);
            case TIME -> formatTime((Long) value);
            case TIMESTAMP -> formatTimestamp((Long) value);
            case TIMESTAMPTZ ->
                InfiniteDateTimes.isFinite((Long) value)
                        ? formatTimestamp((Long) value) + "+00"
                        : formatTimestamp((Long) value);
            case INTERVAL -> formatInterval((Interval) value);
            case BYTEA -> formatBytea((byte[]) value);
            case UUID -> PgUuidText.format((java.util.UUID) value);
            case JSON, JSONB -> value.toString();
        };
    }

    public static String formatDouble(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        String java = Double.toString(v);
        return formatShortest(shorter(java, v, Math.nextDown(v), Math.nextUp(v), c -> Double.parseDouble(c) == v), 15);
    }

    public static String formatFloat(float v) {
        if (Float.isNaN(v)) {
            return "NaN";
        }
        if (Float.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        String java = Float.toString(v);
        return formatShortest(shorter(java, v, Math.nextDown(v), Math.nextUp(v), c -> Float.parseFloat(c) == v), 6);
    }

    /**
     * Java 17's {@code toString} of a float or double round-trips but is not always the shortest
     * text that does ({@code 2.14748365E9} for the float PostgreSQL prints {@code 2.1474836e+09}):
     * while the exact value rounded to one digit fewer still reads back as the same value, that
     * one is used. The first try fails for almost every value, so this costs one rounding. As in
     * PostgreSQL's shortest-digits algorithm, a text exactly halfway to a neighbouring value does
     * not count, although reading it back rounds to this value ({@code 1e23} prints as
     * {@code 9.999999999999999e+22}).
     *
     * @param below the next value down, {@code above} the next one up; an infinite one (past the
     *     largest value) stands as far from {@code value} as the other neighbour
     */
    private static String shorter(
            String javaRepr,
            double value,
            double below,
            double above,
            java.util.function.Predicate<String> roundTrips) {
        if (value == 0) {
            return javaRepr;
        }
        BigDecimal exact = new BigDecimal(value);
        BigDecimal down = Double.isInfinite(below)
                ? exact.multiply(BigDecimal.valueOf(2)).subtract(new BigDecimal(above))
                : new BigDecimal(below);
        BigDecimal up =
                Double.isInfinite(above) ? exact.multiply(BigDecimal.valueOf(2)).subtract(down) : new BigDecimal(above);
        BigDecimal low = exact.add(down).divide(BigDecimal.valueOf(2));
        BigDecimal high = exact.add(up).divide(BigDecimal.valueOf(2));
        String best = javaRepr;
        int digits = new BigDecimal(javaRepr).stripTrailingZeros().precision();
        while (digits > 1) {
            String candidate = exact.round(new java.math.MathContext(digits - 1, java.math.RoundingMode.HALF_EVEN))
                    .toString();
            BigDecimal decimal = new BigDecimal(candidate);
            if (!roundTrips.test(candidate) || decimal.compareTo(low) <= 0 || decimal.compareTo(high) >= 0) {
                break;
            }
            best = candidate;
            digits--;
        }
        return best;
    }

    /** Rewrites Java's shortest round-trip digits in PostgreSQL's layout (fixed or d.ddde+XX). */
    private static String formatShortest(String javaRepr, int maxFixedExponent) {
        BigDecimal d = new BigDecimal(javaRepr);
        if (d.signum() == 0) {
            return javaRepr.startsWith("-") ? "-0" : "0";
        }
        d = d.stripTrailingZeros();
        String digits = d.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - d.scale();
        String sign = d.signum() < 0 ? "-" : "";
        if (exponent < -4 || exponent >= maxFixedExponent) {
            StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            sb.append('e').append(exponent < 0 ? '-' : '+');
            int abs = Math.abs(exponent);
            if (abs < 10) {
                sb.append('0');
            }
            return sb.append(abs).toString();
        }
        return sign + d.abs().toPlainString();
    }

    /** PostgreSQL's text of a date (DateStyle ISO); {@code infinity} and {@code -infinity} for those. */
    public static String formatDate(int epochDay) {
        if (!InfiniteDateTimes.isFiniteDate(epochDay)) {
            return InfiniteDateTimes.text(epochDay > 0);
        }
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        int year = date.getYear();
        StringBuilder sb = new StringBuilder(10);
        if (year <= 0) {
            pad(sb, 1 - year, 4);
        } else {
            pad(sb, year, 4);
        }
        sb.append('-');
        pad(sb, date.getMonthValue(), 2);
        sb.append('-');
        pad(sb, date.getDayOfMonth(), 2);
        if (year <= 0) {
            sb.append(" BC");
        }
        return sb.toString();
    }

    public static String formatTime(long microsOfDay) {
        StringBuilder sb = new StringBuilder(15);
        appendClock(sb, microsOfDay);
        return sb.toString();
    }

    /** PostgreSQL's text of a timestamp (DateStyle ISO); {@code infinity} and {@code -infinity} for those. */
    public static String formatTimestamp(long micros) {
        if (!InfiniteDateTimes.isFinite(micros)) {
            return InfiniteDateTimes.text(micros > 0);
        }
        long day = Math.floorDiv(micros, MICROS_PER_DAY);
        long rest = Math.floorMod(micros, MICROS_PER_DAY);
        String date = formatDate((int) day);
        StringBuilder sb = new StringBuilder(26);
        if (date.endsWith(" BC")) {
            sb.append(date, 0, date.length() - 3).append(' ');
            appendClock(sb, rest);
            return sb.append(" BC").toString();
        }
        sb.append(date).append(' ');
        appendClock(sb, rest);
        return sb.toString();
    }

    private static void appendClock(StringBuilder sb, long micros) {
        long secs = micros / MICROS_PER_SECOND;
        int frac = (int) (micros % MICROS_PER_SECOND);
        pad(sb, (int) (secs / 3600), 2);
        sb.append(':');
        pad(sb, (int) (secs / 60 % 60), 2);
        sb.append(':');
        pad(sb, (int) (secs % 60), 2);
        appendFraction(sb, frac);
    }

    private static void appendFraction(StringBuilder sb, int frac) {
        if (frac == 0) {
            return;
        }
        String f = Integer.toString(frac + 1_000_000).substring(1);
        int end = f.length();
        while (f.charAt(end - 1) == '0') {
            end--;
        }
        sb.append('.').append(f, 0, end);
    }

    private static void pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }

    /**
     * IntervalStyle {@code postgres}: {@code 1 year 2 mons 3 days 04:05:06.5}; units are plural
     * unless exactly 1, and after a negative field positive ones carry a {@code +}.
     */
    public static String formatInterval(Interval iv) {
        StringBuilder sb = new StringBuilder();
        boolean negativeSeen = appendUnit(sb, iv.months() / 12, "year", false);
        negativeSeen = appendUnit(sb, iv.months() % 12, "mon", negativeSeen);
        negativeSeen = appendUnit(sb, iv.days(), "day", negativeSeen);
        long micros = iv.micros();
        if (micros != 0 || sb.length() == 0) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            long abs = Math.abs(micros);
            if (micros < 0) {
                sb.append('-');
            } else if (negativeSeen) {
                sb.append('+');
            }
            long secs = abs / MICROS_PER_SECOND;
            pad(sb, secs / 3600, 2);
            sb.append(':');
            pad(sb, secs / 60 % 60, 2);
            sb.append(':');
            pad(sb, secs % 60, 2);
            appendFraction(sb, (int) (abs % MICROS_PER_SECOND));
        }
        return sb.toString();
    }

    /** Appends a non-zero field; returns whether a negative field has been printed so far. */
    private static boolean appendUnit(StringBuilder sb, int n, String unit, boolean negativeSeen) {
        if (n == 0) {
            return negativeSeen;
        }
        if (sb.length() > 0) {
            sb.append(' ');
        }
        if (n > 0 && negativeSeen) {
            sb.append('+');
        }
        sb.append(n).append(' ').append(unit);
        if (n != 1) {
            sb.append('s');
        }
        // PostgreSQL marks a positive field with + only right after a negative one
        return n < 0;
    }

    public static String formatBytea(byte[] bytes) {
        StringBuilder sb = new StringBuilder(2 + bytes.length * 2).append("\\x");
        for (byte b : bytes) {
            sb.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
        return sb.toString();
    }

    /**
     * {@link #parse(DataType, String)} of the UTF-8 text {@code text[from, from + length)}. Plain
     * integers ({@code -?[0-9]+} within the type's range) and plain decimals of up to 15 digits
     * into floating-point types are read from the bytes directly, the common case of a bulk load;
     * anything else goes through the String form, with its exact
     * results and errors.
     */
    public static Object parse(DataType type, byte[] text, int from, int length) {
        TypeKind kind = type.kind();
        if ((kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.SMALLINT)
                && length > 0
                && length <= 18) {
            boolean negative = text[from] == '-';
            int i = negative ? from + 1 : from;
            int end = from + length;
            long v = 0;
            boolean digits = i < end;
            for (; i < end && digits; i++) {
                int d = text[i] - '0';
                digits = d >= 0 && d <= 9;
                v = v * 10 + d;
            }
            if (digits) {
                v = negative ? -v : v;
                switch (kind) {
                    case BIGINT:
                        return v;
                    case INTEGER:
                        if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                            return (int) v;
                        }
                        break;
                    default:
                        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
                            return (short) v;
                        }
                        break;
                }
            }
        }
        if (kind == TypeKind.DOUBLE || kind == TypeKind.REAL) {
            double d = plainDecimal(text, from, length);
            if (!Double.isNaN(d)) {
                return kind == TypeKind.DOUBLE ? (Object) d : (Object) (float) d;
            }
        }
        return parse(type, new String(text, from, length, StandardCharsets.UTF_8));
    }

    /** Exact powers of ten as doubles: 10^22 is the last one a double holds exactly. */
    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
    };

    /**
     * The value of {@code -?[0-9]+(\.[0-9]+)?} with at most 15 digits, or NaN for any other text.
     * The digits make an integer below 2^53 and the divisor is an exact power of ten, so one IEEE
     * division rounds once, to the double nearest the decimal: {@link Double#parseDouble}'s result
     * (Clinger's fast path). A bulk load's doubles are read without a String this way.
     */
    private static double plainDecimal(byte[] text, int from, int length) {
        int end = from + length;
        int i = from;
        boolean negative = i < end && text[i] == '-';
        if (negative) {
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int fraction = -1;
        for (; i < end; i++) {
            int c = text[i];
            if (c == '.' && fraction < 0 && digits > 0) {
                fraction = 0;
                continue;
            }
            int d = c - '0';
            if (d < 0 || d > 9 || ++digits > 15) {
                return Double.NaN;
            }
            mantissa = mantissa * 10 + d;
            if (fraction >= 0) {
                fraction++;
            }
        }
        if (digits == 0 || fraction == 0) {
            return Double.NaN;
        }
        double v = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction] : mantissa;
        return negative ? -v : v;
    }

    /**
     * Parses PostgreSQL text input into the canonical value for {@code type}, applying the type's
     * modifiers (NUMERIC scale rounding, VARCHAR length check).
     *
     * @throws TributaryException 22P02 for malformed input, 22003 for out-of-range numbers, 22001 for
     *     too-long strings, 22007/22008 for bad dates and times
     */
    public static Object parse(DataType type, String text) {
        if (text == null) {
            return null;
        }
        String s = text.trim();
        try {
            return switch (type.kind()) {
                case BOOLEAN -> parseBoolean(s);
                case SMALLINT -> (short) parseIntegral(s, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
                case INTEGER -> (int) parseIntegral(s, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
                case BIGINT -> parseIntegral(s, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
                case REAL -> (float) parseDouble(s, "real");
                case DOUBLE -> parseDouble(s, "double precision");
                case NUMERIC -> Values.fitNumeric(parseNumeric(s), type);
                case VARCHAR, TEXT, BPCHAR -> Values.fitString(text, type);
                case ARRAY -> PgArrayLiteral.parse(type.element(), text, PgTimeZone.UTC);
                case DATE -> PgDateTimeInput.parseDate(s);
                case TIME -> Values.fitDateTime(PgDateTimeInput.parseTime(s), type);
                case TIMESTAMP -> Values.fitDateTime(PgDateTimeInput.parseTimestamp(s, false, PgTimeZone.UTC), type);
                case TIMESTAMPTZ -> Values.fitDateTime(PgDateTimeInput.parseTimestamp(s, true, PgTimeZone.UTC), type);
                case INTERVAL -> IntervalParser.parse(s);
                case BYTEA -> parseBytea(text);
                case UUID -> PgUuidText.parse(text);
                case JSON -> PgJsonText.json(text);
                case JSONB -> PgJsonText.jsonb(text);
            };
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw invalid(
                    type.kind() == TypeKind.ARRAY ? type.sqlName() : type.kind().pgName(), text);
        }
    }

    static TributaryException invalid(String typeName, String text) {
        return new TributaryException(
                SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + typeName + ": \"" + text + "\"");
    }

    /**
     * PostgreSQL's boolean input: surrounding whitespace ignored, any prefix of {@code true},
     * {@code false}, {@code yes}, {@code no}, {@code on} or {@code off} that tells them apart (so
     * not {@code o}), and {@code 1} or {@code 0}; any case.
     */
    private static Boolean parseBoolean(String s) {
        String v = s.strip().toLowerCase(Locale.ROOT);
        if (!v.isEmpty()) {
            if ("true".startsWith(v) || "yes".startsWith(v) || v.equals("1") || v.length() >= 2 && v.equals("on")) {
                return Boolean.TRUE;
            }
            if ("false".startsWith(v)
                    || "no".startsWith(v)
                    || v.equals("0")
                    || v.length() >= 2 && "off".startsWith(v)) {
                return Boolean.FALSE;
            }
        }
        throw invalid("boolean", s);
    }

    private static long parseIntegral(String s, long min, long max, String typeName) {
        if (!s.isEmpty() && s.length() < 19 && s.charAt(0) != '+') {
            // the common case; BigInteger below only for signs, huge numbers and errors
            try {
                long v = Long.parseLong(s);
                if (v >= min && v <= max) {
                    return v;
                }
            } catch (NumberFormatException e) {
                throw invalid(typeName, s);
            }
        }
        BigInteger v;
        try {
            v = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
        } catch (NumberFormatException e) {
            throw invalid(typeName, s);
        }
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"" + s + "\" is out of range for type " + typeName);
        }
        return v.longValue();
    }

    private static double parseDouble(String s, String typeName) {
        // the special names all end in a letter: a number skips lower-casing its text
        boolean name = !s.isEmpty() && Character.isLetter(s.charAt(s.length() - 1));
        switch (name ? s.toLowerCase(Locale.ROOT) : "") {
            case "nan":
                return Double.NaN;
            case "infinity", "+infinity", "inf", "+inf":
                return Double.POSITIVE_INFINITY;
            case "-infinity", "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        if (s.isEmpty() || !Character.isDigit(s.charAt(s.length() - 1)) && s.charAt(s.length() - 1) != '.') {
            throw invalid(typeName, s);
        }
        double d;
        try {
            // a real straight from the text: through a double it would be rounded twice
            d = typeName.equals("real") ? Float.parseFloat(s) : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw invalid(typeName, s);
        }
        // beyond the range either way: overflow, or digits that underflow to zero
        if (Double.isInfinite(d) || d == 0 && nonZeroMantissa(s)) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"" + s + "\" is out of range for type " + typeName);
        }
        return d;
    }

    /** Whether a number's digits before its exponent are not all zero. */
    private static boolean nonZeroMantissa(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 'e' || c == 'E') {
                return false;
            }
            if (c >= '1' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    private static BigDecimal parseNumeric(String s) {
        if (s.isEmpty() || !Character.isDigit(s.charAt(s.length() - 1)) && s.charAt(s.length() - 1) != '.') {
            throw invalid("numeric", s);
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw invalid("numeric", s);
        }
    }

    /** PostgreSQL's date input ({@link PgDateTimeInput#parseDate}). */
    public static int parseDate(String s) {
        return PgDateTimeInput.parseDate(s);
    }

    /** PostgreSQL's time input ({@link PgDateTimeInput#parseTime}); an offset is ignored, as PostgreSQL's time input does. */
    public static long parseTime(String input) {
        return PgDateTimeInput.parseTime(input);
    }

    /** PostgreSQL's timestamp input; an offset is applied for TIMESTAMPTZ, none meaning UTC. */
    public static long parseTimestamp(String s, boolean withZone) {
        return PgDateTimeInput.parseTimestamp(s, withZone, PgTimeZone.UTC);
    }

    /**
     * Reads timestamptz text as PostgreSQL does in a session whose TimeZone is {@code zone}: an
     * offset in the text is applied, a time without one is that zone's local time.
     *
     * @throws TributaryException 22007 for text that is no timestamp, 22008 for a field out of range
     */
    public static long parseTimestamptz(String text, PgTimeZone zone) {
        return PgDateTimeInput.parseTimestamp(text, true, zone);
    }

    /** Parses bytea input in hex ({@code \x0a0b}) or escape format. */
    public static byte[] parseBytea(String s) {
        if (s.startsWith("\\x")) {
            String hex = s.substring(2);
            if (hex.length() % 2 != 0) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits");
            }
            byte[] out = new byte[hex.length() / 2];
            for (int i = 0; i < out.length; i++) {
                int hi = Character.digit(hex.charAt(2 * i), 16);
                int lo = Character.digit(hex.charAt(2 * i + 1), 16);
                if (hi < 0 || lo < 0) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid hexadecimal digit: \"" + hex.charAt(hi < 0 ? 2 * i : 2 * i + 1) + "\"");
                }
                out[i] = (byte) (hi << 4 | lo);
            }
            return out;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '\\') {
                out.write(raw[i]);
            } else if (i + 1 < raw.length && raw[i + 1] == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < raw.length && isOctalByte(raw[i + 1], raw[i + 2], raw[i + 3])) {
                out.write((raw[i + 1] - '0') << 6 | (raw[i + 2] - '0') << 3 | (raw[i + 3] - '0'));
                i += 3;
            } else {
                throw invalid("bytea", s);
            }
        }
        return out.toByteArray();
    }

    /** Whether three characters are an escape-format byte: {@code [0-3][0-7][0-7]}, as PostgreSQL accepts. */
    private static boolean isOctalByte(byte a, byte b, byte c) {
        return a >= '0' && a <= '3' && b >= '0' && b <= '7' && c >= '0' && c <= '7';
    }
}
