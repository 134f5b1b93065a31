package io.tributary.sql.calcite;

import io.tributary.batch.Snapshot;
import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.SchemaDef;
import io.tributary.sql.ReadContext;
import io.tributary.sql.StatementControl;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The other databases of the cluster as a plain query sees them (docs/ARCHITECTURE.md,
 * Cross-database queries): one sub-schema per database, holding one per schema of it, whose
 * relations scan that database's snapshot of the running statement ({@link
 * ReadContext#snapshot(String)}) under their own ids. {@link DatabaseQualifiedNames} rewrites
 * {@code a.public.t} to a name under this schema. Read from the peers' catalogs at every lookup,
 * so DDL in another database is seen by the next statement; used by one session's thread.
 */
final class PeerDatabasesSchema extends AbstractSchema {
    /** The root schema's name; not reachable unquoted, so only rewritten names reach it. */
    static final String NAME = "$databases";

    private final Catalog catalog;
    private final ReadContext context;

    /** @param catalog the session's database, whose peers are listed */
    PeerDatabasesSchema(Catalog catalog, ReadContext context) {
        this.catalog = catalog;
        this.context = context;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
        Map<String, Schema> map = new LinkedHashMap<>();
        for (DatabaseEntry entry : catalog.databases()) {
            String name = entry.name();
            if (!name.equals(catalog.database())) {
                catalog.peer(name).ifPresent(peer -> map.put(name, database(peer, readingFrom(name))));
            }
        }
        return map;
    }

    /** Database {@code peer}'s schemas, each scanning through {@code reads}. */
    private static Schema database(Catalog peer, ReadContext reads) {
        return new AbstractSchema() {
            @Override
            protected Map<String, Schema> getSubSchemaMap() {
                Map<String, Schema> schemas = new LinkedHashMap<>();
                schemas.put(Catalog.SCHEMA, CatalogSchema.of(peer, Catalog.SCHEMA, reads, none -> List.of()));
                for (SchemaDef s : peer.schemas()) {
                    schemas.put(s.name(), CatalogSchema.of(peer, s.name(), reads, none -> List.of()));
                }
                return schemas;
            }
        };
    }

    /** The session's reads with {@code database}'s snapshot as the one its scans read. */
    private ReadContext readingFrom(String database) {
        return new ReadContext() {
            @Override
            public Snapshot snapshot() {
                return context.snapshot(database);
            }

            @Override
            public Snapshot snapshot(String other) {
                return context.snapshot(other);
            }

            @Override
            public StatementControl control() {
                return context.control();
            }
        };
    }
}
