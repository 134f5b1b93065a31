package io.tributary.sql.calcite;

import io.tributary.batch.Snapshot;
import io.tributary.catalog.Catalog;
import io.tributary.sql.ReadContext;
import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Validates a view's query against the catalog and converts it to relational algebra, with the
 * operator tables, type system and settings of the session's SELECT path ({@link CalciteSettings})
 * so a view computes what the same SELECT returns. Subqueries stay {@code RexSubQuery} nodes for
 * the normalising rules to remove. One instance per planned query; not thread-safe.
 */
final class ViewQueryConverter {
    /** Planning only validates: a view's query is never executed through Calcite's engine. */
    private static final ReadContext NO_READS = new ReadContext() {
        @Override
        public Snapshot snapshot() {
            throw new IllegalStateException("view queries are planned, not read");
        }

        @Override
        public Snapshot snapshot(String database) {
            throw new IllegalStateException("view queries are planned, not read");
        }

        @Override
        public io.tributary.sql.StatementControl control() {
            throw new IllegalStateException("view queries are planned, not run");
        }
    };

    private final JavaTypeFactory typeFactory;
    private final CalciteCatalogReader catalogReader;
    private final PgValidator validator;
    private final RelOptCluster cluster;
    /** Calcite's, or {@link FloatZeroSums} where {@link ViewPlanningBuild#pgZeroSums}. */
    private final SqlRexConvertletTable convertlets;

    ViewQueryConverter(Catalog catalog) {
        this(catalog, ViewPlanningBuild.CURRENT);
    }

    /**
     * A converter typing and folding constants as {@code build} did (see {@link
     * CalciteViewPlanner#planAsEarlierBuild}).
     */
    ViewQueryConverter(Catalog catalog, ViewPlanningBuild build) {
        this.typeFactory = new PgJavaTypeFactory(build.types());
        CalciteConnectionConfig config = new CalciteConnectionConfigImpl(CalciteSettings.connectionProperties());
        CalciteSchema root = CalciteSchema.createRootSchema(false, true);
        root.add(Catalog.SCHEMA, CatalogSchema.of(catalog, Catalog.SCHEMA, NO_READS, s -> List.of()));
        // a view's query may name relations of other schemas; its unqualified names read public
        for (io.tributary.catalog.SchemaDef schema : catalog.schemas()) {
            root.add(schema.name(), CatalogSchema.of(catalog, schema.name(), NO_READS, s -> List.of()));
        }
        CatalogSchema.registerFunctions(root.plus());
        // three-part names of other databases' tables; DatabaseQualifiedNames kept them as written
        for (io.tributary.catalog.DatabaseEntry db : catalog.databases()) {
            if (!db.name().equals(catalog.database()) && !db.name().equals(Catalog.SCHEMA)) {
                catalog.peer(db.name()).ifPresent(peer -> root.add(db.name(), new ForeignDatabaseSchema(peer)));
            }
        }
        PgTypeAliases.register(root.plus());
        this.catalogReader = new CalciteCatalogReader(root, List.of(Catalog.SCHEMA), typeFactory, config);
        SqlOperatorTable operators = SqlOperatorTables.chain(
                config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()),
                AtTimeZoneCalls.operators(false),
                SqlOperatorTables.of(TemporalJoins.PROCTIME_FUNCTION),
                catalogReader);
        this.validator = new PgValidator(
                operators,
                catalogReader,
                typeFactory,
                PgTypeCoercion.narrowed(SqlValidator.Config.DEFAULT
                        .withLenientOperatorLookup(config.lenientOperatorLookup())
                        .withConformance(config.conformance())
                        .withDefaultNullCollation(config.defaultNullCollation())
                        .withIdentifierExpansion(true)),
                build);
        HepPlanner planner = new HepPlanner(HepProgram.builder().build());
        planner.setExecutor(new PgConstantFolding(build));
        this.cluster = RelOptCluster.create(planner, new RexBuilder(typeFactory));
        this.convertlets = build.pgZeroSums() ? FloatZeroSums.INSTANCE : StandardConvertletTable.INSTANCE;
    }

    /** The validator of {@link #validate}, which knows the validated nodes' types. */
    SqlValidator validator() {
        return validator;
    }

    /** PostgreSQL's names of the columns of the query {@link #validate} last validated ({@link PgValidator#ownColumnNames}). */
    List<String> ownColumnNames() {
        return validator.ownColumnNames();
    }

    RelOptCluster cluster() {
        return cluster;
    }

    /**
     * @return the query with its names resolved and {@code *} expanded
     * @throws RuntimeException Calcite's validation errors, for {@link SqlErrors#translate}
     */
    SqlNode validate(SqlNode query) {
        return validator.validate(query);
    }

    /** Converts a query {@link #validate} returned. */
    RelRoot convert(SqlNode validated) {
        SqlToRelConverter converter = new SqlToRelConverter(
                (rowType, queryString, schemaPath, viewPath) -> {
                    throw new IllegalStateException("the catalog has no Calcite views to expand");
                },
                validator,
                catalogReader,
                cluster,
                convertlets,
                SqlToRelConverter.config()
                        .withExpand(false)
                        // IN lists stay comparisons: a VALUES relation could not be maintained
                        .withInSubQueryThreshold(Integer.MAX_VALUE)
                        .withTrimUnusedFields(false));
        return converter.convertQuery(validated, false, true);
    }
}
