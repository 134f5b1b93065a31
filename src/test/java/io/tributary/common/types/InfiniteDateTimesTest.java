package io.tributary.common.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * Finite values never become infinities: text, arithmetic and conversions whose microseconds would
 * land on (or pass) the encoding are 22008. PostgreSQL itself holds timestamps to 294276-12-31,
 * which microseconds since 1970 cannot, so these cases have no differential counterpart.
 */
class InfiniteDateTimesTest {
    @Test
    void textOnTheEncodingIsOutOfRange() {
        // Long.MAX_VALUE microseconds since 1970, which would read as infinity
        for (String text : new String[] {"294247-01-10 04:00:54.775807", "294247-01-10 04:00:55", "294276-12-31"}) {
            TributaryException e = assertThrows(
                    TributaryException.class, () -> PgDateTimeInput.parseTimestamp(text, false, PgTimeZone.UTC));
            assertEquals("22008", e.sqlState(), text);
        }
        assertEquals(
                InfiniteDateTimes.TIMESTAMP_INFINITY - 1,
                PgDateTimeInput.parseTimestamp("294247-01-10 04:00:54.775806", false, PgTimeZone.UTC));
        assertEquals(
                InfiniteDateTimes.TIMESTAMP_INFINITY, PgDateTimeInput.parseTimestamp("Infinity", true, PgTimeZone.UTC));
        assertEquals(InfiniteDateTimes.DATE_MINUS_INFINITY, PgDateTimeInput.parseDate(" -infinity "));
    }

    @Test
    void conversionsKeepInfinitiesAndRefuseOverflow() {
        assertEquals(Long.MAX_VALUE, InfiniteDateTimes.fromMillis(InfiniteDateTimes.toMillis(Long.MAX_VALUE)));
        assertEquals(Long.MIN_VALUE, InfiniteDateTimes.keepMicros(5L, Long.MIN_VALUE));
        assertEquals(1_234_567L, InfiniteDateTimes.keepMicros(1_234L, 9_000_567L));
        assertEquals(
                "22008",
                assertThrows(TributaryException.class, () -> InfiniteDateTimes.fromMillis(Long.MAX_VALUE / 999))
                        .sqlState());
        assertEquals(
                "22008",
                assertThrows(TributaryException.class, () -> InfiniteDateTimes.finite(Long.MIN_VALUE))
                        .sqlState());
        assertEquals(Long.MAX_VALUE, InfiniteDateTimes.dateToTimestamp(Integer.MAX_VALUE));
        assertEquals(Integer.MIN_VALUE, InfiniteDateTimes.timestampToDate(Long.MIN_VALUE));
        assertEquals(
                "22008",
                assertThrows(TributaryException.class, () -> InfiniteDateTimes.dateToTimestamp(200_000_000))
                        .sqlState());
        assertEquals(Integer.MAX_VALUE, InfiniteDateTimes.toPostgresDays(Integer.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, InfiniteDateTimes.fromPostgresMicros(Long.MIN_VALUE));
        assertEquals(
                "22008",
                assertThrows(TributaryException.class, () -> InfiniteDateTimes.fromPostgresMicros(Long.MAX_VALUE - 1))
                        .sqlState());
    }
}
