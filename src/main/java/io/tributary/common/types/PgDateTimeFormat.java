package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's {@code to_char} of a timestamp, timestamptz, date or interval: each keyword of the
 * template (see PostgreSQL's table of date/time formatting patterns) is replaced by the field it
 * names, with PostgreSQL's widths, padding, {@code FM} (no padding), {@code TH}/{@code th}
 * (ordinal suffix) and {@code TM} (names not padded; the C locale's names); other characters are
 * copied. Called by the code Calcite generates for {@code to_char} on the thread evaluating the
 * expression; stateless apart from the template cache of {@link FormatTemplate}.
 */
public final class PgDateTimeFormat {
    /** The keywords, upper, capitalized and lower case spellings apart where PostgreSQL's output differs. */
    static final List<String> KEYWORDS = List.of(
            "A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D", "FF1", "FF2",
            "FF3", "FF4", "FF5", "FF6", "FX", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY", "IYY", "IY", "I", "J",
            "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF", "P.M.", "PM", "Q", "RM", "SSSSS", "SSSS", "SS",
            "TZH", "TZM", "TZ", "US", "WW", "W", "Y,YYY", "YYYY", "YYY", "YY", "Y", "a.d.", "a.m.", "ad", "am", "b.c.",
            "bc", "cc", "day", "ddd", "dd", "dy", "d", "ff1", "ff2", "ff3", "ff4", "ff5", "ff6", "fx", "hh24", "hh12",
            "hh", "iddd", "id", "iw", "iyyy", "iyy", "iy", "i", "j", "mi", "mm", "month", "mon", "ms", "of", "p.m.",
            "pm", "q", "rm", "sssss", "ssss", "ss", "tz", "tzh", "tzm", "us", "ww", "w", "y,yyy", "yyyy", "yyy", "yy",
            "y");

    /** {@link #KEYWORDS} in upper case, by the same index: the field each spelling names. */
    static final String[] FIELDS =
            KEYWORDS.stream().map(k -> k.toUpperCase(Locale.ROOT)).toArray(String[]::new);

    private static final int TZ_UPPER = KEYWORDS.indexOf("TZ");
    private static final int TZ_LOWER = KEYWORDS.indexOf("tz");

    private static final String[] MONTHS = {
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December"
    };
    private static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    private static final String[] ROMAN = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
    private static final long MICROS_PER_HOUR = 3_600_000_000L;

    private PgDateTimeFormat() {}

    /**
     * {@code to_char} of a local date and time: {@code epochDay} days after 1970-01-01, {@code
     * micros} microseconds into the day; {@code zone} is the abbreviation TZ prints (null for a
     * timestamp without time zone, which prints none) and {@code offsetSeconds} the offset east of
     * Greenwich OF, TZH and TZM print. Null for an empty template.
     */
    public static String dateTime(long epochDay, long micros, String zone, int offsetSeconds, String template) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        Fields f = new Fields();
        f.year = date.getYear();
        f.month = date.getMonthValue();
        f.day = date.getDayOfMonth();
        f.hour = micros / MICROS_PER_HOUR;
        f.minute = (int) (micros / 60_000_000L % 60);
        f.second = (int) (micros / 1_000_000L % 60);
        f.fraction = (int) (micros % 1_000_000L);
        f.weekday = date.getDayOfWeek().getValue() % 7;
        f.yearDay = date.getDayOfYear();
        f.date = date;
        f.zone = zone;
        f.offset = offsetSeconds;
        return format(f, template);
    }

    /**
     * Whether {@code template} prints a zone's abbreviation ({@code TZ}, {@code tz}), so a caller
     * computes it only then.
     */
    public static boolean printsZoneName(String template) {
        FormatTemplate t = FormatTemplate.of(template, KEYWORDS, true);
        for (int k : t.keyword) {
            if (k == TZ_UPPER || k == TZ_LOWER) {
                return true;
            }
        }
        return false;
    }

    /** {@code to_char} of an interval: its months as years and months, its days, its time as hours past 24. */
    public static String interval(Interval iv, String template) {
        Fields f = new Fields();
        f.interval = true;
        f.year = iv.months() / 12;
        f.month = iv.months() % 12;
        f.day = iv.days();
        long micros = iv.micros();
        f.hour = micros / MICROS_PER_HOUR;
        f.minute = (int) (micros / 60_000_000L % 60);
        f.second = (int) (micros / 1_000_000L % 60);
        f.fraction = (int) (micros % 1_000_000L);
        f.yearDay = (f.year * 12 + f.month) * 30 + f.day;
        // the week-based fields and J read the fields as a date, as PostgreSQL's calendar arithmetic does
        f.date = LocalDate.ofEpochDay(julianDay(f.year, f.month, f.day) - 2_440_588L);
        f.weekday = f.date.getDayOfWeek().getValue() % 7;
        return format(f, template);
    }

    /** The fields of the value being formatted, as PostgreSQL's broken-down time holds them. */
    private static final class Fields {
        boolean interval;
        int year;
        int month;
        int day;
        long hour;
        int minute;
        int second;
        int fraction;
        int weekday;
        int yearDay;
        LocalDate date;
        String zone;
        int offset;
    }

    /** The formatted text; null for an empty template, as PostgreSQL's {@code datetime_to_char} answers. */
    private static String format(Fields f, String template) {
        if (template.isEmpty()) {
            return null;
        }
        FormatTemplate t = FormatTemplate.of(template, KEYWORDS, true);
        StringBuilder out = new StringBuilder(template.length() + 16);
        for (int i = 0; i < t.size(); i++) {
            int k = t.keyword[i];
            if (k < 0) {
                out.append(t.literal[i]);
                continue;
            }
            int mods = t.modifiers[i];
            int start = out.length();
            boolean numeric = field(out, KEYWORDS.get(k), FIELDS[k], f, mods);
            if (numeric && (mods & (FormatTemplate.TH_UPPER | FormatTemplate.TH_LOWER)) != 0) {
                FormatTemplate.appendOrdinal(out, start, (mods & FormatTemplate.TH_UPPER) != 0);
            }
        }
        return out.toString();
    }

    /** Appends keyword {@code word}'s field ({@code upper}: its upper case); returns whether it is a number (takes TH). */
    private static boolean field(StringBuilder out, String word, String upper, Fields f, int mods) {
        boolean fm = (mods & FormatTemplate.FM) != 0;
        boolean tm = (mods & FormatTemplate.TM) != 0;
        switch (upper) {
            case "A.M.", "P.M." -> out.append(cased(f.hour % 24 >= 12 ? "P.M." : "A.M.", word));
            case "AM", "PM" -> out.append(cased(f.hour % 24 >= 12 ? "PM" : "AM", word));
            case "A.D.", "B.C." -> {
                noInterval(f);
                out.append(cased(f.year <= 0 ? "B.C." : "A.D.", word));
            }
            case "AD", "BC" -> {
                noInterval(f);
                out.append(cased(f.year <= 0 ? "BC" : "AD", word));
            }
            case "HH", "HH12" -> {
                long h = f.hour % 12 == 0 ? 12 : f.hour % 12;
                pad(out, h, fm ? 0 : h >= 0 ? 2 : 3);
                return true;
            }
            case "HH24" -> {
                pad(out, f.hour, fm ? 0 : f.hour >= 0 ? 2 : 3);
                return true;
            }
            case "MI" -> {
                pad(out, f.minute, fm ? 0 : f.minute >= 0 ? 2 : 3);
                return true;
            }
            case "SS" -> {
                pad(out, f.second, fm ? 0 : f.second >= 0 ? 2 : 3);
                return true;
            }
            case "MS" -> {
                pad(out, f.fraction / 1000, 3);
                return true;
            }
            case "US" -> {
                pad(out, f.fraction, 6);
                return true;
            }
            case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6" -> {
                int digits = upper.charAt(2) - '0';
                int value = f.fraction;
                for (int d = 6; d > digits; d--) {
                    value /= 10;
                }
                pad(out, value, digits);
                return true;
            }
            case "SSSS", "SSSSS" -> {
                out.append(f.hour * 3600 + f.minute * 60L + f.second);
                return true;
            }
            case "TZ" -> {
                noInterval(f);
                if (f.zone != null) {
                    out.append(word.equals("tz") ? f.zone.toLowerCase(Locale.ROOT) : f.zone);
                }
            }
            case "TZH" -> {
                noInterval(f);
                out.append(f.offset >= 0 ? '+' : '-');
                pad(out, Math.abs(f.offset) / 3600, 2);
            }
            case "TZM" -> {
                noInterval(f);
                pad(out, Math.abs(f.offset) % 3600 / 60, 2);
            }
            case "OF" -> {
                noInterval(f);
                out.append(f.offset >= 0 ? '+' : '-');
                pad(out, Math.abs(f.offset) / 3600, fm ? 0 : 2);
                if (Math.abs(f.offset) % 3600 != 0) {
                    out.append(':');
                    pad(out, Math.abs(f.offset) % 3600 / 60, 2);
                }
            }
            case "MONTH" -> {
                noInterval(f);
                if (f.month != 0) {
                    name(out, MONTHS[f.month - 1], word, fm || tm ? 0 : 9);
                }
            }
            case "MON" -> {
                noInterval(f);
                if (f.month != 0) {
                    name(out, MONTHS[f.month - 1].substring(0, 3), word, 0);
                }
            }
            case "MM" -> {
                pad(out, f.month, fm ? 0 : f.month >= 0 ? 2 : 3);
                return true;
            }
            case "DAY" -> {
                noInterval(f);
                name(out, DAYS[f.weekday], word, fm || tm ? 0 : 9);
            }
            case "DY" -> {
                noInterval(f);
                name(out, DAYS[f.weekday].substring(0, 3), word, 0);
            }
            case "DDD" -> {
                pad(out, f.yearDay, fm ? 0 : 3);
                return true;
            }
            case "IDDD" -> {
                pad(out, (isoWeek(f) - 1) * 7L + (f.weekday == 0 ? 7 : f.weekday), fm ? 0 : 3);
                return true;
            }
            case "DD" -> {
                pad(out, f.day, fm ? 0 : 2);
                return true;
            }
            case "D" -> {
                noInterval(f);
                out.append(f.weekday + 1);
                return true;
            }
            case "ID" -> {
                noInterval(f);
                out.append(f.weekday == 0 ? 7 : f.weekday);
                return true;
            }
            case "WW" -> {
                pad(out, (f.yearDay - 1) / 7 + 1, fm ? 0 : 2);
                return true;
            }
            case "IW" -> {
                pad(out, isoWeek(f), fm ? 0 : 2);
                return true;
            }
            case "Q" -> {
                if (f.month != 0) {
                    out.append((f.month - 1) / 3 + 1);
                    return true;
                }
            }
            case "CC" -> {
                int c = f.interval ? f.year / 100 : f.year > 0 ? (f.year - 1) / 100 + 1 : f.year / 100 - 1;
                if (c <= 99 && c >= -99) {
                    pad(out, c, fm ? 0 : c >= 0 ? 2 : 3);
                } else {
                    out.append(c);
                }
                return true;
            }
            case "Y,YYY" -> {
                int y = adjusted(f.year, f.interval);
                out.append(y / 1000).append(',');
                pad(out, Math.abs(y - y / 1000 * 1000), 3);
                return true;
            }
            case "YYYY", "YYY", "YY", "Y" -> {
                years(out, adjusted(f.year, f.interval), upper.length(), fm);
                return true;
            }
            case "IYYY", "IYY", "IY", "I" -> {
                years(out, adjusted(f.date.get(IsoFields.WEEK_BASED_YEAR), false), upper.length(), fm);
                return true;
            }
            case "RM" -> {
                if (f.month != 0) {
                    String roman = ROMAN[f.month - 1];
                    roman = word.equals("rm") ? roman.toLowerCase(Locale.ROOT) : roman;
                    padRight(out, roman, fm ? 0 : 4);
                }
            }
            case "W" -> {
                out.append((f.day - 1) / 7 + 1);
                return true;
            }
            case "J" -> {
                out.append(f.date.toEpochDay() + 2_440_588L);
                return true;
            }
            default -> {
                // FX: fixed format, which only input reads
            }
        }
        return false;
    }

    /** The Julian day of year, month and day, days past a month's end counting on (PostgreSQL's {@code date2j}). */
    private static long julianDay(long year, long month, long day) {
        long y = year;
        long m = month;
        if (m > 2) {
            m += 1;
            y += 4800;
        } else {
            m += 13;
            y += 4799;
        }
        long century = y / 100;
        return y * 365 - 32167 + y / 4 - century + century / 4 + 7834 * m / 256 + day;
    }

    /** The year PostgreSQL prints: 1 BC is 1, not 0 (intervals print their count). */
    private static int adjusted(int year, boolean interval) {
        return interval || year > 0 ? year : -(year - 1);
    }

    private static void years(StringBuilder out, int year, int digits, boolean fm) {
        int width = digits;
        long value = year;
        if (digits < 4) {
            long mod = digits == 3 ? 1000 : digits == 2 ? 100 : 10;
            value = year % mod;
        }
        if (digits == 1) {
            out.append(value);
            return;
        }
        pad(out, value, fm ? 0 : value >= 0 ? width : width + 1);
    }

    private static int isoWeek(Fields f) {
        return f.date.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
    }

    private static void noInterval(Fields f) {
        if (f.interval) {
            throw new TributaryException(
                    SqlState.INVALID_DATETIME_FORMAT, "invalid format specification for an interval value");
        }
    }

    /** {@code name} in the case the keyword is written in, blank-padded to {@code width}. */
    private static void name(StringBuilder out, String name, String word, int width) {
        String cased;
        if (Character.isLowerCase(word.charAt(0))) {
            cased = name.toLowerCase(Locale.ROOT);
        } else if (Character.isUpperCase(word.charAt(1))) {
            cased = name.toUpperCase(Locale.ROOT);
        } else {
            cased = name;
        }
        padRight(out, cased, width);
    }

    private static String cased(String upper, String word) {
        return Character.isLowerCase(word.charAt(0)) ? upper.toLowerCase(Locale.ROOT) : upper;
    }

    private static void padRight(StringBuilder out, String s, int width) {
        out.append(s);
        for (int i = s.length(); i < width; i++) {
            out.append(' ');
        }
    }

    /** {@code value} zero-padded to {@code width} characters, a minus sign counted in them (C's {@code %0*d}). */
    static void pad(StringBuilder out, long value, int width) {
        String digits = Long.toString(Math.abs(value));
        if (value < 0) {
            out.append('-');
            width--;
        }
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        out.append(digits);
    }
}
