package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.UtilityStatement.OwnerChange;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs {@code ALTER ... OWNER TO} as PostgreSQL would for a database with one role: the session's
 * user owns every object, so naming it (or CURRENT_USER) changes nothing, and the statement only
 * checks, in PostgreSQL's order, that the object exists and is of the kind the statement names
 * (42P01, 3F000, 42809; IF EXISTS makes a missing relation a NOTICE) and that the role exists
 * (42704). pg_dump writes one such statement after each object, so a dump restores with {@code
 * ON_ERROR_STOP} without {@code --no-owner}. Called on the session's thread.
 */
final class OwnerChanges {
    private OwnerChanges() {}

    /**
     * Checks {@code change} against {@code catalog} and answers PostgreSQL's command tag.
     *
     * @param user the session's user, the one role
     */
    static StatementResult run(OwnerChange change, Catalog catalog, String user, Consumer<Session.Notice> notices) {
        if (change.kind().equals("SCHEMA")) {
            // PostgreSQL looks the role up first for a schema, the relation first otherwise
            requireRole(change, user);
            if (!catalog.schemaExists(change.name())) {
                throw new TributaryException(
                        SqlState.INVALID_SCHEMA_NAME, "schema \"" + change.name() + "\" does not exist");
            }
        } else {
            Optional<String> kind = relationKind(catalog, change.name());
            String local = change.name().substring(change.name().lastIndexOf('.') + 1);
            if (kind.isEmpty()) {
                if (!change.ifExists()) {
                    throw Catalog.undefinedTable(change.name());
                }
                notices.accept(new Session.Notice(
                        "NOTICE",
                        SqlState.SUCCESSFUL_COMPLETION,
                        "relation \"" + local + "\" does not exist, skipping"));
                return new StatementResult.Command(change.tag());
            }
            if (!change.kind().equals("TABLE") && !change.kind().equals(kind.get())) {
                throw new TributaryException(
                        SqlState.WRONG_OBJECT_TYPE, "\"" + local + "\" is not " + article(change.kind()));
            }
        }
        requireRole(change, user);
        return new StatementResult.Command(change.tag());
    }

    /** 42704 unless the statement names the session's user, the one role. */
    private static void requireRole(OwnerChange change, String user) {
        if (change.role() != null && !change.role().equals(user)) {
            throw new TributaryException(SqlState.UNDEFINED_OBJECT, "role \"" + change.role() + "\" does not exist");
        }
    }

    /** What relation {@code key} is, in the statement's words, or empty when there is none. */
    private static Optional<String> relationKind(Catalog catalog, String key) {
        Optional<TableDef> table = catalog.table(key);
        if (table.isPresent() && !table.get().isInternal()) {
            return Optional.of(table.get().isView() ? "MATERIALIZED VIEW" : "TABLE");
        }
        if (catalog.view(key).isPresent()) {
            return Optional.of("VIEW");
        }
        if (catalog.sequence(key).isPresent() || isColumnSequence(catalog, key)) {
            return Optional.of("SEQUENCE");
        }
        if (catalog.tableOfIndex(key).isPresent() || isPrimaryKeyIndex(catalog, key)) {
            return Optional.of("INDEX");
        }
        return Optional.empty();
    }

    /** Whether {@code key} names the sequence of a SERIAL or identity column, {@code <table>_<column>_seq}. */
    private static boolean isColumnSequence(Catalog catalog, String key) {
        String schema = catalog.schemaOfKey(key);
        for (TableDef t : catalog.tablesIn(schema)) {
            for (ColumnDef c : t.columns()) {
                if (c.identity() != null
                        && !c.hidden()
                        && Catalog.key(schema, t.localName() + "_" + c.name() + "_seq")
                                .equals(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code key} names the index of a table's primary key, {@code <table>_pkey}. */
    private static boolean isPrimaryKeyIndex(Catalog catalog, String key) {
        String schema = catalog.schemaOfKey(key);
        for (TableDef t : catalog.tablesIn(schema)) {
            if (!t.hasRowId()
                    && !t.isView()
                    && Catalog.key(schema, t.localName() + "_pkey").equals(key)) {
                return true;
            }
        }
        return false;
    }

    private static String article(String kind) {
        return (kind.equals("INDEX") ? "an " : "a ") + kind.toLowerCase();
    }
}
