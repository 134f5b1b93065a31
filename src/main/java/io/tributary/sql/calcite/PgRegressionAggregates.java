package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Map;

/**
 * PostgreSQL's two-argument statistics aggregates over double precision ({@code corr},
 * {@code covar_pop}, {@code covar_samp} and the {@code regr_*} family but {@code regr_count}) as
 * Calcite user-defined aggregates (the static {@code init}, {@code add} and {@code result} of each
 * nested class, called by Calcite's generated code on the thread that runs the query; one
 * accumulator per group). {@link RegressionCalls} names them {@code pg_corr} and so on. Every one
 * accumulates as PostgreSQL 14's {@code float8_regr_accum} does (the Youngs-Cramer sums, so a
 * constant x gives a sum of squares of exactly 0 and the results round as PostgreSQL's), skips a
 * row where either argument is NULL, and computes its final value as the matching {@code
 * float8_regr_*} or {@code float8_co*} function: NULL over no pair, and where the spec says so for
 * fewer than two pairs or a zero sum of squares.
 */
public final class PgRegressionAggregates {
    /** The schema function name of each aggregate, by PostgreSQL's name. */
    static final Map<String, Class<?>> BY_NAME = Map.ofEntries(
            Map.entry("covar_pop", CovarPop.class),
            Map.entry("covar_samp", CovarSamp.class),
            Map.entry("corr", Corr.class),
            Map.entry("regr_slope", RegrSlope.class),
            Map.entry("regr_intercept", RegrIntercept.class),
            Map.entry("regr_r2", RegrR2.class),
            Map.entry("regr_avgx", RegrAvgx.class),
            Map.entry("regr_avgy", RegrAvgy.class),
            Map.entry("regr_sxx", RegrSxx.class),
            Map.entry("regr_syy", RegrSyy.class),
            Map.entry("regr_sxy", RegrSxy.class));

    private PgRegressionAggregates() {}

    /** PostgreSQL's transition state: the count and the Youngs-Cramer sums. */
    public static final class State {
        double n;
        double sx;
        double sxx;
        double sy;
        double syy;
        double sxy;
    }

    /** Adds the pair {@code (y, x)} as {@code float8_regr_accum} does; 22003 when a sum overflows. */
    static State accumulate(State s, Double yValue, Double xValue) {
        if (yValue == null || xValue == null) {
            return s;
        }
        double y = yValue;
        double x = xValue;
        double oldN = s.n;
        double oldSx = s.sx;
        double oldSy = s.sy;
        s.n += 1.0;
        s.sx += x;
        s.sy += y;
        if (oldN > 0.0) {
            double tmpX = x * s.n - s.sx;
            double tmpY = y * s.n - s.sy;
            double scale = 1.0 / (s.n * oldN);
            s.sxx += tmpX * tmpX * scale;
            s.syy += tmpY * tmpY * scale;
            s.sxy += tmpX * tmpY * scale;
            if (Double.isInfinite(s.sx)
                    || Double.isInfinite(s.sxx)
                    || Double.isInfinite(s.sy)
                    || Double.isInfinite(s.syy)
                    || Double.isInfinite(s.sxy)) {
                // infinite sums from finite inputs overflowed; from infinite inputs they are NaN
                if (((Double.isInfinite(s.sx) || Double.isInfinite(s.sxx))
                                && !Double.isInfinite(oldSx)
                                && !Double.isInfinite(x))
                        || ((Double.isInfinite(s.sy) || Double.isInfinite(s.syy))
                                && !Double.isInfinite(oldSy)
                                && !Double.isInfinite(y))
                        || (Double.isInfinite(s.sxy)
                                && !Double.isInfinite(oldSx)
                                && !Double.isInfinite(x)
                                && !Double.isInfinite(oldSy)
                                && !Double.isInfinite(y))) {
                    throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
                }
                if (Double.isInfinite(s.sxx)) {
                    s.sxx = Double.NaN;
                }
                if (Double.isInfinite(s.syy)) {
                    s.syy = Double.NaN;
                }
                if (Double.isInfinite(s.sxy)) {
                    s.sxy = Double.NaN;
                }
            }
        } else {
            // a first input that is infinite or NaN makes the sums that depend on it NaN
            if (Double.isNaN(x) || Double.isInfinite(x)) {
                s.sxx = Double.NaN;
                s.sxy = Double.NaN;
            }
            if (Double.isNaN(y) || Double.isInfinite(y)) {
                s.syy = Double.NaN;
                s.sxy = Double.NaN;
            }
        }
        return s;
    }

    /** {@code covar_pop(y, x)}: the population covariance, NULL over no pair. */
    public static final class CovarPop {
        private CovarPop() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : s.sxy / s.n;
        }
    }

    /** {@code covar_samp(y, x)}: the sample covariance, NULL below two pairs. */
    public static final class CovarSamp {
        private CovarSamp() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 2 ? null : s.sxy / (s.n - 1.0);
        }
    }

    /** {@code corr(y, x)}: NULL for a horizontal or vertical line (a zero sum of squares). */
    public static final class Corr {
        private Corr() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 || s.sxx == 0 || s.syy == 0 ? null : s.sxy / Math.sqrt(s.sxx * s.syy);
        }
    }

    /** {@code regr_slope(y, x)}: NULL for a vertical line. */
    public static final class RegrSlope {
        private RegrSlope() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 || s.sxx == 0 ? null : s.sxy / s.sxx;
        }
    }

    /** {@code regr_intercept(y, x)}: NULL for a vertical line. */
    public static final class RegrIntercept {
        private RegrIntercept() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 || s.sxx == 0 ? null : (s.sy - s.sx * s.sxy / s.sxx) / s.n;
        }
    }

    /** {@code regr_r2(y, x)}: NULL for a vertical line, 1 for a horizontal one. */
    public static final class RegrR2 {
        private RegrR2() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 || s.sxx == 0 ? null : s.syy == 0 ? 1.0 : (s.sxy * s.sxy) / (s.sxx * s.syy);
        }
    }

    /** {@code regr_avgx(y, x)}: the mean of x over the pairs. */
    public static final class RegrAvgx {
        private RegrAvgx() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : s.sx / s.n;
        }
    }

    /** {@code regr_avgy(y, x)}: the mean of y over the pairs. */
    public static final class RegrAvgy {
        private RegrAvgy() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : s.sy / s.n;
        }
    }

    /** {@code regr_sxx(y, x)}: the sum of squared deviations of x (roundoff never makes it negative). */
    public static final class RegrSxx {
        private RegrSxx() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : Math.max(s.sxx, 0.0);
        }
    }

    /** {@code regr_syy(y, x)}: the sum of squared deviations of y (roundoff never makes it negative). */
    public static final class RegrSyy {
        private RegrSyy() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : Math.max(s.syy, 0.0);
        }
    }

    /** {@code regr_sxy(y, x)}: the sum of products of the deviations. */
    public static final class RegrSxy {
        private RegrSxy() {}

        public static State init() {
            return new State();
        }

        public static State add(State s, Double y, Double x) {
            return accumulate(s, y, x);
        }

        public static Double result(State s) {
            return s.n < 1 ? null : s.sxy;
        }
    }
}
