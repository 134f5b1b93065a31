package io.tributary.sql.calcite;

import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.Interval;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.calcite.linq4j.function.NonDeterministic;

/**
 * PostgreSQL's {@code age(timestamp, timestamp)} and {@code age(timestamp)}, registered in the
 * schema under the names {@link IntervalSemantics} gives {@code age} calls ({@code pg_age}):
 * Calcite's own {@code age} answers text. Calcite calls the public static methods by reflection
 * from generated code, on whichever thread runs the query or view; NULL in, NULL out.
 *
 * <p>The answer is PostgreSQL's {@code timestamp_age}: the fields (years, months, days, hours,
 * minutes, seconds, fraction) subtracted one by one, then each negative field borrowed from the
 * next larger one, a day borrowing the length of the month of the earlier moment (of the later
 * one when the first argument is the earlier), so {@code age('2024-03-31', '2024-02-29')} is
 * {@code 1 mon 2 days}. Moments arrive as microseconds since 1970 ({@link MicrosecondTimestamps}), so
 * the fraction keeps all six digits.
 */
public final class PgAge {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private PgAge() {}

    /** {@code age(a, b)}: the interval from {@code b} to {@code a}, in years, months and days as written. */
    @MicrosecondTimestamps
    public static Interval pg_age(@MicrosecondTimestamps Long a, @MicrosecondTimestamps Long b) {
        return a == null || b == null ? null : age(a, b);
    }

    /** {@code age(b)}: {@code age} from {@code b} to today's midnight (UTC, the only session zone). */
    @NonDeterministic
    @MicrosecondTimestamps
    public static Interval pg_age(@MicrosecondTimestamps Long b) {
        if (b == null) {
            return null;
        }
        long today = Math.floorDiv(System.currentTimeMillis() * 1000L, MICROS_PER_DAY) * MICROS_PER_DAY;
        return age(today, b);
    }

    /** PostgreSQL's {@code timestamp_age} of two moments in microseconds since 1970 (UTC, proleptic calendar). */
    static Interval age(long aMicros, long bMicros) {
        if (!InfiniteDateTimes.isFinite(aMicros) || !InfiniteDateTimes.isFinite(bMicros)) {
            // PostgreSQL's timestamp2tm of an infinity
            throw InfiniteDateTimes.outOfRange();
        }
        LocalDateTime a = moment(aMicros);
        LocalDateTime b = moment(bMicros);
        boolean flip = aMicros < bMicros;
        int sign = flip ? -1 : 1;
        long micros = sign * (Math.floorMod(aMicros, MICROS_PER_SECOND) - Math.floorMod(bMicros, MICROS_PER_SECOND));
        int sec = sign * (a.getSecond() - b.getSecond());
        int min = sign * (a.getMinute() - b.getMinute());
        int hour = sign * (a.getHour() - b.getHour());
        int day = sign * (a.getDayOfMonth() - b.getDayOfMonth());
        int mon = sign * (a.getMonthValue() - b.getMonthValue());
        int year = sign * (a.getYear() - b.getYear());
        while (micros < 0) {
            micros += MICROS_PER_SECOND;
            sec--;
        }
        while (sec < 0) {
            sec += 60;
            min--;
        }
        while (min < 0) {
            min += 60;
            hour--;
        }
        while (hour < 0) {
            hour += 24;
            day--;
        }
        // the month borrowed from is the earlier moment's, as PostgreSQL's day_tab lookup
        LocalDateTime earlier = flip ? a : b;
        while (day < 0) {
            day += earlier.toLocalDate().lengthOfMonth();
            mon--;
        }
        while (mon < 0) {
            mon += 12;
            year--;
        }
        long time = ((hour * 60L + min) * 60L + sec) * 1_000_000L + micros;
        return new Interval(sign * (year * 12 + mon), sign * day, sign * time);
    }

    private static LocalDateTime moment(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), 0, ZoneOffset.UTC);
    }
}
