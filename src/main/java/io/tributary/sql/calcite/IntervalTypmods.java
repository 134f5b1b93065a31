package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's interval type modifiers applied to an interval constant's text, as its {@code
 * AdjustIntervalForTypmod} applies them: {@code interval(p)} rounds the seconds to p digits (halves
 * away from zero), and a field qualifier ({@code hour to minute}, {@code day}, {@code second(2)})
 * drops the fields below its last one ({@code '1 day 2 hours 3 minutes'::interval hour to minute} is
 * {@code 1 day 02:03:00}, a {@code year} keeps whole years). {@link PgSyntaxText} writes the result
 * as the constant. Stateless.
 */
final class IntervalTypmods {
    /** A field qualifier after the constant or its cast, its last field in group 1, a precision in group 2. */
    static final Pattern FIELDS = Pattern.compile("(?i)^\\s*(?:YEAR\\s+TO\\s+(MONTH)|DAY\\s+TO\\s+(HOUR|MINUTE|SECOND)"
            + "|HOUR\\s+TO\\s+(MINUTE|SECOND)|MINUTE\\s+TO\\s+(SECOND)|(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND))"
            + "(?:\\s*\\(\\s*(\\d{1,9})\\s*\\))?(?![a-z0-9_$(])");

    /**
     * Text whose every number carries its unit ({@code 1 day 2 hours}): a qualifier does not change
     * how PostgreSQL reads it. (A bare number or {@code 02:03} is read by the qualifier's fields,
     * {@code '3'::interval hour} being three hours, which is left to Calcite's grammar.)
     */
    private static final Pattern UNITS_ONLY =
            Pattern.compile("(?i)^\\s*(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)\\s*[a-z]+\\s*)+(?:ago\\s*)?$");

    private static final long MICROS_PER_HOUR = 3_600_000_000L;
    private static final long MICROS_PER_MINUTE = 60_000_000L;
    private static final int MONTHS_PER_YEAR = 12;

    private IntervalTypmods() {}

    /** Whether a qualifier may be applied to {@code text} here (see {@link #UNITS_ONLY}). */
    static boolean unitsOnly(String text) {
        return UNITS_ONLY.matcher(text).matches();
    }

    /**
     * The interval text {@code text} (quotes still doubled) rounded to {@code precision} digits of a
     * second ({@link FractionalSeconds#roundIntervalTime}), in PostgreSQL's output form.
     */
    static String rounded(String text, int precision) {
        Interval iv = parse(text);
        return PgTextFormat.formatInterval(
                new Interval(iv.months(), iv.days(), FractionalSeconds.roundIntervalTime(iv.micros(), precision)));
    }

    /**
     * The interval text {@code text} (quotes still doubled) restricted to the qualifier {@code
     * fields} matched by {@link #FIELDS}, in PostgreSQL's output form.
     */
    static String restricted(String text, Matcher fields) {
        Interval iv = parse(text);
        String last = null;
        for (int g = 1; g <= 5 && last == null; g++) {
            last = fields.group(g);
        }
        int months = iv.months();
        int days = iv.days();
        long micros = iv.micros();
        switch (last.toUpperCase(Locale.ROOT)) {
            case "YEAR" -> {
                months = months / MONTHS_PER_YEAR * MONTHS_PER_YEAR;
                days = 0;
                micros = 0;
            }
            case "MONTH" -> {
                days = 0;
                micros = 0;
            }
            case "DAY" -> micros = 0;
            case "HOUR" -> micros = micros / MICROS_PER_HOUR * MICROS_PER_HOUR;
            case "MINUTE" -> micros = micros / MICROS_PER_MINUTE * MICROS_PER_MINUTE;
            default -> {
                String precision = fields.group(6);
                if (precision != null) {
                    micros = FractionalSeconds.roundIntervalTime(
                            micros, Math.min(Integer.parseInt(precision), FractionalSeconds.MAX_PRECISION));
                }
            }
        }
        return PgTextFormat.formatInterval(new Interval(months, days, micros));
    }

    private static Interval parse(String text) {
        return (Interval) PgTextFormat.parse(DataType.INTERVAL, text.replace("''", "'"));
    }
}
