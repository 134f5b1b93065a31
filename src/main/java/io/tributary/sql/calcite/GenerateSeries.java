package io.tributary.sql.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop [, step])} over integers, as a Calcite table
 * function. Calcite calls the public static {@code eval} methods by reflection while planning.
 */
public final class GenerateSeries extends AbstractTable implements ScannableTable {
    private final long start;
    private final long stop;
    private final long step;

    private GenerateSeries(long start, long stop, long step) {
        if (step == 0) {
            throw new IllegalArgumentException("step size cannot equal zero");
        }
        this.start = start;
        this.stop = stop;
        this.step = step;
    }

    public static ScannableTable eval(long start, long stop) {
        return new GenerateSeries(start, stop, 1);
    }

    public static ScannableTable eval(long start, long stop, long step) {
        return new GenerateSeries(start, stop, step);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory.builder().add("generate_series", SqlTypeName.BIGINT).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return new Enumerator<>() {
                    private long next = start;
                    private Object[] current;

                    @Override
                    public Object[] current() {
                        return current;
                    }

                    @Override
                    public boolean moveNext() {
                        if (step > 0 ? next > stop : next < stop) {
                            return false;
                        }
                        current = new Object[] {next};
                        next += step;
                        return true;
                    }

                    @Override
                    public void reset() {
                        next = start;
                    }

                    @Override
                    public void close() {}
                };
            }
        };
    }
}
