package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SystemTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A system table as Calcite sees it: every scan takes a fresh {@link SystemTable#rows()} snapshot,
 * on the thread executing the query, and Calcite applies filters, ordering and joins.
 */
final class SystemCalciteTable extends AbstractTable implements ScannableTable {
    private final SystemTable table;

    SystemCalciteTable(SystemTable table) {
        this.table = table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (ColumnDef c : table.columns()) {
            b.add(c.name(), TypeMapping.toRelType(typeFactory, c.type(), !c.notNull()));
        }
        return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                List<ColumnDef> columns = table.columns();
                List<Object[]> rows = new ArrayList<>();
                for (Object[] row : table.rows()) {
                    Object[] out = new Object[columns.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = TypeMapping.toCalcite(columns.get(i).type(), row[i]);
                    }
                    rows.add(out);
                }
                return Linq4j.enumerator(rows);
            }
        };
    }
}
