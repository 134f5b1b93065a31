package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.plan.SortKey;
import io.tributary.plan.TopNNode;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random inserts, deletes and updates with many ties and NULLs, random barriers and restores,
 * under random ORDER BY / OFFSET / LIMIT; after every barrier the committed output must equal a
 * brute-force sort and slice of the committed input.
 */
class TopNOperatorRandomTest {
    private static final int SEEDS = 30;
    private static final int STEPS = 150;
    private static final String[] NAMES = {"x", "xy", "y", "", "Z"};

    @TempDir
    Path dir;

    @Test
    void matchesSortAndSliceOfTheLiveInput() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            try {
                run(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("TopN random test failed with seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    private void run(long seed) {
        Random rnd = new Random(seed);
        List<SortKey> order = new ArrayList<>();
        for (int column : rnd.nextBoolean() ? new int[] {1, 2} : rnd.nextBoolean() ? new int[] {2, 1} : new int[] {1}) {
            order.add(new SortKey(column, rnd.nextBoolean(), rnd.nextBoolean()));
        }
        long offset = rnd.nextInt(4);
        long limit = rnd.nextInt(8);
        TopNNode node = new TopNNode(TopNOperatorTest.INPUT, order, offset, limit);
        String where = "order " + order + " offset " + offset + " limit " + limit;

        Map<Long, Object[]> live = new HashMap<>();
        Map<Long, Object[]> committed = new HashMap<>();
        long nextId = 0;
        try (OperatorHarness h = new OperatorHarness(
                dir.resolve("seed" + seed), view -> new TopNOperator(node, TopNOperatorTest.STATE, view))) {
            for (int step = 0; step < STEPS; step++) {
                List<Op> ops = new ArrayList<>();
                List<Object[]> rows = new ArrayList<>();
                int changes = 1 + rnd.nextInt(6);
                for (int c = 0; c < changes; c++) {
                    int kind = rnd.nextInt(10);
                    if (live.isEmpty() || kind < 5) {
                        // reuse a deleted id now and then: keys come back with other values
                        long id = rnd.nextInt(4) == 0 && nextId > 0 ? rnd.nextInt((int) nextId) : nextId++;
                        if (live.containsKey(id)) {
                            id = nextId++;
                        }
                        Object[] row = randomRow(rnd, id);
                        live.put(id, row);
                        ops.add(Op.INSERT);
                        rows.add(row);
                    } else {
                        Long[] ids = live.keySet().toArray(new Long[0]);
                        Arrays.sort(ids);
                        long id = ids[rnd.nextInt(ids.length)];
                        ops.add(Op.DELETE);
                        rows.add(live.remove(id));
                        if (kind < 8) {
                            Object[] row = randomRow(rnd, id);
                            live.put(id, row);
                            ops.add(Op.INSERT);
                            rows.add(row);
                        }
                    }
                }
                h.push(0, new Chunk(ops.toArray(new Op[0]), rows.toArray(new Object[0][])));
                int next = rnd.nextInt(10);
                if (next < 3) {
                    h.barrier();
                    committed = new HashMap<>(live);
                    assertEquals(expected(committed, order, offset, limit), h.result(), where + " at step " + step);
                } else if (next == 4) {
                    h.restore();
                    live = new HashMap<>(committed);
                }
            }
            h.barrier();
            assertEquals(expected(live, order, offset, limit), h.result(), where + " at the end");
        }
    }

    private static Object[] randomRow(Random rnd, long id) {
        Integer score = rnd.nextInt(5) == 0 ? null : rnd.nextInt(6) - 2;
        String name = rnd.nextInt(5) == 0 ? null : NAMES[rnd.nextInt(NAMES.length)];
        return new Object[] {id, score, name};
    }

    /** The brute-force answer as the harness's multiset: sort all rows, ties broken by id, and slice. */
    private static Map<List<Object>, Integer> expected(
            Map<Long, Object[]> rows, List<SortKey> order, long offset, long limit) {
        Comparator<Object[]> cmp = (a, b) -> 0;
        for (SortKey k : order) {
            cmp = cmp.thenComparing(r -> r[k.column()], sqlOrder(k));
        }
        cmp = cmp.thenComparing(r -> (Long) r[0]);
        List<Object[]> sorted = new ArrayList<>(rows.values());
        sorted.sort(cmp);
        Map<List<Object>, Integer> out = new HashMap<>();
        for (long i = offset; i < Math.min(sorted.size(), offset + limit); i++) {
            out.merge(Arrays.asList(sorted.get((int) i)), 1, Integer::sum);
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> sqlOrder(SortKey k) {
        Comparator<Object> values = (a, b) -> ((Comparable) a).compareTo(b);
        if (k.descending()) {
            values = values.reversed();
        }
        return k.nullsFirst() ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
    }
}
