package io.tributary.sql.calcite;

import java.time.LocalDate;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.TimeZone;

/**
 * Converts between the proleptic Gregorian calendar (PostgreSQL's, and Tributary's canonical
 * epoch days and microseconds) and the {@code java.sql.Date}/{@code Timestamp} values Calcite's
 * JDBC layer (Avatica) hands over. Avatica builds those so that their legacy Julian/Gregorian
 * hybrid calendar fields show the proleptic date; before the Gregorian cutover (1582-10-15) their
 * epoch milliseconds therefore differ from the proleptic ones by days. Reading {@code getTime()}
 * directly would shift such dates ({@code 1000-06-15} became {@code 1000-06-21}).
 *
 * <p>Called by {@link TypeMapping#read} on result rows and by {@link CalcitePreparedQuery} when
 * binding parameters, on the statement's thread; the calendar is per thread.
 */
final class JulianDates {
    /** The Gregorian cutover, 1582-10-15T00:00Z, in epoch milliseconds; later instants need no care. */
    private static final long CUTOVER_MILLIS = -12_219_292_800_000L;

    private static final long MILLIS_PER_DAY = 86_400_000L;

    private static final ThreadLocal<GregorianCalendar> HYBRID = ThreadLocal.withInitial(() -> {
        GregorianCalendar c = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
        c.clear();
        return c;
    });

    private JulianDates() {}

    /** The proleptic epoch day of a date Avatica returned as hybrid-calendar milliseconds. */
    static int epochDay(long hybridMillis) {
        if (hybridMillis >= CUTOVER_MILLIS) {
            return (int) Math.floorDiv(hybridMillis, MILLIS_PER_DAY);
        }
        GregorianCalendar c = HYBRID.get();
        c.setTimeInMillis(hybridMillis);
        int year = c.get(Calendar.ERA) == GregorianCalendar.BC ? 1 - c.get(Calendar.YEAR) : c.get(Calendar.YEAR);
        return (int) LocalDate.of(year, c.get(Calendar.MONTH) + 1, c.get(Calendar.DAY_OF_MONTH))
                .toEpochDay();
    }

    /** The proleptic epoch milliseconds of an instant Avatica returned as hybrid-calendar milliseconds. */
    static long epochMillis(long hybridMillis) {
        if (hybridMillis >= CUTOVER_MILLIS) {
            return hybridMillis;
        }
        return epochDay(hybridMillis) * MILLIS_PER_DAY + Math.floorMod(hybridMillis, MILLIS_PER_DAY);
    }

    /** The hybrid-calendar milliseconds Avatica expects for proleptic epoch milliseconds. */
    static long hybridMillis(long epochMillis) {
        if (epochMillis >= CUTOVER_MILLIS) {
            return epochMillis;
        }
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(epochMillis, MILLIS_PER_DAY));
        GregorianCalendar c = HYBRID.get();
        c.clear();
        int year = date.getYear();
        c.set(Calendar.ERA, year <= 0 ? GregorianCalendar.BC : GregorianCalendar.AD);
        c.set(year <= 0 ? 1 - year : year, date.getMonthValue() - 1, date.getDayOfMonth());
        return c.getTimeInMillis() + Math.floorMod(epochMillis, MILLIS_PER_DAY);
    }
}
