package io.tributary.sql.calcite;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgTable;
import io.tributary.sql.ReadContext;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.schema.impl.TableFunctionImpl;

/**
 * Schema {@code public} for Calcite, read from the catalog at every lookup so that DDL is seen by
 * the next statement. With {@code full} set it exposes hidden columns (internal DML queries only).
 * The sequences of SERIAL and identity columns are relations here too, as in PostgreSQL.
 */
final class CatalogSchema extends AbstractSchema {
    private final Catalog catalog;
    private final ReadContext context;
    private final boolean full;
    private final Supplier<List<PgTable>> sequences;

    /** @param sequences the sequence relations ({@code PgCatalog#sequenceRelations}), read at every lookup */
    CatalogSchema(Catalog catalog, ReadContext context, boolean full, Supplier<List<PgTable>> sequences) {
        this.catalog = catalog;
        this.context = context;
        this.full = full;
        this.sequences = sequences;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> map = new LinkedHashMap<>();
        for (TableDef t : catalog.tables()) {
            map.put(t.name(), new CatalogTable(t, context, full, () -> catalog.unreadable(t.id())));
        }
        for (PgTable q : sequences.get()) {
            map.putIfAbsent(q.name(), new PgCalciteTable(q));
        }
        return map;
    }

    @Override
    protected Multimap<String, Function> getFunctionMultimap() {
        ImmutableMultimap.Builder<String, Function> b = ImmutableMultimap.builder();
        for (Method m : GenerateSeries.class.getMethods()) {
            if (m.getName().equals("eval")) {
                b.put("generate_series", TableFunctionImpl.create(m));
            }
        }
        // generate_series over timestamps, under the names PgValueSemantics gives such calls
        b.put("pg_options_to_table", TableFunctionImpl.create(PgOptionsTable.class, "eval"));
        b.put("pg_timestamp_series", TableFunctionImpl.create(TimestampSeries.class, "timestamps"));
        b.put("pg_timestamptz_series", TableFunctionImpl.create(TimestampSeries.class, "zoned"));
        for (Class<?> functions : List.of(PgFunctions.class, PgCatalogFunctions.class)) {
            for (Method m : functions.getMethods()) {
                if (m.getDeclaringClass() == functions) {
                    b.put(m.getName(), ScalarFunctionImpl.create(m));
                }
            }
        }
        return b.build();
    }

    /** The names of the functions this schema adds to Calcite's, as {@code pg_proc} lists them. */
    static List<String> functionNames() {
        List<String> names = new java.util.ArrayList<>(List.of("generate_series", "pg_options_to_table"));
        for (Class<?> functions : List.of(PgFunctions.class, PgCatalogFunctions.class)) {
            for (Method m : functions.getMethods()) {
                if (m.getDeclaringClass() == functions) {
                    names.add(m.getName());
                }
            }
        }
        return names;
    }
}
