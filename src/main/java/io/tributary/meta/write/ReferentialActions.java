package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.Values;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The ON DELETE and ON UPDATE actions of the FOREIGN KEY constraints that reference a table: the
 * referencing rows that deleting referenced rows deletes (CASCADE) or updates (SET NULL, SET
 * DEFAULT), and that changing a referenced key updates (CASCADE: to the new key; SET NULL, SET
 * DEFAULT), as PostgreSQL's referential triggers change them at the statement's end. It only finds
 * the changes; its callers write them as changes of the referencing table ({@link EpochCascades}
 * for a statement, {@link TransactionWrites} for a transaction block), which find the changes
 * those cascade to in turn. Called with the referenced table's changes already written to {@code
 * rows}: under the barrier lock for a statement, on the session's thread in a transaction block.
 * Stateless.
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

    /**
     * A row an UPDATE moved to another primary key: its values before and after (full width).
     * Among the statement's changes it is a delete of the old key and an insert of the new one,
     * which alone do not say which row became which.
     */
    record KeyMove(Object[] before, Object[] after) {}

    /** Whether any constraint referencing {@code table} has an ON DELETE or ON UPDATE action that changes rows. */
    static boolean any(Catalog catalog, TableDef table) {
        for (TableDef child : ForeignKeyChecks.referencing(catalog, table)) {
            for (ForeignKeyDef fk : child.foreignKeys()) {
                if (fk.parent().equals(table.name()) && (changesRows(fk.onDelete()) || changesRows(fk.onUpdate()))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Hands {@code write} the referencing rows that the changes {@code oldRows[i]} → {@code
     * newRows[i]} (encoded, null: none) of {@code table} change, one referencing table at a time:
     * through ON DELETE actions for its deleted rows, through ON UPDATE actions for its rows whose
     * referenced key changed (a row of the same key before and after, or one of {@code moved}).
     * Each table's changes are found in {@code rows} only after {@code write} wrote the previous
     * table's (and what those cascaded to), so a row that two paths reach is changed from what the
     * first left. A deleted referenced key some row still holds afterwards (deleted and inserted
     * again) changes nothing, as it is no key gone. The ON UPDATE actions map every old key to its
     * new one at once, which is what PostgreSQL's row-by-row triggers leave whenever its
     * row-by-row unique check lets the UPDATE through; keys moved in a cycle (a swap), which that
     * check always refuses, are refused the same way.
     *
     * @param target the statement's target, for the catalog, the referencing tables' CHECKs and
     *     their columns' defaults
     * @param moved null when the deletes among the changes are deletes; for an UPDATE, the rows it
     *     moved to another primary key, whose deletes and inserts are these moves
     * @param depth how many referencing tables deep {@code table}'s changes are: 0 for a
     *     statement's own table, else the {@link Cascade#depth} they came with
     * @throws io.tributary.common.TributaryException 23502 or 23514 when an action leaves a row its
     *     NOT NULL or CHECK refuses; 23505 for referenced keys an UPDATE moves in a cycle; 22003 or
     *     22001 for a new key the referencing column's type cannot hold; 0A000 for a referencing
     *     table with a watermark (append-only), an action changing its primary key, or a default
     *     {@link ColumnDefaults} refuses; 54001 when the changes would go more than {@link
     *     #MAX_DEPTH} referencing tables deep
     */
    static void apply(
            StatementRows.Target target,
            ForeignKeyChecks.Rows rows,
            TableDef table,
            List<byte[]> oldRows,
            List<byte[]> newRows,
            List<KeyMove> moved,
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
                if (!fk.parent().equals(table.name())) {
                    continue;
                }
                ForeignKeyChecks.Reference ref = new ForeignKeyChecks.Reference(child, fk, table);
                if (changesRows(fk.onDelete()) && moved == null) {
                    Set<ByteBuffer> gone = goneKeys(rows, codec, ref, oldRows, newRows);
                    if (!gone.isEmpty()) {
                        if (child == table && fk.onDelete() == ForeignKeyDef.CASCADE) {
                            rules.checkAppendOnly();
                            deleteSubtrees(rows, rules, ref, gone, before, after);
                        } else {
                            Map<ByteBuffer, Object[]> keys = new HashMap<>();
                            gone.forEach(k -> keys.put(k, null));
                            act(target, rows, rules, ref, fk.onDelete(), "ON DELETE", keys, before, after);
                        }
                    }
                }
                if (changesRows(fk.onUpdate())) {
                    Map<ByteBuffer, Object[]> keys = changedKeys(codec, ref, oldRows, newRows, moved);
                    if (!keys.isEmpty()) {
                        act(target, rows, rules, ref, fk.onUpdate(), "ON UPDATE", keys, before, after);
                    }
                }
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
     * One constraint's action on the rows of its referencing table that hold one of {@code keys}
     * (lookup keys of the referenced row before): CASCADE deletes them, or for a key mapped to a
     * referenced row after (an update) sets their columns to its key; SET NULL and SET DEFAULT set
     * their columns. Adds each changed row to {@code before} (its first row) and {@code after}.
     */
    private static void act(
            StatementRows.Target target,
            ForeignKeyChecks.Rows rows,
            RowRules rules,
            ForeignKeyChecks.Reference ref,
            char action,
            String event,
            Map<ByteBuffer, Object[]> keys,
            Map<ByteBuffer, byte[]> before,
            Map<ByteBuffer, Object[]> after) {
        TableDef child = rules.table();
        rules.checkAppendOnly();
        boolean update = event.equals("ON UPDATE");
        boolean cascadeKeys = update && action == ForeignKeyDef.CASCADE;
        // SET NULL and SET DEFAULT find their values at the first row that takes them: a DEFAULT
        // this cannot use (refused, failing to evaluate) fails only a statement that changes a row,
        // as in PostgreSQL. CASCADE assigns every new key to the referencing columns' types first:
        // PostgreSQL's cascaded UPDATE folds that cast of its parameter when it plans, so a key the
        // column cannot hold fails the statement whether or not a row references the old one.
        Map<ByteBuffer, Object[]> valuesByKey = new HashMap<>();
        if (cascadeKeys) {
            keys.forEach((k, newRow) -> valuesByKey.put(k, childValues(ref, newRow)));
        }
        Object[][] setTo = {null};
        RowCodec childCodec = rules.codec();
        rows.forEachRow(child.id(), encoded -> {
            Object[] row = childCodec.decode(encoded);
            byte[] key = ref.lookupKeyOfChild(row);
            if (key == null || !keys.containsKey(ByteBuffer.wrap(key))) {
                return;
            }
            ByteBuffer rowKey = ByteBuffer.wrap(rules.key(row));
            before.putIfAbsent(rowKey, encoded);
            if (action == ForeignKeyDef.CASCADE && !update) {
                after.put(rowKey, null);
            } else if (!after.containsKey(rowKey) || after.get(rowKey) != null) {
                if (action != ForeignKeyDef.SET_NULL) {
                    // (SET NULL of a primary-key column fails its NOT NULL first)
                    refuseKeyChange(child, ref, event + " " + ForeignKeyDef.actionText(action));
                }
                Object[] values;
                if (cascadeKeys) {
                    values = valuesByKey.get(ByteBuffer.wrap(key));
                } else {
                    if (setTo[0] == null) {
                        setTo[0] = valuesSet(target, action, event, child, ref);
                    }
                    values = setTo[0];
                }
                Object[] changed = after.getOrDefault(rowKey, row);
                for (int i = 0; i < values.length; i++) {
                    changed[ref.childColumns[i]] = values[i];
                }
                after.put(rowKey, changed);
            }
        });
    }

    /**
     * The values SET NULL or SET DEFAULT gives {@code ref}'s referencing columns. PostgreSQL
     * evaluates the defaults per row; these are not volatile ({@link ColumnDefaults} refuses those),
     * so one value per column serves every row of the statement.
     */
    private static Object[] valuesSet(
            StatementRows.Target target, char action, String event, TableDef child, ForeignKeyChecks.Reference ref) {
        Object[] setTo = new Object[ref.childColumns.length];
        if (action == ForeignKeyDef.SET_DEFAULT) {
            for (int i = 0; i < setTo.length; i++) {
                setTo[i] = target.defaults().value(child, ref.childColumns[i], event);
            }
        }
        return setTo;
    }

    /**
     * The referencing columns' new values for referenced row {@code after}: its key assigned to the
     * referencing columns' types, as PostgreSQL's cascaded UPDATE assigns them.
     *
     * @throws io.tributary.common.TributaryException 22003 or 22001 for a value the column cannot hold
     */
    private static Object[] childValues(ForeignKeyChecks.Reference ref, Object[] after) {
        Object[] values = new Object[ref.childColumns.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = Values.assign(
                    after[ref.parentColumns[i]],
                    ref.parent.columns().get(ref.parentColumns[i]).type(),
                    ref.child.columns().get(ref.childColumns[i]).type());
        }
        return values;
    }

    /**
     * The referenced keys the updates among the changes change, each lookup key before mapped to
     * the referenced row after: rows of one key before and after, and {@code moved}. A row whose key
     * had a NULL referenced nothing.
     *
     * @throws io.tributary.common.TributaryException 23505 for keys moved in a cycle
     */
    private static Map<ByteBuffer, Object[]> changedKeys(
            RowCodec codec,
            ForeignKeyChecks.Reference ref,
            List<byte[]> oldRows,
            List<byte[]> newRows,
            List<KeyMove> moved) {
        List<KeyMove> updates = new ArrayList<>(moved == null ? List.of() : moved);
        // a primary key one moved row left and another took is no row updated in place
        Set<ByteBuffer> movedKeys = new HashSet<>();
        RowRules rules = moved == null || moved.isEmpty() ? null : new RowRules(ref.parent, false);
        if (rules != null) {
            for (KeyMove m : moved) {
                movedKeys.add(ByteBuffer.wrap(rules.key(m.before())));
                movedKeys.add(ByteBuffer.wrap(rules.key(m.after())));
            }
        }
        for (int i = 0; i < oldRows.size(); i++) {
            byte[] old = oldRows.get(i);
            byte[] now = newRows.get(i);
            if (old != null && now != null && !Arrays.equals(old, now)) {
                Object[] before = codec.decode(old);
                if (rules == null || !movedKeys.contains(ByteBuffer.wrap(rules.key(before)))) {
                    updates.add(new KeyMove(before, codec.decode(now)));
                }
            }
        }
        Map<ByteBuffer, Object[]> keys = new LinkedHashMap<>();
        Map<ByteBuffer, ByteBuffer> moves = new HashMap<>();
        for (KeyMove u : updates) {
            byte[] old = ref.lookupKeyOfParent(u.before());
            if (old == null || ref.sameParentKey(u.before(), u.after())) {
                continue;
            }
            keys.put(ByteBuffer.wrap(old), u.after());
            byte[] now = ref.lookupKeyOfParent(u.after());
            // a key whose value changed only its form (numeric 1.5 to 1.50) keeps its lookup key: the
            // referencing rows still take the new form, but it moves nowhere, so it is no cycle
            if (now != null && !Arrays.equals(old, now)) {
                moves.put(ByteBuffer.wrap(old), ByteBuffer.wrap(now));
            }
        }
        refuseCycle(ref, updates, moves);
        return keys;
    }

    /**
     * 23505 when referenced keys move in a cycle ({@code UPDATE p SET id = 3 - id} over ids 1 and 2):
     * PostgreSQL checks a referenced key's uniqueness row by row (it cannot be DEFERRABLE), so
     * whichever row it updates first finds its new key still held. Names the new key of the row on
     * a cycle whose old key is least, the row PostgreSQL meets first when its rows were inserted in
     * key order.
     */
    private static void refuseCycle(
            ForeignKeyChecks.Reference ref, List<KeyMove> updates, Map<ByteBuffer, ByteBuffer> moves) {
        Set<ByteBuffer> done = new HashSet<>();
        Set<ByteBuffer> onCycle = new HashSet<>();
        for (ByteBuffer start : moves.keySet()) {
            Set<ByteBuffer> path = new LinkedHashSet<>();
            ByteBuffer k = start;
            while (k != null && !done.contains(k) && path.add(k)) {
                k = moves.get(k);
            }
            if (k != null && path.contains(k)) {
                boolean in = false;
                for (ByteBuffer p : path) {
                    in |= p.equals(k);
                    if (in) {
                        onCycle.add(p);
                    }
                }
            }
            done.addAll(path);
        }
        Object[] first = null;
        Object[] firstAfter = null;
        for (KeyMove u : updates) {
            byte[] old = ref.lookupKeyOfParent(u.before());
            if (old != null
                    && onCycle.contains(ByteBuffer.wrap(old))
                    && (first == null || before(ref, u.before(), first))) {
                first = u.before();
                firstAfter = u.after();
            }
        }
        if (first != null) {
            throw ref.duplicateKey(firstAfter);
        }
    }

    /**
     * Whether referenced row {@code a}'s key sorts before {@code b}'s: PostgreSQL meets rows in the
     * order they are stored, which for rows inserted in key order is key order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean before(ForeignKeyChecks.Reference ref, Object[] a, Object[] b) {
        for (int c : ref.parentColumns) {
            if (!(a[c] instanceof Comparable x)) {
                return false; // a bytea key: the statement's order then
            }
            int cmp = x.compareTo(b[c]);
            if (cmp != 0) {
                return cmp < 0;
            }
        }
        return false;
    }

    /**
     * 0A000 for an action ({@code what}: SET DEFAULT, or ON UPDATE CASCADE) that
     * changes a column of the referencing table's primary key: the changed row would move to
     * another key, which a cascade does not write. (SET NULL of one fails its NOT NULL first.)
     */
    private static void refuseKeyChange(TableDef child, ForeignKeyChecks.Reference ref, String what) {
        for (int c : ref.childColumns) {
            for (int k : child.primaryKey()) {
                if (c == k) {
                    throw TributaryException.notSupported(what + " of primary key column \""
                            + child.columns().get(c).name() + "\" of table \"" + child.localName() + "\"");
                }
            }
        }
    }

    /** 54001: a cascade reaching {@code child} would go more than {@link #MAX_DEPTH} tables deep. */
    private static TributaryException tooDeep(TableDef child) {
        return new TributaryException(
                SqlState.STATEMENT_TOO_COMPLEX,
                "ON DELETE and ON UPDATE actions cascade more than " + MAX_DEPTH + " referencing tables deep",
                0,
                "The cascade reached table \"" + child.localName() + "\".",
                "Delete or update the referencing rows in smaller steps, from the deepest first.",
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
