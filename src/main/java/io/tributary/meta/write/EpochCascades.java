package io.tributary.meta.write;

import io.tributary.catalog.TableDef;
import io.tributary.storage.Keyspace;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes into the open epoch what the ON DELETE and ON UPDATE actions of a statement's changes change (see {@link
 * ReferentialActions}), and what those changes cascade to in turn: each referencing table's rows
 * with their index entries, then that table's own FOREIGN KEY checks. The changes reach the views
 * of the referencing tables only with {@link #emit}, after every check of the statement passed, so
 * a refused statement emits nothing. Made per statement under the barrier lock, on the staging
 * thread.
 */
final class EpochCascades {
    private final WriteBuffer epoch;
    private final StatementRows.Target target;
    private final ForeignKeyChecks.Rows rows;
    /** The changes to send to the referencing tables' views, in the order they were written. */
    private final List<Runnable> emissions = new ArrayList<>();

    /** @param target the statement's target, for the catalog, store, change streams and CHECKs */
    EpochCascades(WriteBuffer epoch, StatementRows.Target target) {
        this.epoch = epoch;
        this.target = target;
        this.rows = ForeignKeyChecks.of(epoch, target.store());
    }

    /**
     * Writes what the changes {@code oldRows[i]} → {@code newRows[i]} of {@code table}, already
     * written by the statement itself, cascade to, recursively.
     *
     * @param moved null for a statement that is not an UPDATE, else the rows it moved to another
     *     primary key (see {@link ReferentialActions#apply})
     * @throws io.tributary.common.TributaryException as {@link ReferentialActions#apply} and {@link
     *     ForeignKeyChecks#check} do for the referencing rows
     */
    void apply(TableDef table, List<byte[]> oldRows, List<byte[]> newRows, List<ReferentialActions.KeyMove> moved) {
        ReferentialActions.apply(target, rows, table, oldRows, newRows, moved, 0, this::write);
    }

    /** Writes one referencing table's changes, then what they cascade to, then checks them. */
    private void write(ReferentialActions.Cascade c) {
        TableDef child = c.child();
        List<byte[]> keys = c.changes().stream().map(TableWriter.Change::key).toList();
        List<byte[]> now = c.changes().stream().map(TableWriter.Change::row).toList();
        if (!child.indexes().isEmpty()) {
            new IndexMaintenance(child).apply(StatementRows.bufferEntries(epoch), keys, c.previous(), now);
        }
        for (TableWriter.Change change : c.changes()) {
            if (change.row() == null) {
                epoch.delete(Keyspace.DATA, change.key());
            } else {
                epoch.put(Keyspace.DATA, change.key(), change.row());
            }
        }
        ReferentialActions.apply(target, rows, child, c.previous(), now, null, c.depth(), this::write);
        ForeignKeyChecks.check(target.catalog(), rows, child, c.previous(), now);
        if (target.streams().hasSubscribers(child.id())) {
            StatementRows.Target to = target.of(child);
            emissions.add(() -> StatementRows.emitChanges(to, c.changes(), c.previous()));
        }
    }

    /** Sends the written changes to the referencing tables' views; last step of staging. */
    void emit() {
        emissions.forEach(Runnable::run);
    }
}
