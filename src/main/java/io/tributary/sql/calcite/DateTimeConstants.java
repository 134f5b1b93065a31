package io.tributary.sql.calcite;

import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.PgDateTimeInput;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Date, time and timestamp constants read with PostgreSQL's input rules rather than Calcite's: a
 * string constant typed {@code DATE '…'}, {@code TIME '…'}, {@code TIMESTAMP '…'} or cast
 * {@code '…'::date}, {@code CAST('…' AS time)} is parsed by {@link PgDateTimeInput} when the
 * statement's text is rewritten ({@link PgSyntaxText}), so it takes the forms PostgreSQL takes
 * ({@code '20240315'}, {@code '2024-03-15 10:20:30'::date}, {@code '10:20'}) and bad text fails
 * with PostgreSQL's SQLSTATE (22007 or 22008) instead of Calcite's. The constant is written as
 * Calcite's typed literal of its canonical text, which keeps its fraction of a second (Calcite's
 * cast of a string to {@code TIME}/{@code TIMESTAMP} truncates to whole seconds); a constant
 * followed by {@code ::text} or {@code ::varchar} becomes that text itself, since Calcite folds
 * the cast of a literal with its own format; one cast to {@code timestamp(p)} or {@code time(p)}
 * is rounded to p digits as PostgreSQL rounds it. Values Calcite's literals cannot hold (years past
 * 9999, BC) are left to Calcite; {@code 24:00:00} becomes a call of {@link TimeEndOfDay}, {@code
 * infinity} and {@code -infinity} one of {@link InfinityConstants}. Stateless.
 */
final class DateTimeConstants {
    /** The type keyword before a constant: {@code DATE '…'}. */
    private static final Pattern KEYWORD = Pattern.compile("(?i)(?<![a-z0-9_$.\"])(DATE|TIME|TIMESTAMP)\\s*$");
    /** A cast after a constant: {@code '…'::date}, {@code '…'::timestamp(3)} (no array, or time zone). */
    private static final Pattern CAST = Pattern.compile(
            "(?i)^\\s*::\\s*(date|time|timestamp)\\b(?:\\s*\\(\\s*([0-6])\\s*\\))?(?!\\s*(?:[\\[(.]|with))");
    /** {@code CAST(} before a constant. */
    private static final Pattern CAST_OPEN = Pattern.compile("(?i)(?<![a-z0-9_$.])CAST\\s*\\(\\s*$");
    /** The rest of {@code CAST('…' AS date)} (or {@code AS timestamp(3)}) after the constant. */
    private static final Pattern AS_TYPE =
            Pattern.compile("(?i)^\\s*AS\\s+(date|time|timestamp)(?:\\s*\\(\\s*([0-6])\\s*\\))?\\s*\\)");
    /** A cast to text right after the typed constant: {@code DATE '…'::text}. */
    private static final Pattern TO_TEXT = Pattern.compile("(?i)^\\s*::\\s*(?:text|varchar)\\b(?!\\s*[\\[(.])");
    /** A string constant's prefix that makes it no plain constant: {@code E'…'}, {@code U&'…'}. */
    private static final Pattern PREFIXED = Pattern.compile("[A-Za-z0-9_&]$");

    private DateTimeConstants() {}

    /**
     * A replacement for the string constant {@code quoted} (with its quotes) between {@code before}
     * and {@code after} in a statement's code.
     *
     * @param codeEnd how much of {@code before} stays (the type keyword or {@code CAST(} dropped)
     * @param literal the text written in place of the constant
     * @param skip how much of {@code after} the replacement consumes (a cast)
     */
    record Rewrite(int codeEnd, String literal, int skip) {}

    /**
     * The rewrite of the constant {@code quoted} if it is typed or cast as a date, time or timestamp;
     * null if it is not, or if Calcite's literal cannot hold its value.
     *
     * @param timePrecisions whether a {@code time(p)} constant is rounded to p digits here, or left
     *     to Calcite's cast, which truncates, as builds before session 45 did
     *
     * @throws io.tributary.common.TributaryException 22007 or 22008 as PostgreSQL rejects the text
     */
    static Rewrite rewrite(String before, String quoted, String after, boolean timePrecisions) {
        if (PREFIXED.matcher(before).find() && !KEYWORD.matcher(before).find()) {
            return null;
        }
        String type;
        String precision = null;
        int codeEnd;
        int skip = 0;
        Matcher keyword = KEYWORD.matcher(before);
        Matcher open = CAST_OPEN.matcher(before);
        Matcher as = AS_TYPE.matcher(after);
        Matcher cast = CAST.matcher(after);
        if (keyword.find()) {
            type = keyword.group(1);
            codeEnd = keyword.start();
        } else if (open.find() && as.find()) {
            type = as.group(1);
            precision = as.group(2);
            codeEnd = open.start();
            skip = as.end();
        } else if (cast.find()) {
            type = cast.group(1);
            precision = cast.group(2);
            codeEnd = before.length();
            skip = cast.end();
        } else {
            return null;
        }
        String text = quoted.substring(1, quoted.length() - 1).replace("''", "'");
        String kind = type.toUpperCase(Locale.ROOT);
        if (precision != null && !(kind.equals("TIMESTAMP") || kind.equals("TIME") && timePrecisions)) {
            return null;
        }
        int infinite = kind.equals("TIME") ? 0 : InfiniteDateTimes.sign(text);
        if (infinite != 0) {
            String value = InfiniteDateTimes.text(infinite > 0);
            if (TO_TEXT.matcher(after.substring(skip)).find()) {
                return new Rewrite(codeEnd, "'" + value + "'", skip);
            }
            return new Rewrite(codeEnd, InfinityConstants.name(kind, infinite > 0) + "()", skip);
        }
        // timestamp(p), time(p): rounded as PostgreSQL rounds them (Calcite's cast of a literal truncates)
        int digits = precision == null ? 6 : Integer.parseInt(precision);
        String canonical = switch (kind) {
            case "DATE" -> PgTextFormat.formatDate(PgDateTimeInput.parseDate(text));
            case "TIME" ->
                PgTextFormat.formatTime(FractionalSeconds.roundTime(PgDateTimeInput.parseTime(text), digits));
            default ->
                PgTextFormat.formatTimestamp(TimestampUnitCalls.roundToPrecision(
                        PgDateTimeInput.parseTimestamp(text, false, PgTimeZone.UTC), digits));
        };
        if (TO_TEXT.matcher(after.substring(skip)).find()) {
            // Calcite folds the literal's cast to text in its own format (no fraction of a second)
            return new Rewrite(codeEnd, "'" + canonical + "'", skip);
        }
        if (kind.equals("TIME") && canonical.startsWith("24:")) {
            // the end of the day, which Calcite's time literal cannot hold
            return new Rewrite(codeEnd, "CAST(" + TimeEndOfDay.NAME + "() AS TIME(3))", skip);
        }
        if (!fitsCalcite(kind, canonical)) {
            return null;
        }
        return new Rewrite(codeEnd, kind + " '" + canonical + "'", skip);
    }

    /** Whether Calcite's literal holds {@code canonical}: a time, or a year of four digits, not BC. */
    private static boolean fitsCalcite(String kind, String canonical) {
        if (kind.equals("TIME")) {
            return true;
        }
        return canonical.length() >= 10 && canonical.charAt(4) == '-' && !canonical.endsWith("BC");
    }
}
