package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * PostgreSQL's special date/time input words that name a moment relative to the clock: {@code
 * now}, {@code today}, {@code tomorrow} and {@code yesterday}, read for a date, timestamp or
 * timestamptz. They are read from the wall clock when the text is read (PostgreSQL reads the
 * transaction's start), and a date or timestamp takes the date in UTC (PostgreSQL: the session's
 * zone); README's known limits say so. A statement holding one is not kept in a session's plan
 * cache ({@link #mentioned}), so each run reads the clock again. Stateless and thread-safe.
 */
public final class RelativeDateTimeInput {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    /** What this thread is planning when a word read now would be frozen into a plan that must not change. */
    private static final ThreadLocal<String> FROZEN_IN = new ThreadLocal<>();

    private RelativeDateTimeInput() {}

    /**
     * Runs {@code planning} (a materialized view's or sink's query being planned, on this thread)
     * refusing the words with 0A000 if it reads one: the plan would hold the clock's value, and a
     * restart plans the definition again to check its state, which another value fails.
     * PostgreSQL reads the word once, at CREATE, and stores the value in the definition.
     */
    public static <T> T refusedWhile(String what, Supplier<T> planning) {
        String outer = FROZEN_IN.get();
        FROZEN_IN.set(what);
        try {
            return planning.get();
        } finally {
            FROZEN_IN.set(outer);
        }
    }

    private static void checkAllowed(String word) {
        String what = FROZEN_IN.get();
        if (what != null) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "'" + word.toLowerCase(Locale.ROOT) + "' as a date or time in " + what
                            + " is not supported: write the moment itself");
        }
    }

    /** Days after today that {@code word} names (0 for {@code now} and {@code today}), or null for another text. */
    private static Integer dayOffset(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "now", "today" -> 0;
            case "tomorrow" -> 1;
            case "yesterday" -> -1;
            default -> null;
        };
    }

    /** The epoch day {@code text} (trimmed) names, or null when it is no such word. */
    static Integer date(String text) {
        Integer offset = dayOffset(text);
        if (offset == null) {
            return null;
        }
        checkAllowed(text);
        return (int) (LocalDate.now(ZoneOffset.UTC).toEpochDay() + offset);
    }

    /**
     * Microseconds since 1970 that {@code text} (trimmed) names as a timestamp (local time in UTC)
     * or, {@code withZone}, as a timestamptz (midnight in {@code zone} for a day); null when it is
     * no such word.
     */
    static Long timestamp(String text, boolean withZone, PgTimeZone zone) {
        Integer offset = dayOffset(text);
        if (offset == null) {
            return null;
        }
        checkAllowed(text);
        Instant now = Instant.now();
        if (text.equalsIgnoreCase("now")) {
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        }
        if (!withZone) {
            return (LocalDate.now(ZoneOffset.UTC).toEpochDay() + offset) * MICROS_PER_DAY;
        }
        long day = LocalDate.ofInstant(now, zone.zone()).toEpochDay() + offset;
        return zone.toInstant(day * MICROS_PER_DAY);
    }

    /**
     * Whether statement text {@code sql} may hold one of the words as a quoted constant (a quote,
     * the word, a quote; case and blanks aside): a cheap over-approximation for the plan cache.
     */
    public static boolean mentioned(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        return quoted(lower, "now")
                || quoted(lower, "today")
                || quoted(lower, "tomorrow")
                || quoted(lower, "yesterday");
    }

    private static boolean quoted(String lower, String word) {
        for (int at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
            int before = at - 1;
            while (before >= 0 && Character.isWhitespace(lower.charAt(before))) {
                before--;
            }
            int after = at + word.length();
            while (after < lower.length() && Character.isWhitespace(lower.charAt(after))) {
                after++;
            }
            if (before >= 0 && lower.charAt(before) == '\'' && after < lower.length() && lower.charAt(after) == '\'') {
                return true;
            }
        }
        return false;
    }
}
