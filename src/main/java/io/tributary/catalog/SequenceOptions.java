package io.tributary.catalog;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * How a sequence made by {@code CREATE SEQUENCE} counts: from {@code start} by {@code increment}
 * (negative: down) within {@code [min, max]}, starting over at the other bound with {@code cycle},
 * else failing there. {@code cache} is recorded as given; Tributary hands out values one by one
 * whatever it says, which PostgreSQL's single session cannot tell apart. Immutable.
 */
public record SequenceOptions(long start, long increment, long min, long max, boolean cycle, long cache) {
    /**
     * PostgreSQL's options for a sequence of {@code type} ({@code smallint}, {@code integer} or
     * {@code bigint}) where the given ones (null: not given) are not: bounds from the type and the
     * increment's sign, the start at the bound counting begins from.
     *
     * @throws TributaryException 22023 for options PostgreSQL refuses, with its message
     */
    public static SequenceOptions of(
            String type, Long start, Long increment, Long min, Long max, boolean cycle, Long cache) {
        long inc = increment == null ? 1 : increment;
        if (inc == 0) {
            throw invalid("INCREMENT must not be zero");
        }
        long typeMax = typeMax(type);
        long typeMin = -typeMax - 1;
        long lo = min != null ? min : inc > 0 ? 1 : typeMin;
        long hi = max != null ? max : inc > 0 ? typeMax : -1;
        if (lo < typeMin || lo > typeMax) {
            throw invalid("MINVALUE (" + lo + ") is out of range for sequence data type " + type);
        }
        if (hi < typeMin || hi > typeMax) {
            throw invalid("MAXVALUE (" + hi + ") is out of range for sequence data type " + type);
        }
        if (lo >= hi) {
            throw invalid("MINVALUE (" + lo + ") must be less than MAXVALUE (" + hi + ")");
        }
        long first = start != null ? start : inc > 0 ? lo : hi;
        if (first < lo) {
            throw invalid("START value (" + first + ") cannot be less than MINVALUE (" + lo + ")");
        }
        if (first > hi) {
            throw invalid("START value (" + first + ") cannot be greater than MAXVALUE (" + hi + ")");
        }
        long cached = cache == null ? 1 : cache;
        if (cached <= 0) {
            throw invalid("CACHE (" + cached + ") must be greater than zero");
        }
        return new SequenceOptions(first, inc, lo, hi, cycle, cached);
    }

    /**
     * The options a {@code CREATE SEQUENCE} or {@code ALTER SEQUENCE} statement gives; null where
     * it does not say ({@code NO MINVALUE} and {@code NO MAXVALUE} set {@code noMin}/{@code noMax}).
     */
    public record Given(
            Long start, Long increment, Long min, boolean noMin, Long max, boolean noMax, Boolean cycle, Long cache) {
        /**
         * The options of a sequence of {@code type} after these, over {@code base} (null for a new
         * sequence): what is not given stays as in {@code base}.
         *
         * @throws TributaryException 22023 for options PostgreSQL refuses
         */
        public SequenceOptions over(String type, SequenceOptions base) {
            if (base == null) {
                return of(
                        type,
                        start,
                        increment,
                        noMin ? null : min,
                        noMax ? null : max,
                        Boolean.TRUE.equals(cycle),
                        cache);
            }
            return of(
                    type,
                    start != null ? start : base.start(),
                    increment != null ? increment : base.increment(),
                    noMin ? null : min != null ? min : base.min(),
                    noMax ? null : max != null ? max : base.max(),
                    cycle != null ? cycle : base.cycle(),
                    cache != null ? cache : base.cache());
        }
    }

    /** The options of a sequence of {@code type} given none: 1, 2, ... up to the type's bound. */
    public static SequenceOptions defaults(String type) {
        return of(type, null, null, null, null, false, null);
    }

    /**
     * The value {@code RESTART [WITH value]} makes the next one ({@code value} null: the start).
     *
     * @throws TributaryException 22023 outside the bounds, as PostgreSQL
     */
    public long restart(Long value) {
        long next = value == null ? start : value;
        if (next < min) {
            throw invalid("RESTART value (" + next + ") cannot be less than MINVALUE (" + min + ")");
        }
        if (next > max) {
            throw invalid("RESTART value (" + next + ") cannot be greater than MAXVALUE (" + max + ")");
        }
        return next;
    }

    private static long typeMax(String type) {
        return switch (type) {
            case "smallint" -> Short.MAX_VALUE;
            case "integer" -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }

    private static TributaryException invalid(String message) {
        return new TributaryException(SqlState.INVALID_PARAMETER_VALUE, message);
    }
}
