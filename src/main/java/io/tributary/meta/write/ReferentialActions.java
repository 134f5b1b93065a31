package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.RowCodec;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The ON DELETE actions of the FOREIGN KEY constraints that reference a table: the referencing rows
 * that deleting referenced rows deletes (CASCADE) or updates (SET NULL, SET DEFAULT), as PostgreSQL's
 * referential triggers change them at the statement's end. It only finds the changes; its callers
 * write them as changes of the referencing table ({@link EpochCascades} for a statement, {@link
 * TransactionWrites} for a transaction block), which find the changes those cascade to in turn.
 * Called with the referenced table's changes already written to {@code rows}: under the barrier
 * lock for a statement, on the session's thread in a transaction block. Stateless.
 *
 * <p>Both callers recurse through {@link #apply} (a cascade's changes cascade in turn), so the bound
 * on how deep a cascade goes is kept here, where neither can miss it.
 */
final class ReferentialActions {
    private ReferentialActions() {}

    /**
     * How many referencing tables deep a cascade may go: each level is a few frames of recursion
     * in the caller and a scan of a referencing table (two tables cascading into each other go one
     * level per row of a chain), so a deeper one fails clearly with 54001 instead of overflowing
     * the thread's stack.
     */
    static final int MAX_DEPTH = 200;

    /**
     * One referencing table's changes: per row its key, its row after ({@code row} null: deleted;
     * {@code values} its decoded row), and in {@code previous} its row before, encoded; {@code
     * depth} is how many referencing tables deep it is (1: it references the statement's table),
     * to pass to {@link #apply} for what it cascades to.
     */
    record Cascade(TableDef child, List<TableWriter.Change> changes, List<byte[]> previous, int depth) {}

    /** Whether any constraint referencing {@code table} has an ON DELETE action that changes rows. */
    static boolean any(Catalog catalog, TableDef table) {
        for (TableDef child : ForeignKeyChecks.referencing(catalog, table)) {
            for (ForeignKeyDef fk : child.foreignKeys()) {
                if (fk.parent().equals(table.name()) && changesRows(fk.onDelete())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Hands {@code write} the referencing rows that the deletes among {@code oldRows[i]} → {@code
     * newRows[i]} (encoded, null: none) of {@code table} change, one referencing table at a time.
     * Each table's changes are found in {@code rows} only after {@code write} wrote the previous
     * table's (and what those cascaded to), so a row that two paths reach is changed from what the
     * first left. A referenced key some row still holds afterwards (deleted and inserted again)
     * changes nothing, as it is no key gone.
     *
     * @param target the statement's target, for the catalog, the referencing tables' CHECKs and
     *     their columns' defaults
     * @param depth how many referencing tables deep {@code table}'s changes are: 0 for a
     *     statement's own table, else the {@link Cascade#depth} they came with
     * @throws io.tributary.common.TributaryException 23502 or 23514 when SET NULL or SET DEFAULT
     *     leaves a row its NOT NULL or CHECK refuses; 0A000 for a referencing table with a
     *     watermark (append-only) or a default {@link ColumnDefaults} refuses;
     *     54001 when the changes would go more than {@link #MAX_DEPTH} referencing tables deep
     */
    static void apply(
            StatementRows.Target target,
            ForeignKeyChecks.Rows rows,
            TableDef table,
            List<byte[]> oldRows,
            List<byte[]> newRows,
            int depth,
            Consumer<Cascade> write) {
        Catalog catalog = target.catalog();
        TableChecks checks = target.checks();
        if (!any(catalog, table)) {
            return;
        }
        RowCodec codec = new RowCodec(table.columnTypes());
        for (TableDef listed : ForeignKeyChecks.referencing(catalog, table)) {
            TableDef child = listed.name().equals(table.name()) ? table : listed;
            RowRules rules = new RowRules(child, child.watermark() != null);
            rules.checkRows(checks == null ? null : checks.of(child));
            // per changed referencing row (by key): its row before, and after (null: deleted)
            Map<ByteBuffer, byte[]> before = new LinkedHashMap<>();
            Map<ByteBuffer, Object[]> after = new LinkedHashMap<>();
            for (ForeignKeyDef fk : child.foreignKeys()) {
                if (!fk.parent().equals(table.name()) || !changesRows(fk.onDelete())) {
                    continue;
                }
                ForeignKeyChecks.Reference ref = new ForeignKeyChecks.Reference(child, fk, table);
                Set<ByteBuffer> gone = goneKeys(rows, codec, ref, oldRows, newRows);
                if (gone.isEmpty()) {
                    continue;
                }
                rules.checkAppendOnly();
                RowCodec childCodec = rules.codec();
                if (child == table && fk.onDelete() == ForeignKeyDef.CASCADE) {
                    deleteSubtrees(rows, rules, ref, gone, before, after);
                    continue;
                }
                // the values the referencing columns take, found at the first row that takes them: a
                // DEFAULT this cannot use (refused, or failing to evaluate) fails only a statement that
                // changes a row, as in PostgreSQL, not every DELETE of a parent no row references
                Object[][] setTo = {null};
                rows.forEachRow(child.id(), encoded -> {
                    Object[] row = childCodec.decode(encoded);
                    byte[] key = ref.lookupKeyOfChild(row);
                    if (key == null || !gone.contains(ByteBuffer.wrap(key))) {
                        return;
                    }
                    ByteBuffer rowKey = ByteBuffer.wrap(rules.key(row));
                    before.putIfAbsent(rowKey, encoded);
                    if (fk.onDelete() == ForeignKeyDef.CASCADE) {
                        after.put(rowKey, null);
                    } else if (!after.containsKey(rowKey) || after.get(rowKey) != null) {
                        if (setTo[0] == null) {
                            setTo[0] = valuesSet(target, fk, child, ref);
                        }
                        Object[] changed = after.getOrDefault(rowKey, row);
                        for (int i = 0; i < setTo[0].length; i++) {
                            changed[ref.childColumns[i]] = setTo[0][i];
                        }
                        after.put(rowKey, changed);
                    }
                });
            }
            if (before.isEmpty()) {
                continue;
            }
            List<TableWriter.Change> changes = new ArrayList<>(before.size());
            List<byte[]> previous = new ArrayList<>(before.size());
            for (Map.Entry<ByteBuffer, byte[]> e : before.entrySet()) {
                Object[] row = after.get(e.getKey());
                if (row != null) {
                    rules.checkRow(row);
                }
                changes.add(new TableWriter.Change(
                        e.getKey().array(), row == null ? null : rules.codec().encode(row), false, row));
                previous.add(e.getValue());
            }
            if (depth >= MAX_DEPTH) {
                throw tooDeep(child);
            }
            write.accept(new Cascade(child, changes, previous, depth + 1));
        }
    }

    /**
     * The values ON DELETE SET NULL or SET DEFAULT gives {@code ref}'s referencing columns. PostgreSQL
     * evaluates the defaults per row; these are not volatile ({@link ColumnDefaults} refuses those), so
     * one value per column serves every row of the statement.
     */
    private static Object[] valuesSet(
            StatementRows.Target target, ForeignKeyDef fk, TableDef child, ForeignKeyChecks.Reference ref) {
        Object[] setTo = new Object[ref.childColumns.length];
        if (fk.onDelete() == ForeignKeyDef.SET_DEFAULT) {
            refuseKeyChange(child, ref);
            for (int i = 0; i < setTo.length; i++) {
                setTo[i] = target.defaults().value(child, ref.childColumns[i]);
            }
        }
        return setTo;
    }

    /**
     * 0A000 for SET DEFAULT of a column of the referencing table's primary key: the changed row
     * would move to another key, which a cascade does not write. (SET NULL of one fails its NOT
     * NULL first.)
     */
    private static void refuseKeyChange(TableDef child, ForeignKeyChecks.Reference ref) {
        for (int c : ref.childColumns) {
            for (int k : child.primaryKey()) {
                if (c == k) {
                    throw TributaryException.notSupported("ON DELETE SET DEFAULT of primary key column \""
                            + child.columns().get(c).name() + "\" of table \"" + child.localName() + "\"");
                }
            }
        }
    }

    /** 54001: a cascade reaching {@code child} would go more than {@link #MAX_DEPTH} tables deep. */
    private static TributaryException tooDeep(TableDef child) {
        return new TributaryException(
                SqlState.STATEMENT_TOO_COMPLEX,
                "ON DELETE actions cascade more than " + MAX_DEPTH + " referencing tables deep",
                0,
                "The cascade reached table \"" + child.localName() + "\".",
                "Delete the referencing rows in smaller steps, from the deepest first.",
                null);
    }

    /**
     * A self reference's ON DELETE CASCADE: every row below a {@code gone} key, however deep, in one
     * scan of the table (a row deleted takes its own key with it, and the rows referencing that).
     * Going down level by level instead would scan the table once per level and nest as deep as
     * the chain is long.
     */
    private static void deleteSubtrees(
            ForeignKeyChecks.Rows rows,
            RowRules rules,
            ForeignKeyChecks.Reference ref,
            Set<ByteBuffer> gone,
            Map<ByteBuffer, byte[]> before,
            Map<ByteBuffer, Object[]> after) {
        Map<ByteBuffer, List<byte[]>> byReferencedKey = new HashMap<>();
        rows.forEachRow(rules.table().id(), encoded -> {
            byte[] key = ref.lookupKeyOfChild(rules.codec().decode(encoded));
            if (key != null) {
                byReferencedKey
                        .computeIfAbsent(ByteBuffer.wrap(key), k -> new ArrayList<>())
                        .add(encoded);
            }
        });
        ArrayDeque<ByteBuffer> pending = new ArrayDeque<>(gone);
        Set<ByteBuffer> seen = new HashSet<>(gone);
        while (!pending.isEmpty()) {
            for (byte[] encoded : byReferencedKey.getOrDefault(pending.poll(), List.of())) {
                Object[] row = rules.codec().decode(encoded);
                ByteBuffer rowKey = ByteBuffer.wrap(rules.key(row));
                before.putIfAbsent(rowKey, encoded);
                after.put(rowKey, null);
                byte[] own = ref.lookupKeyOfParent(row);
                if (own != null && seen.add(ByteBuffer.wrap(own))) {
                    pending.add(ByteBuffer.wrap(own));
                }
            }
        }
    }

    /** Whether {@code action} changes the referencing rows (rather than refusing the change). */
    private static boolean changesRows(char action) {
        return action == ForeignKeyDef.CASCADE
                || action == ForeignKeyDef.SET_NULL
                || action == ForeignKeyDef.SET_DEFAULT;
    }

    /** The lookup keys of the deleted referenced rows that no row holds any more. */
    private static Set<ByteBuffer> goneKeys(
            ForeignKeyChecks.Rows rows,
            RowCodec codec,
            ForeignKeyChecks.Reference ref,
            List<byte[]> oldRows,
            List<byte[]> newRows) {
        Set<ByteBuffer> gone = new HashSet<>();
        for (int i = 0; i < oldRows.size(); i++) {
            byte[] old = oldRows.get(i);
            if (old == null || newRows.get(i) != null) {
                continue;
            }
            byte[] key = ref.lookupKeyOfParent(codec.decode(old));
            if (key != null && rows.get(key) == null) {
                gone.add(ByteBuffer.wrap(key));
            }
        }
        return gone;
    }
}
