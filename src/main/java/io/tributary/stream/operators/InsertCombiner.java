package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.Field;
import io.tributary.plan.HashAggNode;
import io.tributary.stream.Chunk;
import io.tributary.stream.SummedInserts;
import java.util.Arrays;
import java.util.List;

/**
 * The first phase of a two-phase GROUP BY: sums the inserted rows an actor sends towards a {@link
 * HashAggOperator} per group, in the {@link FlatInserts} layout that operator merges, so that a
 * group's rows cross the exchange as one row carrying their sums ({@link Chunk#summed}) instead of
 * one row each. Only for aggregations whose operator sums inserts flat ({@link #combines}).
 *
 * <p>The caller decides when sums leave ({@link #drain}): at every barrier, before any row that is
 * not an insert (so a delete never overtakes the insert it removes), and once it holds its most
 * groups ({@link #full}), which bounds this class's memory. Inserts commute in the receiving operator (exact
 * sums, values with their occurrences), so what a barrier's checkpoint holds is what it held when
 * the rows went one by one. A row that does not fit a group's sums (a SUM past a {@code long}, a
 * fifth distinct MIN/MAX value, a value encoded in more than 15 bytes) sends the group's sums on at
 * once, then is summed afresh or, if it does not fit even alone, goes on at once as a plain row, so
 * nothing but the groups' sums waits here. Actor thread only.
 */
public final class InsertCombiner {
    /** Receives what {@link #drain} hands on, in order; {@code sums} null for a plain inserted row. */
    public interface Sink {
        void accept(Object[] row, SummedInserts sums);
    }

    private final int[] groupKeys;
    private final List<DataType> groupKeyTypes;
    private final int maxGroups;
    /** The groups summed since the last drain, by encoded group key; the value is the group's first row. */
    private final ByteKeyMap<Object[]> groups = new ByteKeyMap<>(1024);

    private final FlatInserts flat;
    private final ByteWriter keyWriter = new ByteWriter(32);

    /** Whether a combiner may feed {@code node}: its operator sums every insert flat. */
    public static boolean combines(HashAggNode node) {
        return node.groupKeys().length > 0
                && node.cleaning() == null
                && FlatInserts.supports(node.calls().toArray(new AggCall[0]), argTypes(node));
    }

    /** For rows of {@code node}'s input; at most {@code maxGroups} groups between drains. */
    public InsertCombiner(HashAggNode node, int maxGroups) {
        List<Field> input = node.input().fields();
        this.groupKeys = node.groupKeys().clone();
        this.groupKeyTypes =
                Arrays.stream(groupKeys).mapToObj(k -> input.get(k).type()).toList();
        this.maxGroups = maxGroups;
        this.flat = new FlatInserts(node.calls().toArray(new AggCall[0]), argTypes(node));
    }

    private static DataType[] argTypes(HashAggNode node) {
        List<Field> input = node.input().fields();
        return node.calls().stream()
                .map(c -> c.arg() < 0 ? null : input.get(c.arg()).type())
                .toArray(DataType[]::new);
    }

    /**
     * Sums the inserted {@code row} into its group; when it does not fit there, hands the group's
     * sums, and the row itself if it does not fit alone either, to {@code sink} at once.
     */
    public void add(Object[] row, Sink sink) {
        keyWriter.reset();
        KeyCodec.encode(keyWriter, groupKeyTypes, row, groupKeys);
        int id = groups.find(keyWriter.array(), keyWriter.length());
        if (id < 0) {
            id = groups.put(keyWriter.array(), keyWriter.length(), row);
            flat.ensure(groups.idLimit());
        }
        if (flat.add(id, row)) {
            return;
        }
        if (flat.rows(id) > 0) {
            sink.accept(groups.get(id), flat.summed(id));
            flat.clear(id);
            groups.set(id, row);
            if (flat.add(id, row)) {
                return;
            }
        }
        sink.accept(row, null);
    }

    /** Whether the groups held reached the bound, so the caller should {@link #drain}. */
    public boolean full() {
        return groups.size() >= maxGroups;
    }

    /** Hands every group's sums to {@code sink} and forgets them. */
    public void drain(Sink sink) {
        int[] ids = flat.pendingIds();
        for (int k = 0, n = flat.pendingCount(); k < n; k++) {
            int id = ids[k];
            if (flat.rows(id) > 0) {
                sink.accept(groups.get(id), flat.summed(id));
                flat.clear(id);
            }
        }
        flat.clearPending();
        groups.clear();
    }
}
