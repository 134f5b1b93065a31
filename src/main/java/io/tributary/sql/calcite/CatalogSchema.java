package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SearchPath;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgTable;
import io.tributary.sql.ReadContext;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.schema.impl.TableFunctionImpl;

/**
 * The catalog's relations for Calcite, read from the catalog at every lookup so that DDL is seen
 * by the next statement. Three shapes: one schema of the database (its relations by their names in
 * it), the session's search path (the relations its unqualified names reach, the first schema of
 * the path winning, as PostgreSQL resolves them; Calcite's default schema), or with {@code full}
 * every relation under its catalog key with hidden columns exposed (internal DML queries only).
 * Built-in functions are not here but in the root ({@link #registerFunctions}), so that they are
 * found whatever the search path holds. The sequences of SERIAL and identity columns are
 * relations of their table's schema too, as in PostgreSQL.
 */
final class CatalogSchema extends AbstractSchema {
    /** The classes whose public static methods are registered as SQL functions, in lookup order. */
    private static final List<Class<?>> FUNCTION_CLASSES = List.of(
            PgFunctions.class,
            PgCatalogFunctions.class,
            PgIntervalFunctions.class,
            PgAge.class,
            PgNumberFunctions.class,
            PgSizeFunctions.class,
            PgTextFunctions.class,
            PgNumericFunctions.class,
            PgByteaFunctions.class,
            PgDateFunctions.class,
            PgExtractFunctions.class,
            PgOperatorFunctions.class,
            PgConcatText.class,
            PgFormat.class,
            PgArrayFunctions.class,
            PgUuidFunctions.class,
            PgJsonFunctions.class,
            PgJsonbOperators.class,
            PgArrayContainment.class);

    /** The functions {@link #registerFunctions} adds that return rows, called in FROM (lower case). */
    static final java.util.Set<String> TABLE_FUNCTIONS = java.util.Set.of(
            "generate_series",
            "pg_options_to_table",
            PgPartitionAncestors.NAME,
            "pg_timestamp_series",
            "pg_timestamptz_series",
            "json_each",
            "json_each_text",
            "jsonb_each",
            "jsonb_each_text",
            "json_array_elements",
            "json_array_elements_text",
            "jsonb_array_elements",
            "jsonb_array_elements_text",
            "json_object_keys",
            "jsonb_object_keys",
            PgRegexpMatches.NAME);

    private final Catalog catalog;
    private final ReadContext context;
    private final boolean full;
    /** The schemas listed, in lookup order, read at every lookup. */
    private final Supplier<List<String>> schemas;
    /** The sequence relations of a schema ({@code PgCatalog#sequenceRelations}), read at every lookup. */
    private final Function<String, List<PgTable>> sequences;

    private CatalogSchema(
            Catalog catalog,
            ReadContext context,
            boolean full,
            Supplier<List<String>> schemas,
            Function<String, List<PgTable>> sequences) {
        this.catalog = catalog;
        this.context = context;
        this.full = full;
        this.schemas = schemas;
        this.sequences = sequences;
    }

    /** Schema {@code schema} of the database, with the sequences {@code sequences} gives for it. */
    static CatalogSchema of(
            Catalog catalog, String schema, ReadContext context, Function<String, List<PgTable>> sequences) {
        return new CatalogSchema(catalog, context, false, () -> List.of(schema), sequences);
    }

    /** The relations unqualified names reach under the search path {@code path} supplies. */
    static CatalogSchema searchPath(
            Catalog catalog,
            Supplier<SearchPath> path,
            ReadContext context,
            Function<String, List<PgTable>> sequences) {
        return new CatalogSchema(catalog, context, false, () -> path.get().explicit(), sequences);
    }

    /** Every relation under its catalog key, hidden columns included. */
    static CatalogSchema full(Catalog catalog, ReadContext context) {
        return new CatalogSchema(catalog, context, true, null, s -> List.of());
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> map = new LinkedHashMap<>();
        if (full) {
            for (TableDef t : catalog.tables()) {
                map.put(t.name(), new CatalogTable(t, context, true, () -> catalog.unreadable(t.id())));
            }
            return map;
        }
        for (String schema : schemas.get()) {
            for (TableDef t : catalog.tablesIn(schema)) {
                map.putIfAbsent(t.localName(), new CatalogTable(t, context, false, () -> catalog.unreadable(t.id())));
            }
            for (PgTable q : sequences.apply(schema)) {
                map.putIfAbsent(q.name(), new PgCalciteTable(q));
            }
        }
        return map;
    }

