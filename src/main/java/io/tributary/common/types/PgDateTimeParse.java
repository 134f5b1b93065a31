package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.temporal.IsoFields;

/**
 * PostgreSQL's {@code to_date(text, text)} and {@code to_timestamp(text, text)}: the template's
 * keywords read fields from the text as PostgreSQL's non-FX mode reads them (spaces before a field
 * skipped; a number takes the keyword's width unless {@code FM} is given or a separator follows,
 * then as many digits as there are; a template separator matches one separator or none; other
 * template characters skip one input character; reading stops where the text ends), then the
 * date and time are built and range-checked. Errors: 22007 for text that does not fit the
 * template, 22008 for values out of range, 0A000 for BC years and fields PostgreSQL reads only in
 * {@code to_char}. Stateless apart from the template cache; any thread.
 */
public final class PgDateTimeParse {
    private static final String[] MONTHS = {
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december"
    };
    private static final String[] DAYS = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
    private static final String[] MONTHS_SHORT = shortened(MONTHS);
    private static final String[] DAYS_SHORT = shortened(DAYS);
    private static final String[] ROMAN = {"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"};
    private static final String[] MERIDIEM = {"am", "pm"};
    private static final String[] MERIDIEM_DOTTED = {"a.m.", "p.m."};
    private static final String[] ERA = {"ad", "bc"};
    private static final String[] ERA_DOTTED = {"a.d.", "b.c."};

    private PgDateTimeParse() {}

