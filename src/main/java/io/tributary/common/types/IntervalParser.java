package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Parses PostgreSQL interval input: {@code 1 year 2 mons 3 days 04:05:06}, {@code 2 hours},
 * {@code -1 day}, {@code 1.5 days}, and ISO 8601's {@code P1DT27H}. Stateless.
 */
final class IntervalParser {
    private IntervalParser() {}

    /** {@code H:MM[:SS[.f]]} with any number of hours, as interval input allows. */
    private static long clock(String tok, String whole) {
        String[] parts = tok.split(":");
        if (parts.length < 2 || parts.length > 3) {
            throw invalid(whole);
        }
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        BigDecimal seconds = parts.length == 3 ? new BigDecimal(parts[2]) : BigDecimal.ZERO;
        if (minutes > 59 || seconds.compareTo(BigDecimal.valueOf(60)) >= 0) {
            throw new TributaryException(
                    SqlState.INTERVAL_FIELD_OVERFLOW, "interval field value out of range: \"" + whole + "\"");
        }
        return (hours * 3600 + minutes * 60) * 1_000_000L
                + seconds.movePointRight(6).longValue();
    }

    /**
     * @throws TributaryException 22007 for text that is no interval, 22015 for a field out of
     *     range
     */
    static Interval parse(String s) {
        try {
            return parseFields(s);
        } catch (ArithmeticException e) {
            throw new TributaryException(SqlState.INTERVAL_FIELD_OVERFLOW, "interval out of range");
        }
    }

    private static Interval parseFields(String s) {
        String lower = s.toLowerCase(Locale.ROOT).trim();
        if (lower.startsWith("p")) {
            return iso8601(lower.substring(1), s);
        }
        String[] tokens = lower.replace("@", " ").trim().split("\\s+");
        Fields f = new Fields();
        boolean any = false;
        boolean ago = false;
        for (int i = 0; i < tokens.length; i++) {
            String tok = tokens[i];
            if (tok.isEmpty()) {
                continue;
            }
            if (tok.equals("ago")) {
                ago = true;
                continue;
            }
            if (tok.indexOf(':') >= 0) {
                boolean neg = tok.startsWith("-");
                long t = clock(neg || tok.startsWith("+") ? tok.substring(1) : tok, s);
                f.micros += neg ? -t : t;
                any = true;
                continue;
            }
            BigDecimal n = number(tok, s);
            String unit = i + 1 < tokens.length ? tokens[++i] : "second";
            any = true;
            switch (unit) {
                case "year", "years", "y", "yr", "yrs" -> f.years(n);
                case "month", "months", "mon", "mons" -> f.months(n);
                case "week", "weeks", "w" -> f.days(n.multiply(BigDecimal.valueOf(7)));
                case "day", "days", "d" -> f.days(n);
                case "hour", "hours", "h", "hr", "hrs" -> f.time(n, 3_600_000_000L);
                case "minute", "minutes", "min", "mins", "m" -> f.time(n, 60_000_000L);
                case "second", "seconds", "sec", "secs", "s" -> f.time(n, 1_000_000L);
                case "millisecond", "milliseconds", "ms" -> f.time(n, 1000L);
                case "microsecond", "microseconds", "us" -> f.time(n, 1L);
                default -> throw invalid(s);
            }
        }
        if (!any) {
            throw invalid(s);
        }
        return ago ? new Interval(-f.months, -f.days, -f.micros) : new Interval(f.months, f.days, f.micros);
    }

    /**
     * ISO 8601's format with designators, after its {@code P}: {@code 1Y2M3W4DT5H6M7.5S}, each
     * number possibly signed or fractional, a fraction cascading as in the verbose format.
     */
    private static Interval iso8601(String body, String whole) {
        Fields f = new Fields();
        boolean time = false;
        boolean any = false;
        int i = 0;
        while (i < body.length()) {
            if (body.charAt(i) == 't' && !time) {
                time = true;
                i++;
                continue;
            }
            int start = i;
            while (i < body.length() && "+-.0123456789".indexOf(body.charAt(i)) >= 0) {
                i++;
            }
            if (start == i || i == body.length()) {
                throw invalid(whole);
            }
            BigDecimal n = number(body.substring(start, i), whole);
            char unit = body.charAt(i++);
            any = true;
            switch (time ? Character.toUpperCase(unit) : unit) {
                case 'y' -> f.years(n);
                case 'm' -> f.months(n);
                case 'w' -> f.days(n.multiply(BigDecimal.valueOf(7)));
                case 'd' -> f.days(n);
                case 'H' -> f.time(n, 3_600_000_000L);
                case 'M' -> f.time(n, 60_000_000L);
                case 'S' -> f.time(n, 1_000_000L);
                default -> throw invalid(whole);
            }
        }
        if (!any) {
            throw invalid(whole);
        }
        return new Interval(f.months, f.days, f.micros);
    }

    private static BigDecimal number(String tok, String whole) {
        try {
            return new BigDecimal(tok);
        } catch (NumberFormatException e) {
            throw invalid(whole);
        }
    }

    /**
     * The three fields as input adds them up. A fraction of a unit cascades down as PostgreSQL's
     * input does: of a year to whole months (rounded), of a month to days at 30 a month, of a day
     * to time at 24 hours a day, rounded to the microsecond.
     */
    private static final class Fields {
        private static final BigDecimal MICROS_PER_DAY = BigDecimal.valueOf(86_400_000_000L);
        int months;
        int days;
        long micros;

        void years(BigDecimal n) {
            months += n.multiply(BigDecimal.valueOf(12))
                    .setScale(0, RoundingMode.HALF_EVEN)
                    .intValueExact();
        }

        void months(BigDecimal n) {
            BigDecimal whole = n.setScale(0, RoundingMode.DOWN);
            months += whole.intValueExact();
            days(n.subtract(whole).multiply(BigDecimal.valueOf(30)));
        }

        void days(BigDecimal n) {
            BigDecimal whole = n.setScale(0, RoundingMode.DOWN);
            days += whole.intValueExact();
            micros += n.subtract(whole)
                    .multiply(MICROS_PER_DAY)
                    .setScale(0, RoundingMode.HALF_EVEN)
                    .longValueExact();
        }

        void time(BigDecimal n, long unitMicros) {
            micros += n.multiply(BigDecimal.valueOf(unitMicros))
                    .setScale(0, RoundingMode.HALF_EVEN)
                    .longValueExact();
        }
    }

    /** PostgreSQL reports bad interval input as a datetime format error (22007), not 22P02. */
    private static TributaryException invalid(String text) {
        return new TributaryException(
                SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"" + text + "\"");
    }
}
