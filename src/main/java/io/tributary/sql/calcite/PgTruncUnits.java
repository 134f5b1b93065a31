package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;

/**
 * The unit words PostgreSQL's {@code date_trunc} reads, as its {@code DecodeUnits} does: lower
 * case, compared on their first ten characters ({@code microseconds} is {@code microsecon}), with
 * its plurals and abbreviations ({@code weeks}, {@code w}, {@code ms}, {@code mils}). Used by
 * {@link PgValueSemantics} on a literal unit before validation; immutable, any thread.
 */
final class PgTruncUnits {
    /** PostgreSQL's token length: longer words are compared on this many characters. */
    private static final int TOKEN_LENGTH = 10;

    private static final Map<String, TimeUnit> UNITS = new HashMap<>();

    static {
        add(TimeUnit.MICROSECOND, "microsecon", "us", "usec", "usecond", "useconds", "usecs");
        add(TimeUnit.MILLISECOND, "millisecon", "ms", "msec", "msecond", "mseconds", "msecs");
        add(TimeUnit.SECOND, "second", "seconds", "s", "sec", "secs");
        add(TimeUnit.MINUTE, "minute", "minutes", "m", "min", "mins");
        add(TimeUnit.HOUR, "hour", "hours", "h", "hr", "hrs");
        add(TimeUnit.DAY, "day", "days", "d");
        add(TimeUnit.WEEK, "week", "weeks", "w");
        add(TimeUnit.MONTH, "month", "months", "mon", "mons");
        add(TimeUnit.QUARTER, "quarter", "qtr");
        add(TimeUnit.YEAR, "year", "years", "y", "yr", "yrs");
        add(TimeUnit.DECADE, "decade", "decades", "dec", "decs");
        add(TimeUnit.CENTURY, "century", "centuries", "c", "cent");
        add(TimeUnit.MILLENNIUM, "millennium", "millennia", "mil", "mils");
    }

    private PgTruncUnits() {}

    private static void add(TimeUnit unit, String... words) {
        for (String word : words) {
            UNITS.put(word, unit);
        }
    }

    /**
     * The unit {@code word} names.
     *
     * @throws TributaryException 0A000 for the time zone units (PostgreSQL knows them but does not
     *     truncate to them), 22023 for any other word
     */
    static TimeUnit of(String word) {
        String token = word.toLowerCase(Locale.ROOT);
        if (token.length() > TOKEN_LENGTH) {
            token = token.substring(0, TOKEN_LENGTH);
        }
        TimeUnit unit = UNITS.get(token);
        if (unit != null) {
            return unit;
        }
        if (token.equals("timezone") || token.equals("timezone_h") || token.equals("timezone_m")) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "timestamp units \"" + word + "\" not supported");
        }
        throw new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE, "timestamp units \"" + word + "\" not recognized");
    }
}
