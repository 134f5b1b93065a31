package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgColumn;
import io.tributary.catalog.pg.PgTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A {@code pg_catalog} or {@code information_schema} relation as Calcite sees it: each scan
 * computes the rows afresh from the live catalog; array columns are Calcite arrays (lists).
 */
final class PgCalciteTable extends AbstractTable implements ScannableTable {
    private final PgTable table;

    PgCalciteTable(PgTable table) {
        this.table = table;
    }

    /**
     * PostgreSQL's name of column {@code column}'s type, as {@code pg_typeof} prints it ({@code
     * name}, {@code "char"}, {@code oid}, {@code text[]}), or null when the relation has no such
     * column or its type is not in {@code pg_type}.
     */
    String typeName(String column) {
        for (PgColumn c : table.columns()) {
            if (c.name().equalsIgnoreCase(column)) {
                return c.typeOid() == 0 ? null : io.tributary.catalog.pg.PgTypes.formatType((long) c.typeOid(), null);
            }
        }
        return null;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (PgColumn c : table.columns()) {
            RelDataType type = TypeMapping.toRelType(typeFactory, c.type(), true);
            if (c.vector()) {
                b.add(c.name(), new Int2VectorType(type));
            } else {
                b.add(
                        c.name(),
                        c.array()
                                ? typeFactory.createTypeWithNullability(typeFactory.createArrayType(type, -1), true)
                                : type);
            }
        }
        return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        List<PgColumn> columns = table.columns();
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : table.rows().get()) {
            Object[] out = new Object[columns.size()];
            for (int i = 0; i < out.length; i++) {
                PgColumn c = columns.get(i);
                out[i] = (c.array() || c.vector()) && row[i] != null
                        ? ((List<?>) row[i])
                                .stream()
                                        .map(v -> TypeMapping.toCalcite(c.type(), v))
                                        .toList()
                        : TypeMapping.toCalcite(c.type(), row[i]);
            }
            rows.add(out);
        }
        return Linq4j.asEnumerable(rows);
    }
}
