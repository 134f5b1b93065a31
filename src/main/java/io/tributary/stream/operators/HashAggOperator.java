package io.tributary.stream.operators;

import io.tributary.common.codec.ByteHash;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.Field;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.WindowCleaning;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import io.tributary.stream.WatermarkReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Streaming GROUP BY ({@link HashAggNode}): keeps one output row per group (group key values, then
 * one value per {@link AggCall}) equal to the aggregate query over the input, as PostgreSQL
 * computes it. NULL group keys form one group; NULL arguments are ignored; a call with a filter
 * counts only rows whose filter column is TRUE; DISTINCT calls count each non-null value of a
 * group once. Groups are told apart by the memcomparable encoding of their key, i.e. by SQL
 * equality ({@code 1.0} and {@code 1.00} are one group); the output carries the key as first seen.
 *
 * <p>Output, once per epoch. Input changes are applied to the groups as they arrive, but output
 * is held back until the barrier: then every group whose output row changed over the epoch emits
 * DELETE of its row as of the previous barrier, then INSERT of its new one (only INSERT for a new
 * group, only DELETE for a group whose last input row went); a group whose row is unchanged
 * emits nothing. So a group updated by a million input rows in one epoch emits at most two
 * changes, not two per input chunk (as streaming systems do; the {@link Operator} contract lets
 * output wait for the barrier). Rows compare exactly (a NUMERIC of another scale is a change), so
 * the DELETE always names the row emitted before. A global aggregate (no group keys) has exactly
 * one row at all times: a fresh operator emits the row over no input on its first call; one
 * restored over state that holds it does not.
 *
 * <p>State, one table per id of {@code stateTableIds} in {@link HashAggNode}'s order:
 * <ul>
 * <li>table 0, the groups: key = the group key (distribution key = all of it, none for a global
 *     aggregate), value = (group key as first seen..., each call's accumulator columns..., input
 *     row count BIGINT). The key values are repeated in the value because keys cannot be decoded
 *     and the output must keep the representation it was first emitted with.
 * <li>one {@link ValueTable} per call that {@link AggCall#keepsValues() keeps values}, in call
 *     order: (group key..., value) -> (value, multiplicity). MAX's table sorts the value
 *     descending, so for MIN and MAX alike the next extreme after the current one is removed is
 *     the first entry of the group's prefix.
 * </ul>
 *
 * <p>Memory. The groups changed in the current epoch stay decoded until its barrier (they hold
 * the row to retract), so memory grows with the distinct groups one epoch touches, at most its
 * input rows. After the barrier at most {@link #DEFAULT_CACHE_GROUPS} decoded groups stay, the
 * others chosen by CLOCK (an approximation of least recently used, see {@link ByteKeyMap}); a
 * group not held is read back from the group table (pending writes over committed state), unless
 * the table held nothing when the operator started and no group has been
 * dropped from memory since (a view's first backfill of up to {@link #DEFAULT_CACHE_GROUPS} groups
 * per actor): then a group not held is new, and its lookup costs no store read. Every
 * changed group is written to the group table at the barrier, so the held groups are always
 * clean and dropping one costs nothing. MIN/MAX values are held or counted as {@link
 * ExtremeValues} says; DISTINCT values are counted against their value tables with one point read
 * each. Pending writes of all tables stay in memory until the barrier.
 *
 * <p>Per row, a group already held costs no allocation: its key is encoded into a reused buffer
 * and looked up from there ({@link ByteKeyMap#find}); only a new group copies its key. When every
 * call is COUNT, a NUMERIC SUM or MIN/MAX without DISTINCT or FILTER (and no window is cleaned), an
 * inserted row is only summed into its group's stretch of {@link FlatInserts}, which the group's
 * state takes in at the barrier or before the group's next row that takes the path above (a
 * delete, a row that does not fit there), so a snapshot's row touches one or two cache lines rather
 * than the group's chain of objects.
 *
 * <p>Cleaning. With {@link HashAggNode#cleaning()}, each barrier removes from both kinds of table
 * the groups whose window the watermark of the input's table passed; no later row can reach them,
 * and their output rows stay downstream. Groups are found through an in-memory index of the groups
 * with rows: those stored in the actor's vnodes when it starts, and those touched since. With
 * {@link WindowCleaning#emitOnClose()} a group's changes are never emitted as they happen: its row
 * is emitted once, as an insert, at the barrier where its window closes, just before its state goes.
 *
 * <p>Threading and calls follow {@link Operator}: one actor thread.
 */
public final class HashAggOperator implements Operator {
    /**
     * Groups kept decoded in memory across barriers, by default: a few hundred bytes each, and
     * enough for {@code bench backfill}'s 50,000 customers, whose checkpoints otherwise read most
     * groups back from the store.
     */
    static final int DEFAULT_CACHE_GROUPS = 65_536;

    private final int[] groupKeys;
    private final List<DataType> groupKeyTypes;
    private final AggCall[] calls;
    private final AggFunction[] functions;
    /** Per call, its value table, or null when the call keeps no values. */
    private final ValueTable[] valueTables;
    /** Per call, its argument's type, or null for {@code count(*)}. */
    private final DataType[] argTypes;
    /** The MIN/MAX argument values of the groups and their value-table writes. */
    private final ExtremeValues extremes;

    private final StateTable groups;
    private final int groupRowWidth;
    private final int cacheGroups;
    /** The groups held decoded: the touched ones and up to {@link #cacheGroups} others, by encoded group key. */
    private final ByteKeyMap<HeldGroup> held;
    /** Ids in {@link #held} of the groups changed since the last barrier, in first-touch order. */
    private int[] touched = new int[1024];

    private int touchedCount;
    /** Per row of the chunk being applied, its group's id in {@link #held}; reused across chunks. */
    private int[] chunkGroups = new int[Chunk.TARGET_SIZE];

    private final ByteWriter keyWriter = new ByteWriter(32);
    /**
     * The inserted rows not yet applied to their groups, summed flat per group, or null when a call
     * is one {@link FlatInserts} cannot sum or the operator cleans windows.
     */
    private final FlatInserts flat;

    private boolean started;
    /**
     * Whether every group with a stored row is in {@link #held}, so a group not held is new and
     * {@link #load} need not read the store: true from the start when the group table held nothing
     * (a view's first backfill), false for good once a group with rows is
     * evicted. Groups leaving {@link #held} because they vanished or their window was cleaned are
     * deleted from the table at the same time, so they keep it true.
     */
    private boolean allHeld;

    /** Which groups a watermark finishes, or null when state is kept for every group with rows. */
    private final WindowCleaning cleaning;

    private final WatermarkReader watermarks;
    /**
     * With {@link #cleaning}: the groups that had rows at a barrier since this operator started, by
     * their window bound, so a passing watermark finds the finished ones without a scan.
     */
    private final TreeMap<Long, List<Indexed>> byWindow = new TreeMap<>();

    private final Set<GroupKey> indexed = new HashSet<>();
    /** The vnodes whose stored groups {@link #start} indexes, or null (a test's operator owning all it sees). */
    private int[] ownedVnodes;

    /**
     * @param stateTableIds one id per state table, {@code node.stateTableCount()} of them, in the
     *     order the class comment lists the tables
     * @param committed the store's latest committed state; not closed here
     */
    public HashAggOperator(HashAggNode node, int[] stateTableIds, ReadView committed) {
        this(node, stateTableIds, committed, DEFAULT_CACHE_GROUPS, WatermarkReader.NONE);
    }

    /**
     * As {@link #HashAggOperator(HashAggNode, int[], ReadView)}, reading the watermarks of a node
     * with {@link HashAggNode#cleaning()} from {@code watermarks}; such a node's groups in
     * {@code ownedVnodes} (the actor's, ascending) are read back into its index when it starts. When
     * the group table holds nothing at the start, new groups are not looked up in the store (see
     * {@link #allHeld}).
     */
    public HashAggOperator(
            HashAggNode node, int[] stateTableIds, ReadView committed, WatermarkReader watermarks, int[] ownedVnodes) {
        this(node, stateTableIds, committed, DEFAULT_CACHE_GROUPS, watermarks);
        this.ownedVnodes = ownedVnodes;
    }

    /** As the public constructor, caching at most {@code cacheGroups} decoded groups. */
    HashAggOperator(
            HashAggNode node, int[] stateTableIds, ReadView committed, int cacheGroups, WatermarkReader watermarks) {
        if (stateTableIds.length != node.stateTableCount()) {
            throw new IllegalArgumentException(
                    "aggregation needs " + node.stateTableCount() + " state tables, got " + stateTableIds.length);
        }
        List<DataType> inputTypes =
                node.input().fields().stream().map(Field::type).toList();
        this.groupKeys = node.groupKeys().clone();
        this.cleaning = node.cleaning();
        this.watermarks = watermarks;
        this.groupKeyTypes = Arrays.stream(groupKeys).mapToObj(inputTypes::get).toList();
        this.calls = node.calls().toArray(new AggCall[0]);
        this.functions = new AggFunction[calls.length];
        this.valueTables = new ValueTable[calls.length];
        this.argTypes = new DataType[calls.length];
        List<DataType> groupRowTypes = new ArrayList<>(groupKeyTypes);
        int nextTable = 1;
        for (int i = 0; i < calls.length; i++) {
            AggCall call = calls[i];
            DataType argType = call.arg() < 0 ? null : inputTypes.get(call.arg());
            argTypes[i] = argType;
            functions[i] = AggFunction.of(call, argType);
            groupRowTypes.addAll(functions[i].stateTypes());
            if (call.keepsValues()) {
                valueTables[i] = new ValueTable(
                        stateTableIds[nextTable++], groupKeyTypes, argType, call.kind() == AggKind.MAX, committed);
            }
        }
        groupRowTypes.add(DataType.BIGINT);
        this.extremes = new ExtremeValues(calls, argTypes, valueTables);
        this.groupRowWidth = groupRowTypes.size();
        this.groups = new StateTable(stateTableIds[0], groupKeyTypes, null, groupKeys.length, groupRowTypes, committed);
        this.cacheGroups = cacheGroups;
        this.held = new ByteKeyMap<>(Math.min(cacheGroups, 1024));
        this.flat = groupKeys.length > 0 && cleaning == null && FlatInserts.supports(calls, argTypes)
                ? new FlatInserts(calls, argTypes)
                : null;
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        start(out);
        int n = chunk.size();
        if (chunkGroups.length < n) {
            chunkGroups = new int[n];
        }
        // Two passes: first every row's group, then the rows in order. Each row's lookup misses
        // the cache (tens of thousands of groups) but depends on no other row's, so in a pass of
        // lookups alone the CPU overlaps the misses of several rows, where in one interleaved loop
        // each waited behind the previous row's accumulator updates.
        for (int i = 0; i < n; i++) {
            chunkGroups[i] = groupOf(chunk.row(i));
        }
        for (int i = 0; i < n; i++) {
            int id = chunkGroups[i];
            if (flat != null) {
                if (chunk.op(i).sign() > 0 && addFlat(id, chunk.row(i))) {
                    continue;
                }
                // the group's earlier inserts first, so this row applies after them as it came
                fold(id);
            }
            HeldGroup h = held.get(id);
            if (!h.touched) {
                touch(h, id);
            } else if (h.group.rowCount == 0 && groupKeys.length > 0) {
                // the group's last row went earlier in this epoch: it comes back fresh, with this row's key
                h.group = GroupState.empty(keyValues(chunk.row(i)), functions);
            }
            apply(h, chunk.row(i), chunk.op(i).sign());
        }
    }

    /**
     * The id in {@link #held} of {@code row}'s group, loading it (or starting it empty) when not
     * held. Ids stay valid until the barrier: groups leave {@link #held} only there.
     */
    private int groupOf(Object[] row) {
        keyWriter.reset();
        KeyCodec.encode(keyWriter, groupKeyTypes, row, groupKeys);
        int id = held.find(keyWriter.array(), keyWriter.length());
        if (id >= 0) {
            return id;
        }
        GroupState loaded = load(keyValues(row));
        HeldGroup h = new HeldGroup(loaded, present(loaded) ? loaded.output() : null);
        h.values = extremes.heldValues(loaded);
        int added = held.put(keyWriter.array(), keyWriter.length(), h);
        if (flat != null) {
            flat.ensure(held.idLimit());
        }
        return added;
    }

    /**
     * Counts an inserted row into group {@code id}'s {@link FlatInserts} and returns true, or returns
     * false having changed nothing (the row takes the ordinary path). The group's {@link HeldGroup} is
     * read only for its first flat row since the last fold, to mark it touched; a group whose last
     * row went earlier in the epoch comes back fresh through the ordinary path.
     */
    private boolean addFlat(int id, Object[] row) {
        HeldGroup h = null;
        if (flat.rows(id) == 0) {
            h = held.get(id);
            if (h.touched && h.group.rowCount == 0) {
                return false;
            }
        }
        if (!flat.add(id, row)) {
            return false;
        }
        if (h != null && !h.touched) {
            touch(h, id);
        }
        return true;
    }

    private void touch(HeldGroup h, int id) {
        h.touched = true;
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = id;
    }

    /** Applies group {@code id}'s {@link FlatInserts} to its state, as those rows one by one would. */
    private void fold(int id) {
        long rows = flat.rows(id);
        if (rows == 0) {
            return;
        }
        HeldGroup h = held.get(id);
        GroupState g = h.group;
        g.rowCount += rows;
        for (int c = 0; c < calls.length; c++) {
            Accumulator acc = g.accumulators[c];
            switch (calls[c].kind()) {
                case COUNT -> ((CountAccumulator) acc).add(calls[c].arg() < 0 ? rows : flat.count(id, c));
                case SUM, SUM0 -> {
                    long terms = flat.sumTerms(id, c);
                    if (terms > 0) {
                        ((DecimalSumAccumulator) acc).addSum(flat.sum(id, c), terms);
                    }
                }
                default -> {
                    for (int k = 0; k < FlatInserts.VALUES; k++) {
                        long occurrences = flat.valueCount(id, c, k);
                        if (occurrences > 0) {
                            extremes.add(h, c, flat.value(id, c, k), occurrences);
                        }
                    }
                }
            }
        }
        flat.clear(id);
    }

    /** Folds every group's {@link FlatInserts}; at the barrier, before anything reads the groups. */
    private void foldAll() {
        if (flat == null) {
            return;
        }
        int[] ids = flat.pendingIds();
        for (int k = 0, n = flat.pendingCount(); k < n; k++) {
            fold(ids[k]);
        }
        flat.clearPending();
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        start(out);
        foldAll();
        extremes.handOverPending(held, touched, touchedCount);
        emitTouched(out);
        extremes.written();
        while (held.size() > cacheGroups) {
            forget(held.victim());
            allHeld = false;
        }
        if (cleaning != null && barrier.checkpoint() == null) {
            // not while backfilling: a window's snapshot rows may still be on their way
            forgetFinishedWindows(out);
        }
        groups.flush(writes);
        for (ValueTable t : valueTables) {
            if (t != null) {
                t.flush(writes);
            }
        }
    }

    /**
     * The most changes held for any one state table: the groups whose output waits for the barrier
     * (each becomes one group-table write then) plus the group table's pending writes, or a value
     * table's pending and uncounted keys plus the value changes groups hold ({@link ExtremeValues#heldChanges}). Memory is then bounded by the number of tables times
     * what a backfill's checkpoint allows, while groups that absorb many rows between checkpoints
     * do not bring checkpoints sooner (each checkpoint re-emits and re-writes every group it touched).
     */
    @Override
    public long heldChanges() {
        long held = (long) touchedCount + groups.pendingCount();
        for (ValueTable t : valueTables) {
            if (t != null) {
                held = Math.max(held, t.held() + extremes.heldChanges() + (flat == null ? 0 : flat.pendingValues()));
            }
        }
        return held;
    }

    /** Removes group {@code id} from {@link #held}, with the values it held. */
    private void forget(int id) {
        extremes.forget(held.get(id));
        held.remove(id);
    }

    /**
     * Emits the epoch's changed rows, in the order the groups were first touched, and writes each
     * touched group to the group table (or deletes the vanished ones from it and from {@link #held}).
     */
    private void emitTouched(Output out) {
        for (int k = 0; k < touchedCount; k++) {
            int id = touched[k];
            HeldGroup h = held.get(id);
            GroupState g = h.group;
            if (h.values != null) {
                extremes.writeHeld(h);
            }
            if (present(g)) {
                extremes.settle(g);
            }
            Object[] before = h.lastOutput;
            Object[] after = present(g) ? g.output() : null;
            if (!emitsOnClose() && !Arrays.deepEquals(before, after)) {
                if (before != null) {
                    out.emit(Op.DELETE, before);
                }
                if (after != null) {
                    out.emit(Op.INSERT, after);
                }
            }
            h.touched = false;
            h.lastOutput = after;
            if (after == null) {
                forget(id);
                groups.delete(g.key);
            } else {
                groups.put(g.key, g.save(groupRowWidth, functions));
                if (cleaning != null && !h.indexed) {
                    // once per held group, not per epoch: the index key is a copy
                    h.indexed = true;
                    index(new GroupKey(held.key(id)), g.key);
                }
            }
        }
        touchedCount = 0;
        if (touched.length > 65_536) {
            // an epoch that touched very many groups does not keep its list's memory
            touched = new int[1024];
        }
    }

    /**
     * Removes the state of every indexed group whose window the watermark passed (see {@link
     * WindowCleaning}); their rows stay in the view (emitting on close, they are emitted now). The watermark read is the one every row of
     * this epoch was judged by, so no row of this epoch or a later one reaches such a group.
     */
    private void forgetFinishedWindows(Output out) {
        long watermark = watermarks.watermark(cleaning.relationId());
        if (watermark == Long.MIN_VALUE) {
            return;
        }
        Map<Long, List<Indexed>> finished = byWindow.headMap(watermark - cleaning.lagMicros(), true);
        for (List<Indexed> windowGroups : finished.values()) {
            for (Indexed group : windowGroups) {
                indexed.remove(group.key());
                byte[] key = group.key().bytes;
                int id = held.find(key, key.length);
                GroupState g = null;
                if (id >= 0) {
                    g = held.get(id).group;
                    forget(id);
                }
                if (emitsOnClose()) {
                    emitClosed(out, g, group);
                }
                groups.delete(group.values());
                for (ValueTable t : valueTables) {
                    if (t != null) {
                        t.removeGroup(group.values());
                    }
                }
            }
        }
        finished.clear();
    }

    private boolean emitsOnClose() {
        return cleaning != null && cleaning.emitOnClose();
    }

    /** Emits the final row of a group whose window closed ({@code cached} null when not held). */
    private void emitClosed(Output out, GroupState cached, Indexed group) {
        GroupState g = cached;
        if (g == null) {
            Object[] stored = groups.get(group.values());
            g = stored == null ? null : GroupState.load(stored, groupKeys.length, functions);
        }
        if (g != null && g.rowCount > 0) {
            out.emit(Op.INSERT, g.output());
        }
    }

    /**
     * Indexes the groups stored in the actor's vnodes, so a restored operator forgets (and, emitting
     * on close, emits) windows no row touches again. Once, when the operator starts.
     */
    private void indexStoredGroups() {
        int[] positions = java.util.stream.IntStream.range(0, groupKeys.length).toArray();
        for (int vnode : ownedVnodes) {
            try (StateTable.ValueIterator it = groups.scanCommittedVnode(vnode)) {
                while (it.hasNext()) {
                    Object[] keyValues = Arrays.copyOf(it.next(), groupKeys.length);
                    keyWriter.reset();
                    KeyCodec.encode(keyWriter, groupKeyTypes, keyValues, positions);
                    index(new GroupKey(keyWriter.toByteArray()), keyValues);
                }
            }
        }
    }

    private void index(GroupKey key, Object[] keyValues) {
        if (indexed.add(key)) {
            byWindow.computeIfAbsent((Long) keyValues[cleaning.keyIndex()], w -> new ArrayList<>())
                    .add(new Indexed(key, keyValues));
        }
    }

    /** A group in {@link #byWindow}: its identity and key values. */
    private record Indexed(GroupKey key, Object[] values) {}

    /** Emits a global aggregate's row over no input, once, unless the committed state shows it was emitted. */
    private void start(Output out) {
        if (started) {
            return;
        }
        started = true;
        // decided before this operator's first write (see allHeld). One short scan of the whole
        // table, not one per owned vnode: those scans had cost more than the store reads they
        // saved (JFR). A table with rows in other actors' vnodes only (a rescaled view) keeps reading.
        allHeld = groupKeys.length > 0 && groups.committedEmpty(null);
        if (cleaning != null && ownedVnodes != null) {
            indexStoredGroups();
        }
        if (groupKeys.length == 0 && groups.get(new Object[0]) == null) {
            GroupState g = GroupState.empty(new Object[0], functions);
            Object[] row = g.output();
            keyWriter.reset();
            held.put(keyWriter.array(), 0, new HeldGroup(g, row));
            groups.put(g.key, g.save(groupRowWidth, functions));
            out.emit(Op.INSERT, row);
        }
    }

    /** Whether the group has an output row: a global aggregate's always does. */
    private boolean present(GroupState g) {
        return g.rowCount > 0 || groupKeys.length == 0;
    }

    /** The stored group of key {@code keyValues}, or a new empty one. */
    private GroupState load(Object[] keyValues) {
        Object[] stored = allHeld ? null : groups.get(keyValues);
        return stored == null
                ? GroupState.empty(keyValues, functions)
                : GroupState.load(stored, groupKeys.length, functions);
    }

    private Object[] keyValues(Object[] row) {
        Object[] keyValues = new Object[groupKeys.length];
        for (int i = 0; i < groupKeys.length; i++) {
            keyValues[i] = row[groupKeys[i]];
        }
        return keyValues;
    }

    /** Counts {@code row} into (sign +1) or out of (-1) the group of {@code h}. */
    private void apply(HeldGroup h, Object[] row, int sign) {
        GroupState g = h.group;
        g.rowCount += sign;
        if (g.rowCount < 0) {
            throw new IllegalStateException("a row was deleted from an aggregation group that never held it");
        }
        for (int c = 0; c < calls.length; c++) {
            AggCall call = calls[c];
            if (call.filterArg() >= 0 && !Boolean.TRUE.equals(row[call.filterArg()])) {
                continue;
            }
            Object value = null;
            if (call.arg() >= 0) {
                value = row[call.arg()];
                if (value == null) {
                    continue;
                }
            }
            ValueTable values = valueTables[c];
            if (values != null) {
                if (call.kind() == AggKind.MIN || call.kind() == AggKind.MAX) {
                    extremes.add(h, c, value, sign);
                    continue;
                } else if (!values.change(g.key, value, sign)) {
                    // a call that keeps its values sees a value only when it appears in or leaves the group
                    continue;
                }
            }
            g.accumulators[c].add(value, sign);
        }
    }

    /**
     * A group's identity in the cleaning index: the memcomparable encoding of its key, equal exactly
     * when the keys are SQL-equal. Only views with {@link #cleaning} make these, once per group.
     */
    private static final class GroupKey {
        private final byte[] bytes;
        private final int hash;

        GroupKey(byte[] bytes) {
            this.bytes = bytes;
            this.hash = ByteHash.of(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof GroupKey k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
