package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Locale;

/**
 * PostgreSQL's text input of date, time, timestamp and timestamptz (DateStyle ISO), for the forms
 * users write: ISO dates ({@code 2024-03-15}, one-digit month and day allowed) and the undivided
 * {@code 20240315}, a time after a space or {@code T} ({@code HH:MM[:SS[.f]]} or {@code
 * HHMMSS[.f]}), an offset ({@code Z}, {@code UTC}, {@code +02}, {@code -05:30}, {@code PST}; applied to a
 * timestamptz, ignored by the other types, as PostgreSQL does), {@code epoch}, and {@code now},
 * {@code today}, {@code tomorrow} and {@code yesterday} ({@link RelativeDateTimeInput}). A date reads the
 * date of a timestamp's text ({@code '2024-03-15 10:20:30'::date}), a time the time of it. Errors
 * are PostgreSQL's: 22007 {@code invalid input syntax for type ...} for text of another shape,
 * 22008 {@code date/time field value out of range} for a month, day, hour, minute or second past its
 * range (February 30th, {@code 25:00}), 22008 {@code date out of range} / {@code timestamp out of range} past
 * the type's range (a timestamp past what microseconds since 1970 hold, whose count would collide
 * with {@link InfiniteDateTimes}' encoding). {@code infinity}, {@code +infinity} and {@code -infinity}
 * are {@link InfiniteDateTimes}' values. Not read: month names, which stay 22007; {@code BC} dates,
 * which Tributary cannot hold, are 0A000. Called by {@link PgTextFormat} (DML, COPY, bind
 * parameters) and by the SQL front end for constants; stateless and thread-safe.
 */
public final class PgDateTimeInput {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
    private static final long NO_OFFSET = Long.MIN_VALUE;
    /** The epoch day of 5874897-12-31, PostgreSQL's last date. */
    private static final long MAX_DATE_DAY = LocalDate.of(5_874_897, 12, 31).toEpochDay();

    private PgDateTimeInput() {}

