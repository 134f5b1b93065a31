package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SchemaDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code CREATE SCHEMA} and {@code DROP SCHEMA}: each statement's records commit in one epoch of the
 * database, so a schema is whole or absent after any crash. What a schema holds is dropped before
 * it, by the session ({@code server.session.SchemaDrops}).
 * Called by {@link DdlController} on session threads; thread-safe.
 */
final class SchemaDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;

    SchemaDdl(CatalogService catalogService, BarrierManager barriers) {
        this.catalogService = catalogService;
        this.barriers = barriers;
    }

    /**
     * Creates schema {@code name}; returns once durable.
     *
     * @return false when it exists and {@code ifNotExists} was set (nothing is done)
     * @throws TributaryException 42P06 when it exists, 42939 for a name starting with {@code pg_}
     */
    boolean create(String name, boolean ifNotExists) throws InterruptedException {
        // checked before existence, as PostgreSQL does: CREATE SCHEMA [IF NOT EXISTS] pg_catalog is 42939 too
        if (name.startsWith("pg_")) {
            throw new TributaryException(
                    SqlState.RESERVED_NAME,
                    "unacceptable schema name \"" + name + "\"",
                    0,
                    "The prefix \"pg_\" is reserved for system schemas.",
                    null,
                    null);
        }
        if (!catalogService.reserveSchema(name, ifNotExists)) {
            return false;
        }
        try {
            SchemaDef schema = new SchemaDef(name, catalogService.allocateIds(1));
            barriers.awaitCommitted(barriers.stage(new NewSchema(schema)));
        } finally {
            catalogService.releaseSchema(name);
        }
        return true;
    }

    /**
     * Drops the named schemas in one epoch; returns once durable.
     *
     * @return the names that did not exist (skipped, with {@code ifExists})
     * @throws TributaryException 3F000 for a missing schema without {@code ifExists}; 2BP01 for
     *     {@code pg_catalog}; 0A000 for the other built-in schemas
     */
    List<String> drop(List<String> names, boolean ifExists) throws InterruptedException {
        Catalog catalog = catalogService.catalog();
        List<String> dropped = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (name.equals("pg_catalog")) {
                throw new TributaryException(
                        SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop schema pg_catalog because it is required by the database system");
            }
            if (SchemaDef.BUILT_IN.contains(name)) {
                throw TributaryException.notSupported("DROP SCHEMA " + name + " (a built-in schema)");
            }
            if (catalog.schema(name).isEmpty()) {
                if (!ifExists) {
                    throw new TributaryException(
                            SqlState.INVALID_SCHEMA_NAME, "schema \"" + name + "\" does not exist");
                }
                missing.add(name);
            } else if (!dropped.contains(name)) {
                dropped.add(name);
            }
        }
        if (!dropped.isEmpty()) {
            barriers.awaitCommitted(barriers.stage(new DroppedSchemas(dropped)));
        }
        return missing;
    }

    /** A schema's record, published once durable. */
    private final class NewSchema implements EpochChange {
        private final SchemaDef schema;

        NewSchema(SchemaDef schema) {
            this.schema = schema;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            catalogService.stageSchema(buffer, schema);
        }

        @Override
        public void committed() {
            catalogService.catalog().putSchema(schema);
        }
    }

    /** Schemas removed: gone from the catalog at staging, back if the epoch fails. */
    private final class DroppedSchemas implements EpochChange {
        private final List<String> names;
        private final List<SchemaDef> removed = new ArrayList<>();

        DroppedSchemas(List<String> names) {
            this.names = names;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            Catalog catalog = catalogService.catalog();
            for (String name : names) {
                SchemaDef schema = catalog.schema(name)
                        .orElseThrow(() -> new TributaryException(
                                SqlState.INVALID_SCHEMA_NAME, "schema \"" + name + "\" does not exist"));
                CatalogService.stageSchemaRemoval(buffer, name);
                removed.add(schema);
            }
            removed.forEach(s -> catalog.removeSchema(s.name()));
        }

        @Override
        public void failed() {
            removed.forEach(s -> catalogService.catalog().putSchema(s));
        }
    }
}
