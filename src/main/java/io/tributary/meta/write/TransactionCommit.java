package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.OverlayReadView;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * A transaction block's rows as one change of an epoch, staged by {@link TransactionWrites#commit}
 * under the barrier lock. It first checks every changed key against what is committed now (and
 * staged in the open epoch): a key the transaction inserted that another session committed
 * meanwhile is 23505, as PostgreSQL reports a unique conflict with a concurrent insert; a row the
 * transaction updated or deleted that another session changed or deleted meanwhile is 40001, as
 * PostgreSQL's REPEATABLE READ reports a concurrent update. Only when every table passes does it
 * write the rows and send their changes to the views, so a refused commit stages and emits nothing.
 */
final class TransactionCommit implements EpochChange {
    private final List<TransactionWrites.TableWrites> tables;
    /** The transaction's rows as it left them ({@link OverlayReadView#DELETED}: gone). */
    private final NavigableMap<byte[], byte[]> current;

    TransactionCommit(List<TransactionWrites.TableWrites> tables, NavigableMap<byte[], byte[]> current) {
        this.tables = tables;
        this.current = current;
    }

    @Override
    public void stage(WriteBuffer epoch) {
        List<List<byte[]>> stored = new ArrayList<>(tables.size());
        for (TransactionWrites.TableWrites t : tables) {
            stored.add(check(epoch, t));
        }
        for (int i = 0; i < tables.size(); i++) {
            write(epoch, tables.get(i), stored.get(i));
        }
        for (int i = 0; i < tables.size(); i++) {
            checkForeignKeys(epoch, tables.get(i), stored.get(i));
        }
    }

    /**
     * The FOREIGN KEY checks of one table's rows against the epoch with all of the transaction's
     * rows written: a referenced row another session deleted since, or a referencing row another
     * session inserted since, fails the commit with 23503.
     */
    private void checkForeignKeys(WriteBuffer epoch, TransactionWrites.TableWrites t, List<byte[]> stored) {
        if (t.index() != null) {
            return;
        }
        Catalog catalog = t.target().catalog();
        TableDef table = catalog.table(t.target().rules().table().name()).orElseThrow();
        if (!ForeignKeyChecks.involves(catalog, table)) {
            return;
        }
        List<byte[]> now = new ArrayList<>(stored.size());
        for (byte[] key : t.before().keySet()) {
            byte[] row = current.get(key);
            now.add(row == OverlayReadView.DELETED ? null : row);
        }
        ForeignKeyChecks.check(catalog, ForeignKeyChecks.of(epoch, t.target().store()), table, stored, now);
    }

    /** The committed rows of the table's changed keys, in key order, once they pass the checks. */
    private List<byte[]> check(WriteBuffer epoch, TransactionWrites.TableWrites t) {
        TableDef table = t.target().rules().table();
        TableDef now = t.target().catalog().table(table.name()).orElse(null);
        if (now == null || now.id() != table.id()) {
            throw Catalog.undefinedTable(table.name());
        }
        CheckConstraints.refuseAddedSince(table, now);
        if (t.index() != null) {
            return checkIndex(epoch, t, now);
        }
        if (!t.indexes().equals(now.indexes())) {
            throw TransactionWrites.indexesChanged(table);
        }
        List<byte[]> keys = new ArrayList<>(t.before().keySet());
        List<byte[]> stored = epoch.getAll(Keyspace.DATA, keys);
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : t.before().entrySet()) {
            byte[] was = e.getValue() == OverlayReadView.DELETED ? null : e.getValue();
            byte[] is = stored.get(i++);
            if (was == null && is != null) {
                throw t.target().rules().duplicate(current.get(e.getKey()));
            }
            if (was != null && !Arrays.equals(was, is)) {
                throw concurrentUpdate(table, is == null);
            }
        }
        return stored;
    }

    /**
     * An index's entries the transaction holds: one it adds that another session committed
     * meanwhile is a unique violation (a changed or deleted entry belongs to a changed row, which
     * the table's own check reports).
     */
    private List<byte[]> checkIndex(WriteBuffer epoch, TransactionWrites.TableWrites t, TableDef table) {
        List<byte[]> stored =
                epoch.getAll(Keyspace.DATA, new ArrayList<>(t.before().keySet()));
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : t.before().entrySet()) {
            byte[] is = stored.get(i++);
            byte[] held = current.get(e.getKey());
            if (e.getValue() == OverlayReadView.DELETED && is != null && held != OverlayReadView.DELETED) {
                byte[] row = current.get(io.tributary.storage.TableKeys.rowKey(table.id(), held));
                throw IndexMaintenance.violation(
                        table, t.index(), t.target().rules().codec().decode(row));
            }
        }
        return stored;
    }

    /**
     * PostgreSQL's 40001 for a row another session changed ({@code deleted}: deleted) after the
     * transaction's snapshot.
     */
    static TributaryException concurrentUpdate(TableDef table, boolean deleted) {
        return new TributaryException(
                SqlState.SERIALIZATION_FAILURE,
                "could not serialize access due to concurrent " + (deleted ? "delete" : "update"),
                0,
                "Another session changed or deleted a row of \"" + table.localName()
                        + "\" that this transaction changes, after the transaction's snapshot was taken.",
                "Retry the transaction.",
                null);
    }

    private void write(WriteBuffer epoch, TransactionWrites.TableWrites t, List<byte[]> stored) {
        List<TableWriter.Change> changes = new ArrayList<>(t.before().size());
        for (byte[] key : t.before().keySet()) {
            byte[] row = current.get(key);
            if (row == OverlayReadView.DELETED) {
                epoch.delete(Keyspace.DATA, key);
                changes.add(new TableWriter.Change(key, null, false, null));
            } else {
                epoch.put(Keyspace.DATA, key, row);
                changes.add(new TableWriter.Change(key, row, false, null));
            }
        }
        StatementRows.Target target = t.target();
        if (t.index() == null
                && target.streams().hasSubscribers(target.rules().table().id())) {
            StatementRows.emitChanges(target, changes, stored);
        }
    }
}
