package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * The check an {@code ALTER TABLE ... ADD/DROP CONSTRAINT} makes when its change is staged: the
 * table must still be the record the statement read. Called by {@link CheckDdl} and {@link
 * ForeignKeyDdl} on the barrier thread, at staging.
 */
final class ConstraintAlterGuard {
    private ConstraintAlterGuard() {}

    /**
     * @throws TributaryException 40001 when {@code before} was dropped, rebuilt or altered since the
     *     statement read it (PostgreSQL would have waited for the other statement)
     */
    static void requireUnchanged(Catalog catalog, TableDef before) {
        if (catalog.table(before.name()).map(t -> t != before).orElse(true)) {
            throw new TributaryException(
                    SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: relation \"" + before.localName()
                            + "\" changed while ALTER TABLE ran");
        }
    }
}
