package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.Field;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.SourceNode;
import io.tributary.stream.OperatorHarness;
import io.tributary.stream.WatermarkReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HashAggOperator}'s MIN/MAX occurrences summed per value beside their group ({@link
 * PendingValues}) before they reach the value table: with more values per group than it holds,
 * values changing sign within an epoch, and operators restored from the committed state only.
 */
class HashAggPendingValuesTest {
    @TempDir
    Path dir;

    private final List<OperatorHarness> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() {
        open.forEach(OperatorHarness::close);
    }

    /** (group INTEGER, value INTEGER) -> group, count(*), min(value), max(value). */
    private OperatorHarness harness() {
        SourceNode input = new SourceNode(
                1, "t", List.of(new Field("g", DataType.INTEGER), new Field("v", DataType.INTEGER)), new int[] {0});
        List<AggCall> calls = List.of(
                new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT),
                new AggCall(AggKind.MIN, 1, false, -1, DataType.INTEGER),
                new AggCall(AggKind.MAX, 1, false, -1, DataType.INTEGER));
        List<Field> fields = new ArrayList<>(List.of(input.fields().get(0)));
        calls.forEach(c -> fields.add(new Field(c.toString(), c.type())));
        HashAggNode node = new HashAggNode(input, new int[] {0}, calls, fields);
        int[] ids = IntStream.range(0, node.stateTableCount()).map(i -> 100 + i).toArray();
        OperatorHarness h = new OperatorHarness(
                dir.resolve("store" + open.size()),
                view -> new HashAggOperator(
                        node, ids, view, HashAggOperator.DEFAULT_CACHE_GROUPS, WatermarkReader.NONE));
        open.add(h);
        return h;
    }

    private static Object[] row(Object... values) {
        return values;
    }

    /**
     * A group's MIN/MAX occurrences are summed per value beside the group, for at most {@link
     * PendingValues#CAPACITY} values an epoch; the group's other values go to the value table row
     * by row. Values on both paths that lose copies and come back within one epoch must keep their
     * multiplicities in state, which an operator restored from it shows.
     */
    @Test
    void extremesOfManyValuesKeepTheirMultiplicitiesOnBothPaths() {
        OperatorHarness h = harness();
        int values = 2 * PendingValues.CAPACITY + 4;
        Object[][] twice = new Object[2 * values][];
        Object[][] once = new Object[values][];
        for (int v = 1; v <= values; v++) {
            twice[2 * v - 2] = row(1, v);
            twice[2 * v - 1] = row(1, v);
            once[v - 1] = row(1, v);
        }
        h.insert(0, twice).barrier();
        assertEquals(List.of("[1, " + 2 * values + ", 1, " + values + "]"), h.rows());
        // every value loses a copy; the least and greatest lose the other too and come back twice
        h.delete(0, once)
                .delete(0, row(1, 1), row(1, values))
                .insert(0, row(1, 1), row(1, values), row(1, 1), row(1, values))
                .barrier();
        assertEquals(List.of("[1, " + (values + 2) + ", 1, " + values + "]"), h.rows());
        h.restore().delete(0, row(1, 1), row(1, values)).barrier();
        assertEquals(List.of("[1, " + values + ", 1, " + values + "]"), h.rows(), "the extremes had two copies each");
        h.delete(0, row(1, 1), row(1, values)).barrier();
        assertEquals(List.of("[1, " + (values - 2) + ", 2, " + (values - 1) + "]"), h.rows());
        Object[][] rest = Arrays.copyOfRange(once, 1, values - 1);
        h.restore().delete(0, rest).barrier();
        assertEquals(List.of(), h.rows(), "every other value had one copy left");
    }

    /**
     * Random inserts and deletes over a few groups of up to 12 values each (more than a group's
     * pending values hold), with barriers and restores, against MIN/MAX recomputed from the rows.
     */
    @Test
    void randomChangesOfManyValuesMatchTheExtremesRecomputed() {
        randomChangesMatchTheExtremesRecomputed(12);
    }

    /**
     * As {@link #randomChangesOfManyValuesMatchTheExtremesRecomputed}, with more distinct values per
     * group than a group holds in memory ({@link HeldValues}): groups give their values up at a
     * barrier and go on through the value table, whose counts they wrote.
     */
    @Test
    void randomChangesOfMoreValuesThanAGroupHoldsMatchTheExtremesRecomputed() {
        randomChangesMatchTheExtremesRecomputed(ExtremeValues.HELD_VALUES_PER_GROUP + 24);
    }

    private void randomChangesMatchTheExtremesRecomputed(int distinctValues) {
        for (long seed = 1; seed <= 6; seed++) {
            Random rnd = new Random(seed);
            OperatorHarness h = harness();
            List<Object[]> live = new ArrayList<>();
            List<Object[]> committed = new ArrayList<>();
            for (int step = 0; step < 400; step++) {
                int n = 1 + rnd.nextInt(20);
                for (int i = 0; i < n; i++) {
                    if (live.isEmpty() || rnd.nextInt(10) < 6) {
                        Object[] r = row(rnd.nextInt(3), rnd.nextInt(distinctValues));
                        live.add(r);
                        h.insert(0, r);
                    } else {
                        h.delete(0, live.remove(rnd.nextInt(live.size())));
                    }
                }
                int r = rnd.nextInt(8);
                if (r < 2) {
                    h.barrier();
                    committed = new ArrayList<>(live);
                    assertEquals(expected(live), h.rows(), "seed " + seed + " step " + step);
                } else if (r == 2) {
                    h.restore();
                    live = new ArrayList<>(committed);
                }
            }
            h.barrier();
            assertEquals(expected(live), h.rows(), "seed " + seed + " at the end");
        }
    }

    /** The rows {@link OperatorHarness#rows} shows for the aggregate over {@code live}. */
    private static List<String> expected(List<Object[]> live) {
        TreeMap<Integer, int[]> groups = new TreeMap<>();
        for (Object[] r : live) {
            int v = (Integer) r[1];
            int[] g = groups.computeIfAbsent((Integer) r[0], k -> new int[] {0, v, v});
            g[0]++;
            g[1] = Math.min(g[1], v);
            g[2] = Math.max(g[2], v);
        }
        List<String> out = new ArrayList<>();
        groups.forEach((k, g) -> out.add("[" + k + ", " + g[0] + ", " + g[1] + ", " + g[2] + "]"));
        return out.stream().sorted().toList();
    }
}
