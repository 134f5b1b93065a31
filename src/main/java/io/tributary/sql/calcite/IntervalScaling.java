package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Interval;

/**
 * PostgreSQL's arithmetic that moves length between an interval's fields: scaling by a number
 * (a fraction of a month cascades into days at 30 a month, a fraction of a day into time, never
 * upwards) and the {@code justify_*} functions (upwards). Called by {@link PgIntervalFunctions};
 * stateless.
 */
final class IntervalScaling {
    private static final int DAYS_PER_MONTH = 30;
    private static final long SECS_PER_DAY = 86_400;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private IntervalScaling() {}

    /** {@code a + sign * b}, field by field; 22008 on overflow. */
    static Interval add(Interval a, Interval b, int sign) {
        try {
            return new Interval(
                    Math.addExact(a.months(), Math.multiplyExact(sign, b.months())),
                    Math.addExact(a.days(), Math.multiplyExact(sign, b.days())),
                    Math.addExact(a.micros(), Math.multiplyExact((long) sign, b.micros())));
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    static Interval multiply(Interval iv, double factor) {
        return scale(iv, iv.months() * factor, iv.days() * factor, iv.micros() * factor);
    }

    /** @throws TributaryException 22012 for a zero divisor */
    static Interval divide(Interval iv, double divisor) {
        if (divisor == 0.0) {
            throw new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        return scale(iv, iv.months() / divisor, iv.days() / divisor, iv.micros() / divisor);
    }

    /** The scaled fields as PostgreSQL truncates and cascades them (its {@code interval_mul}). */
    private static Interval scale(Interval iv, double months, double days, double micros) {
        int wholeMonths = toInt(months);
        int wholeDays = toInt(days);
        double monthRemainderDays = roundToMicro((months - wholeMonths) * DAYS_PER_MONTH);
        double secRemainder =
                roundToMicro((days - wholeDays + monthRemainderDays - (int) monthRemainderDays) * SECS_PER_DAY);
        if (Math.abs(secRemainder) >= SECS_PER_DAY) {
            int carried = (int) (secRemainder / SECS_PER_DAY);
            wholeDays += carried;
            secRemainder -= carried * (double) SECS_PER_DAY;
        }
        wholeDays += (int) monthRemainderDays;
        double time = Math.rint(micros + secRemainder * 1_000_000.0);
        if (Double.isNaN(time) || time >= 0x1p63 || time < -0x1p63) {
            throw outOfRange();
        }
        return new Interval(wholeMonths, wholeDays, (long) time);
    }

    private static int toInt(double v) {
        if (Double.isNaN(v) || v >= 0x1p31 || v < -0x1p31) {
            throw outOfRange();
        }
        return (int) v;
    }

    /** PostgreSQL's {@code TSROUND}: to the nearest microsecond, so near-whole numbers become whole. */
    private static double roundToMicro(double v) {
        return Math.rint(v * 1_000_000.0) / 1_000_000.0;
    }

    static TributaryException outOfRange() {
        return new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
    }

    static Interval justifyHours(Interval iv) {
        long wholeDays = iv.micros() / MICROS_PER_DAY;
        long time = iv.micros() - wholeDays * MICROS_PER_DAY;
        long days = iv.days() + wholeDays;
        if (days > 0 && time < 0) {
            time += MICROS_PER_DAY;
            days--;
        } else if (days < 0 && time > 0) {
            time -= MICROS_PER_DAY;
            days++;
        }
        return new Interval(iv.months(), Math.toIntExact(days), time);
    }

    static Interval justifyDays(Interval iv) {
        int wholeMonths = iv.days() / DAYS_PER_MONTH;
        int days = iv.days() - wholeMonths * DAYS_PER_MONTH;
        int months = iv.months() + wholeMonths;
        if (months > 0 && days < 0) {
            days += DAYS_PER_MONTH;
            months--;
        } else if (months < 0 && days > 0) {
            days -= DAYS_PER_MONTH;
            months++;
        }
        return new Interval(months, days, iv.micros());
    }

    static Interval justifyInterval(Interval iv) {
        long months = iv.months();
        long days = iv.days();
        long time = iv.micros();
        if ((days > 0 && time > 0) || (days < 0 && time < 0)) {
            months += days / DAYS_PER_MONTH;
            days %= DAYS_PER_MONTH;
        }
        days += time / MICROS_PER_DAY;
        time %= MICROS_PER_DAY;
        months += days / DAYS_PER_MONTH;
        days %= DAYS_PER_MONTH;
        if (months > 0 && (days < 0 || (days == 0 && time < 0))) {
            days += DAYS_PER_MONTH;
            months--;
        } else if (months < 0 && (days > 0 || (days == 0 && time > 0))) {
            days -= DAYS_PER_MONTH;
            months++;
        }
        if (days > 0 && time < 0) {
            time += MICROS_PER_DAY;
            days--;
        } else if (days < 0 && time > 0) {
            time -= MICROS_PER_DAY;
            days++;
        }
        return new Interval(Math.toIntExact(months), Math.toIntExact(days), time);
    }
}