    /** Each name's first three letters, as {@code MON} and {@code DY} read them. */
    private static String[] shortened(String[] names) {
        String[] s = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            s[i] = names[i].substring(0, 3);
        }
        return s;
    }

    /**
     * What was read: {@code epochDay}, {@code micros} into the day, the offset east of Greenwich
     * when TZH/TZM gave one, and the n of an {@code FFn} (6 without one).
     */
    public record Result(long epochDay, long micros, boolean hasOffset, int offsetSeconds, int fractionDigits) {}

    /** The fields read so far, zero where none was (as PostgreSQL's). */
    private static final class Fields {
        int year;
        int yearDigits;
        int month;
        int day;
        int dayOfYear;
        int hour;
        boolean twelveHour;
        boolean pm;
        int minute;
        int second;
        int micros;
        /** The n of an {@code FFn} read, to which PostgreSQL rounds the result; 6 without one. */
        int fractionDigits = 6;

        int secondsOfDay;
        boolean secondsOfDaySet;
        int julian;
        int week;
        int isoWeek;
        int isoDay;
        int weekOfMonth;
        int century;
        boolean bc;
        boolean offset;
        int tzSign = 1;
        int tzHours;
        int tzMinutes;
    }

    /** Seconds since 1970-01-01 UTC as microseconds, rounded as PostgreSQL rounds them. */
    public static long epochSeconds(double seconds) {
        if (Double.isNaN(seconds)) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp cannot be NaN");
        }
        if (Double.isInfinite(seconds) || Math.abs(seconds) > 9.2e15) {
            throw new TributaryException(
                    SqlState.DATETIME_FIELD_OVERFLOW,
                    "timestamp out of range: \"" + PgTextFormat.formatDouble(seconds) + "\"");
        }
        return Math.round(seconds * 1_000_000.0);
    }

    /** Reads {@code text} with {@code template}; {@code dateOnly} for {@code to_date} (its error names date). */
    public static Result parse(String text, String template, boolean dateOnly) {
        FormatTemplate t = FormatTemplate.of(template, PgDateTimeFormat.KEYWORDS, true);
        Fields f = new Fields();
        int s = 0;
        int n = text.length();
        int extraSkip = 0;
        for (int i = 0; i < t.size() && s < n; i++) {
            int k = t.keyword[i];
            if (k < 0) {
                char c = t.literal[i].charAt(0);
                if (i == 0) {
                    while (s < n && Character.isWhitespace(text.charAt(s))) {
                        s++;
                        extraSkip++;
                    }
                    if (s >= n) {
                        break;
                    }
                }
                if (Character.isWhitespace(c) || isSeparator(c)) {
                    extraSkip--;
                    if (Character.isWhitespace(text.charAt(s)) || isSeparator(text.charAt(s))) {
                        s++;
                        extraSkip++;
                    }
                } else if (extraSkip > 0) {
                    extraSkip--;
                } else {
                    s += Character.charCount(text.codePointAt(s));
                }
                continue;
            }
            String word = PgDateTimeFormat.KEYWORDS.get(k);
            String upper = PgDateTimeFormat.FIELDS[k];
            if (upper.equals("FX")) {
                continue;
            }
            while (s < n && Character.isWhitespace(text.charAt(s))) {
                s++;
                extraSkip++;
            }
            if (s >= n) {
                break;
            }
            boolean fm = (t.modifiers[i] & FormatTemplate.FM) != 0;
            boolean slurp = fm || nextIsSeparator(t, i);
            Reader r = new Reader(text, s, word, slurp);
            switch (upper) {
                case "AM", "PM", "A.M.", "P.M." -> {
                    int v = r.word(upper.length() == 2 ? MERIDIEM : MERIDIEM_DOTTED);
                    f.pm = v == 1;
                    f.twelveHour = true;
                }
                case "AD", "BC", "A.D.", "B.C." -> {
                    int v = r.word(upper.length() == 2 ? ERA : ERA_DOTTED);
                    f.bc = v == 1;
                }
                case "HH", "HH12" -> {
                    f.hour = set(f.hour, r.number(2), word);
                    f.twelveHour = true;
                }
                case "HH24" -> f.hour = set(f.hour, r.number(2), word);
                case "MI" -> f.minute = set(f.minute, r.number(2), word);
                case "SS" -> f.second = set(f.second, r.number(2), word);
                case "MS" -> {
                    int v = r.number(3);
                    int used = r.used;
                    f.micros = set(f.micros, v * (used == 1 ? 100 : used == 2 ? 10 : 1) * 1000, word);
                }
                case "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6" -> {
                    int width = upper.equals("US") ? 6 : upper.charAt(2) - '0';
                    int v = r.number(width);
                    int scale = 1;
                    for (int d = r.used; d < 6; d++) {
                        scale *= 10;
                    }
                    f.micros = set(f.micros, v * scale, word);
                    if (!upper.equals("US")) {
                        f.fractionDigits = width;
                    }
                }
                case "SSSS", "SSSSS" -> {
                    f.secondsOfDay = set(f.secondsOfDay, r.number(upper.length()), word);
                    f.secondsOfDaySet = true;
                }
                case "TZ", "OF" ->
                    throw new TributaryException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "formatting field \"" + word + "\" is only supported in to_char");
                case "TZH" -> {
                    char c = text.charAt(s);
                    if (c == '+' || c == '-' || c == ' ') {
                        f.tzSign = c == '-' ? -1 : 1;
                        r = new Reader(text, s + 1, word, slurp);
                    } else {
                        f.tzSign = extraSkip > 0 && s > 0 && text.charAt(s - 1) == '-' ? -1 : 1;
                    }
                    f.tzHours = set(f.tzHours, r.number(2), word);
                    f.offset = true;
                }
                case "TZM" -> {
                    f.tzMinutes = set(f.tzMinutes, r.number(2), word);
                    f.offset = true;
                }
                case "MONTH", "MON" ->
                    f.month = set(f.month, r.word(upper.equals("MON") ? MONTHS_SHORT : MONTHS) + 1, word);
                case "MM" -> f.month = set(f.month, r.number(2), word);
                case "DAY", "DY" -> r.word(upper.equals("DY") ? DAYS_SHORT : DAYS);
                case "DDD", "IDDD" -> f.dayOfYear = set(f.dayOfYear, r.number(3), word);
                case "DD" -> f.day = set(f.day, r.number(2), word);
                case "D" -> r.number(1);
                case "ID" -> f.isoDay = set(f.isoDay, r.number(1), word);
                case "WW" -> f.week = set(f.week, r.number(2), word);
                case "IW" -> f.isoWeek = set(f.isoWeek, r.number(2), word);
                case "Q" -> r.number(1);
                case "CC" -> f.century = set(f.century, r.number(2), word);
                case "Y,YYY" -> {
                    int thousands = r.number(Integer.MAX_VALUE);
                    int at = r.at;
                    if (at >= n || text.charAt(at) != ',') {
                        throw new TributaryException(
                                SqlState.INVALID_DATETIME_FORMAT, "invalid input string for \"Y,YYY\"");
                    }
                    Reader rest = new Reader(text, at + 1, word, true);
                    int years = rest.number(3);
                    f.year = set(f.year, thousands * 1000 + years, word);
                    f.yearDigits = 4;
                    r = rest;
                }
                case "YYYY", "IYYY" -> {
                    f.year = set(f.year, r.number(4), word);
                    f.yearDigits = 4;
                }
                case "YYY", "IYY", "YY", "IY", "Y", "I" -> {
                    int digits = upper.startsWith("I") ? upper.length() : upper.length();
                    int v = r.number(digits);
                    f.year = set(f.year, r.used < 4 ? nearest2020(v) : v, word);
                    f.yearDigits = digits;
                }
                case "RM" -> f.month = set(f.month, 12 - r.word(ROMAN), word);
                case "W" -> f.weekOfMonth = set(f.weekOfMonth, r.number(1), word);
                case "J" -> f.julian = set(f.julian, r.number(1), word);
                default -> {
                    // FX handled above
                }
            }
            s = r.at;
            if ((t.modifiers[i] & (FormatTemplate.TH_UPPER | FormatTemplate.TH_LOWER)) != 0) {
                s = Math.min(n, s + 2);
            }
        }
        return build(f, text, dateOnly);
    }

    private static boolean isSeparator(char c) {
        return c < 128 && !Character.isLetterOrDigit(c) && !Character.isWhitespace(c);
    }

    /** Whether what follows node {@code i} cannot be a digit, so a number may take all its digits. */
    private static boolean nextIsSeparator(FormatTemplate t, int i) {
        if ((t.modifiers[i] & (FormatTemplate.TH_UPPER | FormatTemplate.TH_LOWER)) != 0) {
            return true;
        }
        if (i + 1 >= t.size()) {
            return true;
        }
        int k = t.keyword[i + 1];
        if (k >= 0) {
            return !isDigitField(PgDateTimeFormat.FIELDS[k]);
        }
        String lit = t.literal[i + 1];
        return !(lit.length() == 1 && Character.isDigit(lit.charAt(0)));
    }

    private static boolean isDigitField(String upper) {
        return switch (upper) {
            case "A.D.",
                    "A.M.",
                    "AD",
                    "AM",
                    "B.C.",
                    "BC",
                    "DAY",
                    "DY",
                    "FX",
                    "MONTH",
                    "MON",
                    "P.M.",
                    "PM",
                    "RM",
                    "TZ",
                    "OF" -> false;
            default -> true;
        };
    }

    /** PostgreSQL's reading of a year of fewer than four digits: the one nearest 2020. */
    private static int nearest2020(int year) {
        if (year < 70) {
            return year + 2000;
        } else if (year < 100) {
            return year + 1900;
        } else if (year < 520) {
            return year + 2000;
        } else if (year < 1000) {
            return year + 1000;
        }
        return year;
    }

    /** {@code value} for a field already holding {@code old} (0: none); a different value is 22007. */
    private static int set(int old, int value, String word) {
        if (old != 0 && old != value) {
            throw new TributaryException(
                    SqlState.INVALID_DATETIME_FORMAT,
                    "conflicting values for \"" + word + "\" field in formatting string");
        }
        return value;
    }

    /** Reads one field's value at a position of the text. */
    private static final class Reader {
        private final String text;
        private final String word;
        private final boolean slurp;
        int at;
        int used;

        Reader(String text, int at, String word, boolean slurp) {
            this.text = text;
            this.at = at;
            this.word = word;
            this.slurp = slurp;
        }

        /** An integer of {@code width} characters (all its digits when slurping). */
        int number(int width) {
            while (at < text.length() && text.charAt(at) == ' ') {
                at++;
            }
            int start = at;
            String copy = text.substring(start, (int) Math.min(text.length(), (long) start + width));
            int end;
            if (slurp) {
                end = integerEnd(text, start, text.length());
            } else {
                if (copy.length() < width) {
                    throw new TributaryException(
                            SqlState.INVALID_DATETIME_FORMAT,
                            "source string too short for \"" + word + "\" formatting field");
                }
                end = integerEnd(text, start, start + width);
                if (end > start && end - start < width) {
                    throw new TributaryException(
                            SqlState.INVALID_DATETIME_FORMAT, "invalid value \"" + copy + "\" for \"" + word + "\"");
                }
            }
            if (end == start) {
                throw new TributaryException(
                        SqlState.INVALID_DATETIME_FORMAT, "invalid value \"" + copy + "\" for \"" + word + "\"");
            }
            long value;
            try {
                value = Long.parseLong(text.substring(start, end).replace("+", ""));
            } catch (NumberFormatException e) {
                value = Long.MAX_VALUE;
            }
            if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
                throw new TributaryException(
                        SqlState.DATETIME_FIELD_OVERFLOW,
                        "value for \"" + word + "\" in source string is out of range");
            }
            used = end - start;
            at = end;
            return (int) value;
        }

        /** The index of the first of {@code names} the text starts with here, in any case. */
        int word(String[] names) {
            for (int i = 0; i < names.length; i++) {
                if (text.regionMatches(true, at, names[i], 0, names[i].length())) {
                    at += names[i].length();
                    return i;
                }
            }
            String rest = text.substring(at);
            throw new TributaryException(
                    SqlState.INVALID_DATETIME_FORMAT, "invalid value \"" + rest + "\" for \"" + word + "\"");
        }

        /** Where C's {@code strtol} stops reading an integer that starts at {@code start}, looking no further than {@code limit}. */
        private static int integerEnd(String text, int start, int limit) {
            int i = start;
            if (i < limit && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
                i++;
            }
            int digits = i;
            while (i < limit && Character.isDigit(text.charAt(i))) {
                i++;
            }
            return i == digits ? start : i;
        }
    }

    private static Result build(Fields f, String text, boolean dateOnly) {
        int hour = f.hour;
        int minute = f.minute;
        int second = f.second;
        if (f.secondsOfDaySet) {
            hour = f.secondsOfDay / 3600;
            minute = f.secondsOfDay % 3600 / 60;
            second = f.secondsOfDay % 60;
        }
        if (f.twelveHour) {
            if (hour < 1 || hour > 12) {
                throw new TributaryException(
                        SqlState.INVALID_DATETIME_FORMAT, "hour \"" + hour + "\" is invalid for the 12-hour clock");
            }
            if (f.pm && hour < 12) {
                hour += 12;
            } else if (!f.pm && hour == 12) {
                hour = 0;
            }
        }
        int year = f.year;
        if (f.century != 0 && (year == 0 || f.yearDigits <= 2)) {
            year = year == 0 ? (f.century - 1) * 100 + 1 : (f.century - 1) * 100 + year % 100;
        }
        if (f.bc || year <= 0 && f.julian == 0) {
            throw TributaryException.notSupported("dates before year 1 (BC)");
        }
        LocalDate date;
        try {
            if (f.julian != 0) {
                date = LocalDate.ofEpochDay(f.julian - 2_440_588L);
            } else if (f.isoWeek != 0) {
                date = LocalDate.of(year, 6, 1)
                        .with(IsoFields.WEEK_BASED_YEAR, year)
                        .with(IsoFields.WEEK_OF_WEEK_BASED_YEAR, f.isoWeek)
                        .with(java.time.temporal.ChronoField.DAY_OF_WEEK, f.isoDay == 0 ? 1 : f.isoDay);
            } else {
                int dayOfYear = f.dayOfYear != 0 ? f.dayOfYear : f.week != 0 ? (f.week - 1) * 7 + 1 : 0;
                int day = f.day != 0 ? f.day : f.weekOfMonth != 0 ? (f.weekOfMonth - 1) * 7 + 1 : 0;
                int month = f.month;
                if (dayOfYear != 0 && (month <= 1 || day <= 1) && f.month == 0 && f.day == 0) {
                    date = LocalDate.ofYearDay(year, dayOfYear);
                } else {
                    date = LocalDate.of(year, month == 0 ? 1 : month, day == 0 ? 1 : day);
                }
            }
        } catch (DateTimeException e) {
            throw new TributaryException(
                    SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"" + text + "\"");
        }
        if (hour < 0 || hour >= 24 || minute < 0 || minute >= 60 || second < 0 || second >= 60 || f.micros < 0) {
            throw new TributaryException(
                    SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"" + text + "\"");
        }
        long micros = ((hour * 60L + minute) * 60L + second) * 1_000_000L + f.micros;
        int offset = f.tzSign * (f.tzHours * 3600 + f.tzMinutes * 60);
        return new Result(date.toEpochDay(), dateOnly ? 0 : micros, f.offset && !dateOnly, offset, f.fractionDigits);
    }
}
