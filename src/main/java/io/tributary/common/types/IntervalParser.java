package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.util.Locale;

/** Parses PostgreSQL interval input: {@code 1 year 2 mons 3 days 04:05:06}, {@code 2 hours}, {@code -1 day}. */
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
                    SqlState.DATETIME_FIELD_OVERFLOW, "interval field value out of range: \"" + whole + "\"");
        }
        return (hours * 3600 + minutes * 60) * 1_000_000L
                + seconds.movePointRight(6).longValue();
    }

    static Interval parse(String s) {
        String[] tokens = s.toLowerCase(Locale.ROOT).replace("@", " ").trim().split("\\s+");
        int months = 0;
        int days = 0;
        long micros = 0;
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
                micros += neg ? -t : t;
                any = true;
                continue;
            }
            BigDecimal n;
            try {
                n = new BigDecimal(tok);
            } catch (NumberFormatException e) {
                throw invalid(s);
            }
            String unit = i + 1 < tokens.length ? tokens[++i] : "second";
            any = true;
            switch (unit) {
                case "year", "years", "y", "yr", "yrs" ->
                    months += n.multiply(BigDecimal.valueOf(12)).intValue();
                case "month", "months", "mon", "mons" -> months += n.intValue();
                case "week", "weeks", "w" ->
                    days += n.multiply(BigDecimal.valueOf(7)).intValue();
                case "day", "days", "d" -> days += n.intValue();
                case "hour", "hours", "h", "hr", "hrs" ->
                    micros += n.multiply(BigDecimal.valueOf(3_600_000_000L)).longValue();
                case "minute", "minutes", "min", "mins", "m" ->
                    micros += n.multiply(BigDecimal.valueOf(60_000_000L)).longValue();
                case "second", "seconds", "sec", "secs", "s" ->
                    micros += n.multiply(BigDecimal.valueOf(1_000_000L)).longValue();
                case "millisecond", "milliseconds", "ms" ->
                    micros += n.multiply(BigDecimal.valueOf(1000L)).longValue();
                case "microsecond", "microseconds", "us" -> micros += n.longValue();
                default -> throw invalid(s);
            }
        }
        if (!any) {
            throw invalid(s);
        }
        return ago ? new Interval(-months, -days, -micros) : new Interval(months, days, micros);
    }

    /** PostgreSQL reports bad interval input as a datetime format error (22007), not 22P02. */
    private static TributaryException invalid(String text) {
        return new TributaryException(
                SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"" + text + "\"");
    }
}
