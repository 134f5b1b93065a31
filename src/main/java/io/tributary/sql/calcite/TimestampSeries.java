package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop, step)} over timestamps, as a Calcite table
 * function. {@link PgValueSemantics} turns a call whose bounds are date or timestamp literals and
 * whose step is an interval literal into {@code pg_timestamp_series} (two timestamps: rows of type
 * timestamp) or {@code pg_timestamptz_series} (two dates: PostgreSQL picks its timestamptz
 * variant), with the bounds as epoch milliseconds and the step as months and milliseconds, the two
 * kinds of Calcite's intervals. As in PostgreSQL, each row is the previous one plus the step (so
 * {@code 2024-01-31} plus one month twice is {@code 2024-03-29}). Calcite calls the public static
 * {@code eval} methods by reflection while planning.
 */
public final class TimestampSeries extends AbstractTable implements ScannableTable {
    private final long startMillis;
    private final long stopMillis;
    private final long months;
    private final long millis;
    private final SqlTypeName type;

    private TimestampSeries(long startMillis, long stopMillis, long months, long millis, SqlTypeName type) {
        if (months == 0 && millis == 0) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        this.startMillis = startMillis;
        this.stopMillis = stopMillis;
        this.months = months;
        this.millis = millis;
        this.type = type;
    }

    /** Timestamps from {@code start} to {@code stop} (epoch milliseconds, UTC) by months and milliseconds. */
    public static ScannableTable timestamps(long start, long stop, long months, long millis) {
        return new TimestampSeries(start, stop, months, millis, SqlTypeName.TIMESTAMP);
    }

    /** As {@link #timestamps}, typed timestamptz. */
    public static ScannableTable zoned(long start, long stop, long months, long millis) {
        return new TimestampSeries(start, stop, months, millis, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory.builder().add("generate_series", type).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        // PostgreSQL orders intervals by their length with a month as 30 days
        boolean ascending = months * 30 * 86_400_000L + millis > 0;
        return new SeriesRows(() -> new SeriesRows.Cursor() {
            private LocalDateTime next = at(startMillis);

            @Override
            public Object next() {
                long value = next.toInstant(ZoneOffset.UTC).toEpochMilli();
                if (ascending ? value > stopMillis : value < stopMillis) {
                    return null;
                }
                next = next.plusMonths(months).plusNanos(millis * 1_000_000L);
                // a row's timestamp is microseconds, as MicrosecondPlans has plans hold them
                return value * 1000L;
            }
        });
    }

    private static LocalDateTime at(long epochMillis) {
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(epochMillis, 1000L), (int) Math.floorMod(epochMillis, 1000L) * 1_000_000, ZoneOffset.UTC);
    }
}
