package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Arrays;

/**
 * PostgreSQL's {@code percentile_cont(fraction) WITHIN GROUP (ORDER BY x)} over numbers, as a
 * Calcite user-defined aggregate (the static {@code init}, {@code add} and {@code result}, called
 * by Calcite's generated code on the thread that runs the query; one accumulator per group).
 * {@link PgValueSemantics} writes an ascending call as {@code pg_percentile_cont(x::float8,
 * fraction::float8)} in queries; Calcite has no implementation of its own ordered-set aggregates.
 * NULL values are skipped; no value, or a NULL fraction, gives NULL; a fraction outside [0, 1] is
 * 22003. The result interpolates between the two nearest values as PostgreSQL's
 * {@code percentile_cont_final_common} does, so the digits are PostgreSQL's.
 */
public final class PgPercentiles {
    private PgPercentiles() {}

    /** The values of one group and the fraction asked for. */
    public static final class State {
        double[] values = new double[8];
        int count;
        Double fraction;
        boolean fractionSeen;
    }

    public static State init() {
        return new State();
    }

    public static State add(State s, Double value, Double fraction) {
        if (!s.fractionSeen) {
            s.fraction = fraction;
            s.fractionSeen = true;
        }
        if (value != null) {
            if (s.count == s.values.length) {
                s.values = Arrays.copyOf(s.values, s.count * 2);
            }
            s.values[s.count++] = value;
        }
        return s;
    }

    public static Double result(State s) {
        if (s.count == 0 || s.fraction == null) {
            return null;
        }
        double f = s.fraction;
        if (!(f >= 0 && f <= 1)) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "percentile value " + PgScalarFunctions.float8Text(f) + " is not between 0 and 1");
        }
        double[] sorted = Arrays.copyOf(s.values, s.count);
        Arrays.sort(sorted);
        double position = f * (s.count - 1);
        int first = (int) Math.floor(position);
        int second = (int) Math.ceil(position);
        double lo = sorted[first];
        double hi = sorted[second];
        return first == second ? lo : lo + (hi - lo) * (position - first);
    }
}
