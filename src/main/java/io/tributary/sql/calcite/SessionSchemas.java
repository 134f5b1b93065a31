package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.SearchPath;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.pg.PgCatalog;
import io.tributary.catalog.pg.PgSession;
import io.tributary.catalog.pg.PgTable;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTimeZone;
import io.tributary.sql.ReadContext;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

/**
 * The Calcite connection of one session and the schemas registered in it: the catalog's relations
 * by qualified name, what the session's search path reaches (Calcite's default schema), the
 * schema with hidden columns DML is planned over, peer databases, system tables, {@code
 * pg_catalog}, {@code information_schema} and one schema per user schema. Owned by one {@link
 * CalciteFrontend}; not thread-safe.
 */
final class SessionSchemas implements AutoCloseable {
    /** Schema with hidden columns, for the queries DML is planned into; not reachable unquoted. */
    static final String FULL_SCHEMA = "$full";
    /** Calcite's default schema: what the session's search path reaches ({@link CatalogSchema#searchPath}). */
    private static final String SEARCH_PATH_SCHEMA = "$path";

    private final Catalog catalog;
    private final ReadContext context;
    private final CalciteConnection connection;
    private final PgCatalog pgCatalog;
    private final PgSession session;

    /**
     * Opens the session's Calcite connection and registers every schema but the user schemas
     * ({@link #addUserSchemas}).
     *
     * @param systemTables shown read-only as schema {@link SystemTables#SCHEMA}
     * @param session the session whose user and settings {@code pg_catalog} shows
     */
    SessionSchemas(Catalog catalog, SystemTables systemTables, ReadContext context, PgSession session) {
        this.catalog = catalog;
        this.context = context;
        this.session = session;
        Properties props = CalciteSettings.connectionProperties();
        try {
            this.connection =
                    new PgCalciteDriver().connect("jdbc:calcite:", props).unwrap(CalciteConnection.class);
            SchemaPlus root = connection.getRootSchema();
            PgCatalog pg = new PgCatalog(catalog, session, CatalogSchema::functionNames);
            this.pgCatalog = pg;
            root.add(Catalog.SCHEMA, CatalogSchema.of(catalog, Catalog.SCHEMA, context, pg::sequenceRelations))
                    .setCacheEnabled(false);
            root.add(
                            SEARCH_PATH_SCHEMA,
                            CatalogSchema.searchPath(catalog, this::searchPath, context, pg::sequenceRelations))
                    .setCacheEnabled(false);
            root.add(FULL_SCHEMA, CatalogSchema.full(catalog, context)).setCacheEnabled(false);
            root.add(PeerDatabasesSchema.NAME, new PeerDatabasesSchema(catalog, context))
                    .setCacheEnabled(false);
            CatalogSchema.registerFunctions(root);
            BackendSignals.register(root, session);
            TransactionIdFunctions.register(root, session);
            CurrentTimes.registerSession(root, session);
            SessionRandom.registerSession(root);
            root.add(SystemTables.SCHEMA, new SystemSchema(systemTables)).setCacheEnabled(false);
            root.add(PgCatalog.SCHEMA, new PgCatalogSchema(pg::tables)).setCacheEnabled(false);
            // PostgreSQL searches pg_catalog for unqualified names too; Calcite searches the root after public
            for (PgTable t : pg.tables()) {
                root.add(t.name(), new PgCalciteTable(t));
            }
            root.add("information_schema", new PgCatalogSchema(pg::informationSchemaTables))
                    .setCacheEnabled(false);
            PgTable definitions = pg.definitions(PgCatalogCalls.DEFINITIONS_SCHEMA);
            List<PgTable> hidden = new java.util.ArrayList<>(pg.sizes(PgCatalogCalls.DEFINITIONS_SCHEMA));
            hidden.add(definitions);
            List<PgTable> hiddenTables = List.copyOf(hidden);
            root.add(PgCatalogCalls.DEFINITIONS_SCHEMA, new PgCatalogSchema(() -> hiddenTables))
                    .setCacheEnabled(false);
            PgTypeAliases.register(root);
            connection.setSchema(SEARCH_PATH_SCHEMA);
        } catch (SQLException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot start the SQL engine: " + e.getMessage(), e);
        }
    }

    /** The session's Calcite connection, to prepare statements on. */
    CalciteConnection connection() {
        return connection;
    }

    /** The session's {@code pg_catalog}. */
    PgCatalog pgCatalog() {
        return pgCatalog;
    }

    /** The session's search path resolved against the catalog as of now. */
    SearchPath searchPath() {
        return SearchPath.resolve(catalog, session.user(), session.setting("search_path"));
    }

    /**
     * The catalog key of the relation Calcite names {@code table} in its schema {@code schema} (as
     * a result column's origin names it): the search path's schema resolves the name as the path
     * does now, the full schema names keys, a user schema its local names.
     */
    String catalogKey(String schema, String table) {
        if (schema == null || schema.isEmpty() || schema.equals(SEARCH_PATH_SCHEMA)) {
            return catalog.resolve(searchPath(), table);
        }
        return schema.equals(FULL_SCHEMA) ? table : Catalog.key(schema, table);
    }

    /**
     * The session's TimeZone as of now. Also makes it the zone of Calcite's current time ({@code
     * localtimestamp}, {@code current_date}: the local time there, as PostgreSQL's cast to
     * timestamp gives it) and of any conversion left to Calcite: Calcite
     * reads the connection's {@code timeZone} property into each statement's DataContext. Called
     * as a statement is parsed; a change of the zone invalidates the session's plans, so none
     * runs before the property follows it.
     */
    PgTimeZone timeZone() {
        PgTimeZone zone = PgTimeZone.parse(session.setting("timezone"));
        String id = zone.zone() instanceof ZoneOffset offset
                ? (offset.getTotalSeconds() == 0 ? "UTC" : "GMT" + offset.getId())
                : zone.zone().getId();
        connection.getProperties().setProperty("timeZone", id);
        return zone;
    }

    /** The rewrite of catalog functions for one statement, with the session's search path as of now. */
    PgCatalogCalls catalogCalls() {
        return new PgCatalogCalls(
                session.user(),
                catalog.database(),
                pgCatalog::relationOid,
                this::isSetting,
                searchPath(),
                name -> io.tributary.catalog.pg.PgOids.namespace(catalog, name),
                session.processId(),
                session.endpoints());
    }

    /** Whether {@code name} (lower case) is one of the session's settings. */
    private boolean isSetting(String name) {
        return session.settings().stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * Makes every schema of the database reachable by qualified names: one Calcite schema per
     * schema made by CREATE SCHEMA, added the first time a statement sees it (a dropped schema's
     * stays, listing nothing, so its names fail with 42P01 as PostgreSQL's do).
     */
    void addUserSchemas() {
        SchemaPlus root = connection.getRootSchema();
        for (SchemaDef schema : catalog.schemas()) {
            if (root.subSchemas().get(schema.name()) == null) {
                root.add(schema.name(), CatalogSchema.of(catalog, schema.name(), context, pgCatalog::sequenceRelations))
                        .setCacheEnabled(false);
            }
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // closing an in-process Calcite connection releases nothing external
        }
    }
}
