package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_options_to_table(options text[])}: each {@code name=value} of a catalog's
 * options column as a row {@code (option_name, option_value)}; an entry without {@code =} has a
 * NULL value. Calcite calls the public static {@code eval} by reflection while planning.
 */
public final class PgOptionsTable extends AbstractTable implements ScannableTable {
    private final List<Object[]> rows;

    private PgOptionsTable(List<Object[]> rows) {
        this.rows = rows;
    }

    /**
     * @param options the entries; a constant array reaches here while planning with Calcite's
     *     literal strings as elements
     */
    public static ScannableTable eval(List<?> options) {
        List<Object[]> rows = new ArrayList<>();
        if (options != null) {
            for (Object entry : options) {
                String option =
                        entry instanceof org.apache.calcite.util.NlsString nls ? nls.getValue() : String.valueOf(entry);
                int eq = option.indexOf('=');
                rows.add(
                        eq < 0
                                ? new Object[] {option, null}
                                : new Object[] {option.substring(0, eq), option.substring(eq + 1)});
            }
        }
        return new PgOptionsTable(rows);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataType text = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true);
        return typeFactory
                .builder()
                .add("option_name", text)
                .add("option_value", text)
                .build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows);
    }
}