    /** The epoch day of date text {@code s}; a time after the date must be valid and is dropped. */
    public static int parseDate(String s) {
        String t = s.trim();
        if (t.equalsIgnoreCase("epoch")) {
            return 0;
        }
        Integer relative = RelativeDateTimeInput.date(t);
        if (relative != null) {
            return relative;
        }
        int infinite = InfiniteDateTimes.sign(t);
        if (infinite != 0) {
            return infinite > 0 ? InfiniteDateTimes.DATE_INFINITY : InfiniteDateTimes.DATE_MINUS_INFINITY;
        }
        refuseUnrepresentable(t);
        Fields f = new Fields(t, "date");
        long day = f.date();
        f.timeAndZone();
        if (day > MAX_DATE_DAY) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range: \"" + t + "\"");
        }
        return (int) day;
    }

    /**
     * BC dates, which Tributary's values (formatted as years from 1) cannot hold: 0A000 naming
     * them rather than the 22007 of text PostgreSQL would refuse too.
     */
    private static void refuseUnrepresentable(String t) {
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.endsWith(" bc") && lower.length() > 3 && Character.isDigit(lower.charAt(0))) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "dates before the year 1 (BC) are not supported");
        }
    }

    /** Microseconds of the day of time text {@code s}; a date before the time is read and dropped. */
    public static long parseTime(String s) {
        String t = s.trim();
        if (t.equalsIgnoreCase("allballs")) {
            return 0;
        }
        Fields f = new Fields(t, "time");
        if (f.startsWithDate()) {
            f.date();
            f.skipSeparator();
        }
        long micros = f.clock();
        f.zone();
        f.end();
        return micros;
    }

    /**
     * Timestamp text {@code s} as microseconds since 1970: the local time for a timestamp
     * ({@code withZone} false, an offset ignored), the instant for a timestamptz (an offset applied,
     * none meaning {@code zone}'s local time).
     */
    public static long parseTimestamp(String s, boolean withZone, PgTimeZone zone) {
        String t = s.trim();
        String typeName = withZone ? "timestamp with time zone" : "timestamp";
        if (t.equalsIgnoreCase("epoch")) {
            return 0;
        }
        Long relative = RelativeDateTimeInput.timestamp(t, withZone, zone);
        if (relative != null) {
            return relative;
        }
        int infinite = InfiniteDateTimes.sign(t);
        if (infinite != 0) {
            return infinite > 0 ? InfiniteDateTimes.TIMESTAMP_INFINITY : InfiniteDateTimes.TIMESTAMP_MINUS_INFINITY;
        }
        refuseUnrepresentable(t);
        Fields f = new Fields(t, typeName);
        long day = f.date();
        f.timeAndZone();
        try {
            // exact: a count past the long's range, or on an infinity's, is no timestamp
            long local = Math.addExact(Math.multiplyExact(day, MICROS_PER_DAY), f.micros);
            long value;
            if (!withZone) {
                value = local;
            } else if (f.namedZone != null) {
                value = f.namedZone.toInstant(local);
            } else {
                value = f.offsetSeconds == NO_OFFSET
                        ? zone.toInstant(local)
                        : Math.subtractExact(local, f.offsetSeconds * MICROS_PER_SECOND);
            }
            return InfiniteDateTimes.finite(value);
        } catch (ArithmeticException | TributaryException e) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"" + t + "\"");
        }
    }

    /** A cursor over one input text, throwing PostgreSQL's errors for {@code typeName}. */
    private static final class Fields {
        private final String text;
        private final String typeName;
        private int pos;
        /** The time of day read by {@link #timeAndZone}. */
        long micros;
        /** The offset read by {@link #timeAndZone}, seconds east of UTC, or {@link #NO_OFFSET}. */
        long offsetSeconds = NO_OFFSET;
        /**
         * The zone named by {@link #timeAndZone} whose offset depends on the time ({@code
         * America/New_York}, the abbreviation {@code MSK}); or null.
         */
        PgZone namedZone;

        Fields(String text, String typeName) {
            this.text = text;
            this.typeName = typeName;
        }

        boolean startsWithDate() {
            int digits = digitsFrom(0);
            return digits == 8 || digits >= 4 && digits < text.length() && text.charAt(digits) == '-';
        }

        /** Reads {@code Y-M-D} or {@code YYYYMMDD}; returns its epoch day. */
        long date() {
            int yearDigits = digitsFrom(pos);
            int year;
            int month;
            int day;
            if (yearDigits == 8) {
                year = Integer.parseInt(text, pos, pos + 4, 10);
                month = Integer.parseInt(text, pos + 4, pos + 6, 10);
                day = Integer.parseInt(text, pos + 6, pos + 8, 10);
                pos += 8;
            } else {
                if (yearDigits < 1 || yearDigits > 7) {
                    throw syntax();
                }
                year = Integer.parseInt(text, pos, pos + yearDigits, 10);
                pos += yearDigits;
                month = dashNumber();
                day = dashNumber();
            }
            if (year == 0 || month < 1 || month > 12 || day < 1) {
                throw outOfRange();
            }
            try {
                return LocalDate.of(year, month, day).toEpochDay();
            } catch (DateTimeException e) {
                throw outOfRange();
            }
        }

        /** After a date: nothing, or a time and offset, kept in {@link #micros} and {@link #offsetSeconds}. */
        void timeAndZone() {
            if (pos == text.length()) {
                return;
            }
            skipSeparator();
            micros = pos < text.length() && Character.isDigit(text.charAt(pos)) ? clock() : 0;
            offsetSeconds = zone();
            end();
        }

        void skipSeparator() {
            int start = pos;
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            if (pos < text.length() && (text.charAt(pos) == 'T' || text.charAt(pos) == 't') && pos == start) {
                pos++;
            } else if (pos == start) {
                throw syntax();
            }
        }

        /** Reads {@code H[H]:MM[:SS[.f]]} or {@code HHMMSS[.f]}; returns microseconds of the day. */
        long clock() {
            int digits = digitsFrom(pos);
            int hour;
            int minute;
            int second = 0;
            if (digits == 6) {
                hour = Integer.parseInt(text, pos, pos + 2, 10);
                minute = Integer.parseInt(text, pos + 2, pos + 4, 10);
                second = Integer.parseInt(text, pos + 4, pos + 6, 10);
                pos += 6;
            } else {
                if (digits < 1 || digits > 2 || pos + digits >= text.length() || text.charAt(pos + digits) != ':') {
                    throw syntax();
                }
                hour = Integer.parseInt(text, pos, pos + digits, 10);
                pos += digits;
                minute = colonNumber();
                if (pos < text.length() && text.charAt(pos) == ':') {
                    second = colonNumber();
                }
            }
            long fraction = 0;
            if (pos < text.length() && text.charAt(pos) == '.') {
                int n = digitsFrom(pos + 1);
                if (n == 0) {
                    throw syntax();
                }
                // rounded half to even to microseconds, as PostgreSQL's rint
                java.math.BigDecimal f = new java.math.BigDecimal("0." + text.substring(pos + 1, pos + 1 + n));
                fraction = f.movePointRight(6)
                        .setScale(0, java.math.RoundingMode.HALF_EVEN)
                        .longValueExact();
                pos += 1 + n;
            }
            if (hour > 24 || minute > 59 || second > 60 || hour == 24 && (minute > 0 || second > 0 || fraction > 0)) {
                throw outOfRange();
            }
            return (hour * 3600L + minute * 60L + second) * MICROS_PER_SECOND + fraction;
        }

        /**
         * An optional offset: {@code Z}, {@code UTC}, {@code ±H[H][:MM]}; its seconds east, or {@link
         * #NO_OFFSET} for none, for an abbreviation ({@code PST}, {@link ZoneAbbreviations}) and for a
         * zone name with a slash ({@code Europe/Paris}, any case), which are kept in {@link
         * #namedZone} instead.
         *
         * @throws TributaryException 22023 {@code time zone "x" not recognized} for a name PostgreSQL's
         *     tzdata lacks, as PostgreSQL reports it (lower case)
         */
        long zone() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            if (pos == text.length()) {
                return NO_OFFSET;
            }
            String rest = text.substring(pos).toLowerCase(Locale.ROOT);
            if (rest.equals("z") || rest.equals("utc") || rest.equals("gmt")) {
                pos = text.length();
                return 0;
            }
            if (Character.isLetter(text.charAt(pos)) && rest.indexOf('/') > 0) {
                namedZone = namedZone(rest);
                pos = text.length();
                return NO_OFFSET;
            }
            if (rest.chars().allMatch(Character::isLetter)) {
                ZoneAbbreviation abbreviation = ZoneAbbreviations.find(rest);
                if (abbreviation == null) {
                    throw syntax();
                }
                namedZone = abbreviation;
                pos = text.length();
                return NO_OFFSET;
            }
            char sign = text.charAt(pos);
            if (sign != '+' && sign != '-') {
                throw syntax();
            }
            pos++;
            int digits = digitsFrom(pos);
            int hours;
            int minutes = 0;
            if (digits == 4) {
                hours = Integer.parseInt(text, pos, pos + 2, 10);
                minutes = Integer.parseInt(text, pos + 2, pos + 4, 10);
                pos += 4;
            } else if (digits == 1 || digits == 2) {
                hours = Integer.parseInt(text, pos, pos + digits, 10);
                pos += digits;
                if (pos < text.length() && text.charAt(pos) == ':') {
                    minutes = colonNumber();
                }
            } else {
                throw syntax();
            }
            if (hours > 15 * 24 || minutes > 59) {
                throw outOfRange();
            }
            long seconds = hours * 3600L + minutes * 60L;
            return sign == '-' ? -seconds : seconds;
        }

        private static PgTimeZone namedZone(String lowerCaseName) {
            try {
                return PgTimeZone.parse(lowerCaseName);
            } catch (TributaryException unknown) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "time zone \"" + lowerCaseName + "\" not recognized");
            }
        }

        void end() {
            if (pos != text.length()) {
                throw syntax();
            }
        }

        private int dashNumber() {
            return separatedNumber('-');
        }

        private int colonNumber() {
            return separatedNumber(':');
        }

        private int separatedNumber(char separator) {
            if (pos >= text.length() || text.charAt(pos) != separator) {
                throw syntax();
            }
            int digits = digitsFrom(pos + 1);
            if (digits < 1 || digits > 2) {
                throw syntax();
            }
            int v = Integer.parseInt(text, pos + 1, pos + 1 + digits, 10);
            pos += 1 + digits;
            return v;
        }

        private int digitsFrom(int from) {
            int i = from;
            while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                i++;
            }
            return i - from;
        }

        private TributaryException syntax() {
            return new TributaryException(
                    SqlState.INVALID_DATETIME_FORMAT,
                    "invalid input syntax for type " + typeName + ": \"" + text + "\"");
        }

        private TributaryException outOfRange() {
            return new TributaryException(
                    SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"" + text + "\"");
        }
    }
}
