package io.tributary.sql.calcite;

import java.time.LocalDate;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.TimeZone;

/**
 * Converts the proleptic Gregorian calendar's epoch milliseconds (PostgreSQL's, Tributary's and
 * Calcite's internal counts) into the {@code java.sql.Date}/{@code Timestamp} milliseconds
 * Calcite's JDBC layer (Avatica) expects of a parameter: Avatica reads such a value's legacy
 * Julian/Gregorian hybrid calendar fields, so before the Gregorian cutover (1582-10-15) its epoch
 * milliseconds differ from the proleptic ones by days. Results are read as numbers instead
 * ({@link TypeMapping#read}).
 *
 * <p>Called by {@link CalcitePreparedQuery} when binding parameters, on the statement's thread;
 * the calendar is per thread.
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
