package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.meta.Database;
import io.tributary.meta.ddl.DdlController;
import io.tributary.sql.calcite.ViewExpansion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The plain and materialized views of other databases that read relations of this one, directly
 * or through plain views of any database (a view of {@code b} over a view of {@code b} over
 * {@code a.public.v}, itself a view of {@code a} over {@code t}), for the 2BP01 checks and the
 * CASCADE of DROP TABLE, DROP VIEW, DROP MATERIALIZED VIEW and DROP DATABASE.
 *
 * <p>The dependencies are the durable view definitions themselves: each view's FROM names (a plain
 * view's recorded {@link ViewDef#reads()}, a materialized view's query), another database's
 * written three-part. They are followed at DROP time across every database of the cluster, so
 * they hold after a restart as the definitions do. Called on the session thread running the DROP.
 */
final class OtherDatabaseReaders {
    /**
     * A view of another database reading a dropped relation; {@code name} is its catalog key there,
     * {@code dependsOn} how messages name the relation through which it depends on the dropped ones
     * (set once found).
     */
    record Reader(int databaseId, String database, String name, boolean materialized, String dependsOn) {
        /** How messages name it, e.g. {@code view bv of database b}. */
        String description() {
            return (materialized ? "materialized view " : "view ") + name + " of database " + database;
        }

        /** PostgreSQL's DETAIL line for it, e.g. {@code view bv2 of database b depends on view bv1 of database b}. */
        String detail() {
            return description() + " depends on " + dependsOn;
        }

        private Reader through(String relation) {
            return new Reader(databaseId, database, name, materialized, relation);
        }
    }

    /** The DETAIL of a refused DROP: one line per reader, each after what it reads. */
    static String detail(List<Reader> readers) {
        StringBuilder out = new StringBuilder();
        for (int i = readers.size() - 1; i >= 0; i--) {
            out.append(out.length() == 0 ? "" : "\n").append(readers.get(i).detail());
        }
        return out.toString();
    }

    /** A relation of one database: the database's name and the relation's catalog key. */
    private record Rel(String database, String key) {}

    /** A plain or materialized view and the relations its FROM items name. */
    private record View(Reader reader, List<Rel> reads) {}

    private OtherDatabaseReaders() {}

    /**
     * The views of databases other than {@code catalog}'s that depend on any of {@code keys}
     * (catalog keys of relations of {@code catalog}'s database), in the order they must be dropped:
     * a view before the views it reads.
     */
    static List<Reader> of(Catalog catalog, Collection<String> keys) {
        List<View> views = everyView(catalog);
        // what is reached, and how messages name it
        Map<Rel, String> reached = new HashMap<>();
        for (String k : keys) {
            String kind = catalog.view(k).isPresent()
                    ? "view"
                    : catalog.table(k).map(t -> t.kind().sqlName()).orElse("relation");
            reached.put(new Rel(catalog.database(), k), kind + " " + k);
        }
        // readers of readers, in any database, until nothing more reads what is reached
        List<Reader> found = new ArrayList<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (View v : views) {
                Rel self = new Rel(v.reader().database(), v.reader().name());
                if (reached.containsKey(self)) {
                    continue;
                }
                Optional<Rel> via =
                        v.reads().stream().filter(reached::containsKey).findFirst();
                if (via.isPresent()) {
                    Reader r = v.reader().through(reached.get(via.get()));
                    boolean local = self.database().equals(catalog.database());
                    reached.put(
                            self,
                            local ? (r.materialized() ? "materialized view " : "view ") + r.name() : r.description());
                    grew = true;
                    if (!local) {
                        found.add(r);
                    }
                }
            }
        }
        List<Reader> dropOrder = new ArrayList<>(found.size());
        for (int i = found.size() - 1; i >= 0; i--) {
            dropOrder.add(found.get(i));
        }
        return dropOrder;
    }

    /** The views of other databases depending on any relation of {@code catalog}'s database. */
    static List<Reader> ofDatabase(Catalog catalog) {
        List<String> keys = new ArrayList<>();
        catalog.tables().forEach(t -> keys.add(t.name()));
        catalog.views().forEach(v -> keys.add(v.name()));
        return of(catalog, keys);
    }

    /**
     * DROP ... CASCADE: drops {@code readers} (from {@link #of}), each in its own database and
     * epoch, telling {@code notices} as PostgreSQL does. A reader already gone is skipped.
     */
    static void drop(Database db, List<Reader> readers, Consumer<String> notices) throws InterruptedException {
        for (Reader r : readers) {
            Optional<DdlController> home = db.ddl().peer(r.databaseId());
            if (home.isEmpty()) {
                continue;
            }
            notices.accept("drop cascades to " + r.description());
            if (r.materialized()) {
                home.get().drop(List.of(r.name()), RelationKind.MATERIALIZED_VIEW, true, true, n -> {});
            } else if (db.catalog()
                    .peer(r.database())
                    .flatMap(c -> c.view(r.name()))
                    .isPresent()) {
                home.get().dropViews(List.of(r.name()));
            }
        }
    }

    /** Every plain and materialized view of every database, with what it reads. */
    private static List<View> everyView(Catalog catalog) {
        List<DatabaseEntry> databases = catalog.databases();
        Map<String, Integer> ids = new HashMap<>();
        databases.forEach(e -> ids.put(e.name(), e.id()));
        List<View> out = new ArrayList<>();
        for (DatabaseEntry e : databases) {
            Optional<Catalog> home = catalog.peer(e.name());
            if (home.isEmpty()) {
                continue;
            }
            Catalog c = home.get();
            for (ViewDef v : c.views()) {
                out.add(new View(new Reader(e.id(), e.name(), v.name(), false, null), resolve(c, v.reads(), ids)));
            }
            for (TableDef t : c.tables()) {
                if (t.isView()) {
                    out.add(new View(
                            new Reader(e.id(), e.name(), t.name(), true, null),
                            resolve(c, ViewExpansion.reads(t.query(), c), ids)));
                }
            }
        }
        return out;
    }

    /**
     * FROM names as relations: {@code db.schema.name} of a database that exists is that
     * database's; anything else is a catalog key of {@code home}'s database.
     */
    private static List<Rel> resolve(Catalog home, List<String> reads, Map<String, Integer> databases) {
        List<Rel> out = new ArrayList<>(reads.size());
        for (String read : reads) {
            String[] parts = read.split("\\.", 3);
            if (parts.length == 3 && databases.containsKey(parts[0])) {
                out.add(new Rel(parts[0], Catalog.key(parts[1], parts[2])));
            } else {
                out.add(new Rel(home.database(), read));
            }
        }
        return out;
    }
}
