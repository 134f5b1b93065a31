package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import java.math.BigDecimal;
import java.util.List;

/**
 * SUM of PostgreSQL intervals: months, days and microseconds summed apart, as PostgreSQL's
 * {@code interval_pl} adds them ({@code 1 mon} plus {@code 30 days} is {@code 1 mon 30 days}).
 * Each field is an exact {@link IntegralSumAccumulator}, so removals restore it exactly; a sum
 * whose months or days leave {@code integer} or whose microseconds leave {@code bigint} reads NULL
 * (PostgreSQL would fail the query with 22008; a view cannot) and logs a warning once. Its state
 * is the three fields' states in turn.
 */
final class IntervalSumAccumulator implements Accumulator {
    /** The state's columns: each field's exact sum and its count of values. */
    static final List<DataType> STATE = List.of(
            DataType.NUMERIC, DataType.BIGINT, DataType.NUMERIC, DataType.BIGINT, DataType.NUMERIC, DataType.BIGINT);

    private final IntegralSumAccumulator months;
    private final IntegralSumAccumulator days;
    private final IntegralSumAccumulator micros;

    /** A sum from a stored state row at column {@code at}, or over no values when {@code row} is null. */
    IntervalSumAccumulator(OnceWarning overflow, Object[] row, int at) {
        months = field(DataType.INTEGER, overflow, row, at);
        days = field(DataType.INTEGER, overflow, row, at + 2);
        micros = field(DataType.BIGINT, overflow, row, at + 4);
    }

    private static IntegralSumAccumulator field(DataType type, OnceWarning overflow, Object[] row, int at) {
        return row == null
                ? new IntegralSumAccumulator(type, false, overflow, BigDecimal.ZERO, 0)
                : new IntegralSumAccumulator(type, false, overflow, (BigDecimal) row[at], (Long) row[at + 1]);
    }

    @Override
    public void add(Object value, int sign) {
        Interval iv = (Interval) value;
        months.add(iv.months(), sign);
        days.add(iv.days(), sign);
        micros.add(iv.micros(), sign);
    }

    @Override
    public Object result() {
        Object m = months.result();
        Object d = days.result();
        Object us = micros.result();
        return m == null || d == null || us == null ? null : new Interval((Integer) m, (Integer) d, (Long) us);
    }

    @Override
    public void save(Object[] row, int at) {
        months.save(row, at);
        days.save(row, at + 2);
        micros.save(row, at + 4);
    }
}
