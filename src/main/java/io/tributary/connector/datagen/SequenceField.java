package io.tributary.connector.datagen;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;

/**
 * {@code fields.<col>.kind = 'sequence'}: row {@code s} gets {@code start + s} steps, up to
 * {@code end} inclusive, where a step is 1 for numbers and text (the number as text), one day
 * for dates and one second for timestamps.
 */
final class SequenceField implements FieldGenerator {
    private final DataType type;
    /** Start and end in steps' units: the integer, the day number, the timestamp's micros. */
    private final long start;

    private final long step;
    private final long rowLimit;

    /**
     * @param start the first value in the column's canonical form (text columns: the number's text)
     * @param end the last value, or null for none (the type's largest)
     */
    SequenceField(DataType type, long start, Long end) {
        this.type = type;
        this.start = start;
        this.step = switch (type.kind()) {
            case TIMESTAMP, TIMESTAMPTZ -> 1_000_000L;
            default -> 1;
        };
        long last = end != null ? end : largest(type);
        this.rowLimit = last < start ? 0 : rows(start, last, step);
    }

    private static long rows(long start, long last, long step) {
        long span = last - start; // may overflow for huge ranges: then the field is practically endless
        return span < 0 ? Long.MAX_VALUE : span / step == Long.MAX_VALUE ? Long.MAX_VALUE : span / step + 1;
    }

    private static long largest(DataType type) {
        return switch (type.kind()) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER, DATE -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }

    @Override
    public long rowLimit() {
        return rowLimit;
    }

    @Override
    public Object value(long sequence) {
        long v = start + sequence * step;
        return switch (type.kind()) {
            case SMALLINT -> (short) v;
            case INTEGER, DATE -> (int) v;
            case BIGINT, TIMESTAMP, TIMESTAMPTZ -> v;
            case REAL -> (float) v;
            case DOUBLE -> (double) v;
            case NUMERIC -> BigDecimal.valueOf(v);
            case TEXT, VARCHAR -> Long.toString(v);
            default -> throw new IllegalStateException("no sequence of type " + type);
        };
    }
}
