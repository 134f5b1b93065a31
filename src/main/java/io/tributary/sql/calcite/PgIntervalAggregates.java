package io.tributary.sql.calcite;

import io.tributary.common.types.Interval;

/**
 * PostgreSQL's {@code sum}, {@code avg}, {@code min} and {@code max} over intervals, as Calcite
 * user-defined aggregates (the static {@code init}, {@code add} and {@code result} of each nested
 * class, called by Calcite's generated code on the thread that runs the query; one accumulator per
 * group). Queries name them {@code pg_interval_sum} and so on after {@link IntervalCalls} or
 * {@link IntervalPlans} rewrote the call; NULLs are skipped and no row gives NULL, as in PostgreSQL.
 */
public final class PgIntervalAggregates {
    private PgIntervalAggregates() {}

    /** The accumulator of all four: the value so far, and for {@code avg} how many were added. */
    public static final class State {
        Interval value;
        long count;
    }

    /** {@code sum(interval)}: months, days and time added apart; 22008 past their range. */
    public static final class Sum {
        private Sum() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Object v) {
            if (v instanceof Interval iv) {
                s.value = s.value == null ? iv : IntervalScaling.add(s.value, iv, 1);
            }
            return s;
        }

        public static Interval result(State s) {
            return s.value;
        }
    }

    /** {@code avg(interval)}: the sum divided by the count, as PostgreSQL's {@code interval_div}. */
    public static final class Avg {
        private Avg() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Object v) {
            if (v instanceof Interval iv) {
                s.value = s.value == null ? iv : IntervalScaling.add(s.value, iv, 1);
                s.count++;
            }
            return s;
        }

        public static Interval result(State s) {
            return s.count == 0 ? null : IntervalScaling.divide(s.value, s.count);
        }
    }

    /** {@code min(interval)}: the shortest, 30-day months; of equal ones the later row, as PostgreSQL's. */
    public static final class Min {
        private Min() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Object v) {
            if (v instanceof Interval iv && (s.value == null || s.value.compareTo(iv) >= 0)) {
                s.value = iv;
            }
            return s;
        }

        public static Interval result(State s) {
            return s.value;
        }
    }

    /** {@code max(interval)}: the longest; of equal ones the later row, as PostgreSQL's. */
    public static final class Max {
        private Max() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Object v) {
            if (v instanceof Interval iv && (s.value == null || s.value.compareTo(iv) <= 0)) {
                s.value = iv;
            }
            return s;
        }

        public static Interval result(State s) {
            return s.value;
        }
    }
}
