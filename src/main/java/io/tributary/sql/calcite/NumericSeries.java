package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.math.BigDecimal;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * PostgreSQL's {@code generate_series(numeric, numeric [, numeric])}: numeric rows, registered
 * and called as {@link GenerateSeries}' integer overloads are. Each row is the previous one plus
 * the step, so a row's scale is the larger of the start's and the step's ({@code BigDecimal.add}
 * keeps the larger scale, as PostgreSQL's {@code add_var} keeps the larger display scale): {@code
 * generate_series(1, 2, 0.5)} is {@code 1, 1.5, 2.0}. Strict; a zero step is 22023.
 */
public final class NumericSeries extends AbstractTable implements ScannableTable {
    private final BigDecimal start;
    private final BigDecimal stop;
    private final BigDecimal step;

    private NumericSeries(BigDecimal start, BigDecimal stop, BigDecimal step) {
        if (start != null && stop != null && step != null && step.signum() == 0) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        this.start = start;
        this.stop = stop;
        this.step = step;
    }

    /** {@code generate_series(numeric, numeric)}. */
    public static ScannableTable numeric(BigDecimal start, BigDecimal stop) {
        return new NumericSeries(start, stop, BigDecimal.ONE);
    }

    /** {@code generate_series(numeric, numeric, numeric)}. */
    public static ScannableTable numericStep(BigDecimal start, BigDecimal stop, BigDecimal step) {
        return new NumericSeries(start, stop, step);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory
                .builder()
                .add("generate_series", TypeMapping.toRelType(typeFactory, DataType.NUMERIC, false))
                .build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        boolean empty = start == null || stop == null || step == null;
        int direction = empty ? 1 : step.signum();
        return new SeriesRows(() -> new SeriesRows.Cursor() {
            private BigDecimal next = start;

            @Override
            public Object next() {
                if (empty || next.compareTo(stop) * direction > 0) {
                    return null;
                }
                BigDecimal value = next;
                next = next.add(step);
                return value;
            }
        });
    }
}