    /**
     * Adds the functions Tributary defines beyond Calcite's to {@code root}, where every statement's
     * unqualified calls find them. Called once per Calcite root, by its owner, before planning.
     */
    static void registerFunctions(SchemaPlus root) {
        // generate_series' overloads, one Calcite function each: validation picks one by the
        // arguments' types (integer before bigint before numeric, as PostgreSQL's resolution does)
        for (String m : List.of("int4", "int4Step", "int8", "int8Step")) {
            root.add("generate_series", TableFunctionImpl.create(GenerateSeries.class, m));
        }
        root.add("generate_series", TableFunctionImpl.create(NumericSeries.class, "numeric"));
        root.add("generate_series", TableFunctionImpl.create(NumericSeries.class, "numericStep"));
        // generate_series over timestamps, under the names PgValueSemantics gives such calls
        root.add(PgTypeOf.NAME, new PgTypeOf());
        root.add(
                TypeOfArguments.NAMED,
                org.apache.calcite.schema.impl.ScalarFunctionImpl.create(TypeOfArguments.class, "named"));
        root.add(
                TypeOfArguments.NAMED_AFTER,
                org.apache.calcite.schema.impl.ScalarFunctionImpl.create(TypeOfArguments.class, "namedAfter"));
        root.add(PgColumnSize.NAME, new PgColumnSize());
        root.add(AtTimeZoneCalls.LOCAL, AtTimeZoneCalls.function(AtTimeZoneCalls.LOCAL));
        root.add(AtTimeZoneCalls.INSTANT, AtTimeZoneCalls.function(AtTimeZoneCalls.INSTANT));
        root.add("pg_options_to_table", TableFunctionImpl.create(PgOptionsTable.class, "eval"));
        root.add(PgPartitionAncestors.NAME, TableFunctionImpl.create(PgPartitionAncestors.class, "eval"));
        root.add("pg_timestamp_series", TableFunctionImpl.create(TimestampSeries.class, "timestamps"));
        root.add("pg_timestamptz_series", TableFunctionImpl.create(TimestampSeries.class, "zoned"));
        // PostgreSQL's aggregates over intervals, under the names IntervalCalls gives such calls
        root.add("pg_percentile_cont", AggregateFunctionImpl.create(PgPercentiles.class));
        PgOrderedSets.register(root);
        PgRegressionAggregates.BY_NAME.forEach(
                (name, c) -> root.add(RegressionCalls.PREFIX + name, AggregateFunctionImpl.create(c)));
        root.add("pg_interval_sum", AggregateFunctionImpl.create(PgIntervalAggregates.Sum.class));
        root.add("pg_interval_avg", AggregateFunctionImpl.create(PgIntervalAggregates.Avg.class));
        root.add("pg_interval_min", AggregateFunctionImpl.create(PgIntervalAggregates.Min.class));
        root.add("pg_interval_max", AggregateFunctionImpl.create(PgIntervalAggregates.Max.class));
        for (Method m : JsonTableFunctions.class.getMethods()) {
            if (m.getDeclaringClass() == JsonTableFunctions.class) {
                root.add(m.getName(), TableFunctionImpl.create(m));
            }
        }
        PgRegexpMatch.register(root);
        for (Method m : PgRegexpMatches.class.getMethods()) {
            if (m.getName().equals(PgRegexpMatches.NAME)) {
                root.add(PgRegexpMatches.NAME, TableFunctionImpl.create(m));
            }
        }
        PgFormattingCalls.register(root);
        PgTextArrays.register(root);
        PgVarianceFunctions.register(root);
        CurrentTimes.registerFunctions(root);
        SessionRandom.registerFunctions(root);
        TimeEndOfDay.register(root);
        InfinityConstants.register(root);
        for (Class<?> functions : FUNCTION_CLASSES) {
            for (Method m : functions.getMethods()) {
                if (m.getDeclaringClass() == functions) {
                    root.add(m.getName(), MicrosecondParameters.of(m));
                }
            }
        }
    }

    /** The names of the functions {@link #registerFunctions} adds, as {@code pg_proc} lists them. */
    static List<String> functionNames() {
        List<String> names = new java.util.ArrayList<>(List.of(
                "generate_series",
                "pg_options_to_table",
                PgPartitionAncestors.NAME,
                "regexp_match",
                PgTypeOf.NAME,
                PgColumnSize.NAME,
                "pg_cancel_backend",
                "pg_terminate_backend",
                "to_char",
                "to_date",
                "to_timestamp",
                "random",
                "setseed"));
        names.addAll(PgTextArrays.names());
        for (Method m : JsonTableFunctions.class.getMethods()) {
            if (m.getDeclaringClass() == JsonTableFunctions.class) {
                names.add(m.getName());
            }
        }
        for (Class<?> functions : FUNCTION_CLASSES) {
            for (Method m : functions.getMethods()) {
                if (m.getDeclaringClass() == functions) {
                    names.add(m.getName());
                }
            }
        }
        return names;
    }
}
