package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.meta.Database;
import io.tributary.meta.ddl.CrossDatabaseLogs;
import io.tributary.sql.calcite.ViewExpansion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The materialized views of other databases that read plain views of this one by three-part name
 * ({@code a.public.v}), for DROP VIEW's dependency check: such a view registers as a reader of the
 * tables the plain view reads, so the candidates are this database's cross-database consumers,
 * and each one's query says whether it names the view. Only names written in the reader's own
 * query count (a plain view of the reader's database over {@code a.public.v} is not followed).
 * Called on the session thread running the DROP.
 */
final class OtherDatabaseReaders {
    /** A reader: its consumer record (to drop it) and how messages name it. */
    record ReadingView(CrossDatabaseLogs.Consumer consumer, String description) {}

    private OtherDatabaseReaders() {}

    /**
     * The readers of any of {@code views} (catalog keys of plain views of {@code db}), each once.
     */
    static List<ReadingView> of(Database db, Set<String> views) {
        Catalog catalog = db.catalog();
        Set<String> names = new HashSet<>();
        for (String key : views) {
            catalog.view(key).ifPresent(v -> names.add(threePart(catalog.database(), v)));
        }
        List<ReadingView> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (CrossDatabaseLogs.Consumer c : db.ddl().crossDatabaseLogs().consumers()) {
            if (!seen.add(((long) c.database() << 32) | (c.view() & 0xffffffffL))) {
                continue;
            }
            Optional<Catalog> reader = catalog.databases().stream()
                    .filter(e -> e.id() == c.database())
                    .map(DatabaseEntry::name)
                    .findFirst()
                    .flatMap(catalog::peer);
            if (reader.isEmpty()) {
                continue;
            }
            for (TableDef t : reader.get().tables()) {
                if (t.id() == c.view()
                        && t.isView()
                        && ViewExpansion.reads(t.query(), reader.get()).stream().anyMatch(names::contains)) {
                    out.add(new ReadingView(
                            c,
                            "materialized view " + t.name() + " of database "
                                    + reader.get().database()));
                }
            }
        }
        return out;
    }

    private static String threePart(String database, ViewDef view) {
        return database + "." + view.schema() + "." + view.localName();
    }
}
