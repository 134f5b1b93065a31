package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop [, step])} over {@code integer} and
 * {@code bigint}, as Calcite table functions ({@link NumericSeries} does {@code numeric}).
 * {@link CatalogSchema#registerFunctions} registers each public static method under the name
 * {@code generate_series}; Calcite picks the overload by the arguments' types as PostgreSQL does
 * (two integers give integer rows, a bigint argument bigint rows) and calls it by reflection, once
 * while planning (with the constant arguments, {@code null} for any other) for the row type and
 * again in the generated code for the rows. As PostgreSQL's, the function is strict (a NULL
 * argument gives no rows), a zero step is 22023, and the series ends at the last value before the
 * next would overflow its type, without an error.
 */
public final class GenerateSeries extends AbstractTable implements ScannableTable {
    private final long start;
    private final long stop;
    private final long step;
    /** A NULL argument: no rows. */
    private final boolean empty;
    /** INTEGER (rows of {@code Integer}) or BIGINT (rows of {@code Long}). */
    private final SqlTypeName type;

    private GenerateSeries(Number start, Number stop, Number step, SqlTypeName type) {
        this.empty = start == null || stop == null || step == null;
        this.start = empty ? 0 : start.longValue();
        this.stop = empty ? 0 : stop.longValue();
        this.step = empty ? 1 : step.longValue();
        this.type = type;
        if (!empty && this.step == 0) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
    }

    /** {@code generate_series(integer, integer)}: integer rows. */
    public static ScannableTable int4(Integer start, Integer stop) {
        return new GenerateSeries(start, stop, 1, SqlTypeName.INTEGER);
    }

    /** {@code generate_series(integer, integer, integer)}: integer rows. */
    public static ScannableTable int4Step(Integer start, Integer stop, Integer step) {
        return new GenerateSeries(start, stop, step, SqlTypeName.INTEGER);
    }

    /** {@code generate_series(bigint, bigint)}: bigint rows. */
    public static ScannableTable int8(Long start, Long stop) {
        return new GenerateSeries(start, stop, 1L, SqlTypeName.BIGINT);
    }

    /** {@code generate_series(bigint, bigint, bigint)}: bigint rows. */
    public static ScannableTable int8Step(Long start, Long stop, Long step) {
        return new GenerateSeries(start, stop, step, SqlTypeName.BIGINT);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory.builder().add("generate_series", type).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        boolean ints = type == SqlTypeName.INTEGER;
        return new SeriesRows(() -> new SeriesRows.Cursor() {
            private long next = start;
            /** The previous value was the last: the next one would overflow. */
            private boolean done = empty;

            @Override
            public Object next() {
                if (done || (step > 0 ? next > stop : next < stop)) {
                    return null;
                }
                Object value = ints ? (Object) (int) next : (Object) next;
                // integer bounds and steps cannot overflow a long; bigint ones can (PostgreSQL
                // ends the series there)
                long after = next + step;
                if (((next ^ after) & (step ^ after)) < 0) {
                    done = true;
                } else {
                    next = after;
                }
                return value;
            }
        });
    }
}
