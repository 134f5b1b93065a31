package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.Field;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.SourceNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.OperatorHarness;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HashAggOperatorTest {
    @TempDir
    Path dir;

    private final List<OperatorHarness> open = new ArrayList<>();

    @AfterEach
    void closeHarnesses() {
        open.forEach(OperatorHarness::close);
    }

    private static SourceNode source(DataType... types) {
        List<Field> fields = IntStream.range(0, types.length)
                .mapToObj(i -> new Field("c" + i, types[i]))
                .toList();
        return new SourceNode(1, "t", fields, new int[] {0});
    }

    private static HashAggNode agg(SourceNode input, int[] groupKeys, AggCall... calls) {
        List<Field> fields = new ArrayList<>();
        for (int k : groupKeys) {
            fields.add(input.fields().get(k));
        }
        for (AggCall c : calls) {
            fields.add(new Field(c.toString(), c.type()));
        }
        return new HashAggNode(input, groupKeys, List.of(calls), fields);
    }

    private static AggCall call(AggKind kind, int arg, DataType type) {
        return new AggCall(kind, arg, false, -1, type);
    }

    private OperatorHarness harness(HashAggNode node) {
        return harness(node, HashAggOperator.DEFAULT_CACHE_GROUPS);
    }

    private OperatorHarness harness(HashAggNode node, int cacheGroups) {
        OperatorHarness h = new OperatorHarness(dir.resolve("store" + open.size()), factory(node, cacheGroups));
        open.add(h);
        return h;
    }

    private OperatorHarness.Scenario verify(HashAggNode node) {
        return verify(node, HashAggOperator.DEFAULT_CACHE_GROUPS);
    }

    private OperatorHarness.Scenario verify(HashAggNode node, int cacheGroups) {
        return OperatorHarness.verify(dir, factory(node, cacheGroups));
    }

    private static Function<ReadView, Operator> factory(HashAggNode node, int cacheGroups) {
        int[] ids = IntStream.range(0, node.stateTableCount()).map(i -> 100 + i).toArray();
        return view -> new HashAggOperator(node, ids, view, cacheGroups, io.tributary.stream.WatermarkReader.NONE);
    }

    private static Object[] row(Object... values) {
        return values;
    }

    @Test
    void countsAndSumsPerGroupIgnoringNulls() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.COUNT, 1, DataType.BIGINT),
                call(AggKind.SUM, 1, DataType.BIGINT),
                call(AggKind.SUM0, 1, DataType.BIGINT));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, 10), row(1, null), row(2, 5), row(1, 7), row(3, null))
                .barrier();
        assertEquals(List.of("[1, 3, 2, 17, 17]", "[2, 1, 1, 5, 5]", "[3, 1, 0, null, 0]"), h.rows());
        assertEquals(
                List.of(1L),
                h.result().keySet().stream()
                        .filter(r -> r.get(0).equals(2))
                        .map(r -> r.get(1))
                        .toList(),
                "counts are BIGINT (Long)");
    }

    @Test
    void heldChangesCountTheEpochsGroupsAndValuesNotItsRowsAndEndAtTheBarrier() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.MAX, 1, DataType.INTEGER));
        OperatorHarness h = harness(node);
        assertEquals(0, h.heldChanges());
        for (int chunk = 0; chunk < 10; chunk++) {
            Object[][] rows = new Object[100][];
            for (int i = 0; i < rows.length; i++) {
                int x = chunk * 100 + i;
                rows[i] = row(x % 10, x % 50);
            }
            h.insert(0, rows);
        }
        // 1,000 rows: 10 groups awaiting output, and the larger count, 50 (group, value) pairs awaiting their count
        assertEquals(50, h.heldChanges());
        h.barrier();
        assertEquals(0, h.heldChanges());
        // a removed value is counted at once: one value-table write held, one group awaiting output
        h.delete(0, row(3, 3));
        assertEquals(1, h.heldChanges());
        h.barrier();
        assertEquals(0, h.heldChanges());
    }

    @Test
    void nullGroupKeysFormOneGroup() {
        HashAggNode node =
                agg(source(DataType.TEXT, DataType.INTEGER), new int[] {0}, call(AggKind.COUNT, -1, DataType.BIGINT));
        verify(node)
                .insert(0, row(null, 1), row("a", 2))
                .insert(0, row(null, 3))
                .expectRows(List.of("[a, 1]", "[null, 2]"));
        verify(node)
                .insert(0, row(null, 1), row("a", 2))
                .insert(0, row(null, 3))
                .delete(0, row(null, 1))
                .expectRows(List.of("[a, 1]", "[null, 1]"));
    }

    @Test
    void numericSumKeepsTheInputScaleAndFloatSumsKeepTheirType() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.numeric(10, 2), DataType.DOUBLE, DataType.REAL),
                new int[] {0},
                call(AggKind.SUM, 1, DataType.NUMERIC),
                call(AggKind.SUM0, 1, DataType.numeric(38, 2)),
                call(AggKind.SUM, 2, DataType.DOUBLE),
                call(AggKind.SUM, 3, DataType.REAL));
        OperatorHarness h = harness(node);
        h.insert(
                        0,
                        row(1, new BigDecimal("1.50"), 0.5, 1.5f),
                        row(1, new BigDecimal("2.25"), 2.0, null),
                        row(2, null, null, null))
                .barrier();
        assertEquals(
                Map.of(
                        Arrays.asList(1, new BigDecimal("3.75"), new BigDecimal("3.75"), 2.5, 1.5f), 1,
                        Arrays.asList(2, null, new BigDecimal("0.00"), null, null), 1),
                h.result());
        h.delete(0, row(1, new BigDecimal("2.25"), 2.0, null)).barrier();
        assertEquals(List.of("[1, 1.50, 1.50, 0.5, 1.5]", "[2, null, 0.00, null, null]"), h.rows());
    }

    @Test
    void numericSumForgetsTheScaleOfValuesOnceTheGroupHasNoneLeft() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.NUMERIC),
                new int[] {0},
                call(AggKind.SUM, 1, DataType.NUMERIC),
                call(AggKind.COUNT, -1, DataType.BIGINT));
        verify(node)
                .insert(0, row(1, new BigDecimal("1.500")), row(1, null))
                .delete(0, row(1, new BigDecimal("1.500")))
                .insert(0, row(1, new BigDecimal("2")))
                .expectRows(List.of("[1, 2, 2]"));
    }

    @Test
    void keysEqualInSqlAreOneGroupShownAsFirstSeen() {
        HashAggNode node = agg(
                source(DataType.NUMERIC, DataType.INTEGER), new int[] {0}, call(AggKind.COUNT, -1, DataType.BIGINT));
        OperatorHarness h = harness(node, 1);
        h.insert(0, row(new BigDecimal("1.0"), 1))
                .insert(0, row(new BigDecimal("7"), 1))
                .insert(0, row(new BigDecimal("1.00"), 2))
                .barrier();
        assertEquals(List.of("[1.0, 2]", "[7, 1]"), h.rows());
        h.restore().delete(0, row(new BigDecimal("1.00"), 2)).barrier();
        assertEquals(List.of("[1.0, 1]", "[7, 1]"), h.rows());
    }

    @Test
    void integerSumOutOfRangeReadsNullUntilItFitsAgain() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.BIGINT, DataType.INTEGER),
                new int[] {0},
                call(AggKind.SUM, 1, DataType.BIGINT),
                call(AggKind.SUM, 2, DataType.INTEGER));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, Long.MAX_VALUE, Integer.MAX_VALUE), row(1, 1L, 1)).barrier();
        assertEquals(List.of("[1, null, null]"), h.rows());
        h.restore().insert(0, row(1, Long.MAX_VALUE, -5)).barrier();
        assertEquals(List.of("[1, null, 2147483643]"), h.rows());
        h.delete(0, row(1, Long.MAX_VALUE, -5), row(1, 1L, 1)).barrier();
        assertEquals(List.of("[1, " + Long.MAX_VALUE + ", " + Integer.MAX_VALUE + "]"), h.rows());
        verify(node)
                .insert(0, row(1, Long.MAX_VALUE, Integer.MAX_VALUE), row(1, 1L, 1))
                .insert(0, row(1, Long.MAX_VALUE, -5))
                .delete(0, row(1, Long.MAX_VALUE, -5))
                .expectRows(List.of("[1, null, null]"));
    }

    @Test
    void updatesThatAlternateRemovalsAndInsertsKeepEachValueCounted() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.NUMERIC),
                new int[] {0},
                call(AggKind.MAX, 1, DataType.NUMERIC),
                call(AggKind.MIN, 1, DataType.NUMERIC));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, new BigDecimal("5")), row(1, new BigDecimal("7"))).barrier();
        // as an UPDATE's changes arrive: the old row out, the new one in, value by value; 9 is
        // added twice uncounted, then one of them goes, so one 9 must stay
        h.delete(0, row(1, new BigDecimal("5")))
                .insert(0, row(1, new BigDecimal("9")))
                .delete(0, row(1, new BigDecimal("7")))
                .insert(0, row(1, new BigDecimal("9")))
                .delete(0, row(1, new BigDecimal("9")))
                .insert(0, row(1, new BigDecimal("3.0")))
                .barrier();
        assertEquals(List.of("[1, 9, 3.0]"), h.rows());
        // the remaining 9 was counted once: removing it leaves 3.0 as the extreme both ways
        h.restore().delete(0, row(1, new BigDecimal("9"))).barrier();
        assertEquals(List.of("[1, 3.0, 3.0]"), h.rows());
        // a value added uncounted and removed in the same epoch: 3.00 and 3.0 are one value, and
        // removing both leaves the group with no row
        h.insert(0, row(1, new BigDecimal("3.00")))
                .delete(0, row(1, new BigDecimal("3")), row(1, new BigDecimal("3")))
                .barrier();
        assertEquals(List.of(), h.rows());
        verify(node)
                .insert(0, row(1, new BigDecimal("5")), row(1, new BigDecimal("7")))
                .delete(0, row(1, new BigDecimal("5")))
                .insert(0, row(1, new BigDecimal("9")), row(1, new BigDecimal("9")))
                .delete(0, row(1, new BigDecimal("7")), row(1, new BigDecimal("9")))
                .expectRows(List.of("[1, 9, 9]"));
    }

    @Test
    void minAndMaxFollowSqlOrderAndSurviveDeletingTheExtreme() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.TEXT, DataType.NUMERIC),
                new int[] {0},
                call(AggKind.MIN, 1, DataType.TEXT),
                call(AggKind.MAX, 1, DataType.TEXT),
                call(AggKind.MIN, 2, DataType.NUMERIC),
                call(AggKind.MAX, 2, DataType.NUMERIC));
        OperatorHarness h = harness(node);
        h.insert(
                        0,
                        row(1, "b", new BigDecimal("-1.5")),
                        row(1, "a", new BigDecimal("-10")),
                        row(1, "c", new BigDecimal("2")),
                        row(1, "a", null),
                        row(1, "ab", new BigDecimal("1.99")))
                .barrier();
        assertEquals(List.of("[1, a, c, -10, 2]"), h.rows());
        h.takeEmitted();
        // one of two "a"s goes: nothing changes
        h.delete(0, row(1, "a", null)).barrier();
        assertEquals(List.of(), h.takeEmitted());
        // the last "a" and the MIN/MAX numerics go: the next extremes come from committed state
        h.restore()
                .delete(0, row(1, "a", new BigDecimal("-10")), row(1, "c", new BigDecimal("2")))
                .barrier();
        assertEquals(List.of("-[1, a, c, -10, 2]", "+[1, ab, b, -1.5, 1.99]"), h.takeEmitted());
        h.delete(0, row(1, "ab", new BigDecimal("1.99")))
                .insert(0, row(1, null, null))
                .barrier();
        assertEquals(List.of("[1, b, b, -1.5, -1.5]"), h.rows());
        h.delete(0, row(1, "b", new BigDecimal("-1.5"))).barrier();
        assertEquals(List.of("[1, null, null, null, null]"), h.rows());
        verify(node)
                .insert(0, row(1, "b", new BigDecimal("-1.5")), row(1, "a", new BigDecimal("-10")))
                .insert(0, row(1, "c", new BigDecimal("2")), row(1, "a", null))
                .delete(0, row(1, "a", new BigDecimal("-10")))
                .insert(0, row(1, "ab", new BigDecimal("1.99")))
                .delete(0, row(1, "c", new BigDecimal("2")))
                .expectRows(List.of("[1, a, b, -1.5, 1.99]"));
    }

    @Test
    void extremesOfOneChunkDeletedInOrderFindEachNextOne() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.MIN, 1, DataType.INTEGER),
                call(AggKind.MAX, 1, DataType.INTEGER));
        Object[][] rows = IntStream.range(0, 50).mapToObj(i -> row(7, i)).toArray(Object[][]::new);
        verify(node)
                .insert(0, rows)
                .delete(0, Arrays.copyOfRange(rows, 0, 20))
                .delete(0, Arrays.copyOfRange(rows, 35, 50))
                .expectRows(List.of("[7, 20, 34]"));
    }

    /** MIN/MAX inserts are counted into the value table in batches; repeated values must keep their multiplicity. */
    @Test
    void extremesInsertedSeveralTimesLeaveOnlyWithTheirLastCopy() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.NUMERIC),
                new int[] {0},
                call(AggKind.MIN, 1, DataType.NUMERIC),
                call(AggKind.MAX, 1, DataType.NUMERIC));
        verify(node)
                .insert(0, row(1, new BigDecimal("5.0")), row(1, new BigDecimal("5.00")), row(1, new BigDecimal("3")))
                .insert(0, row(1, new BigDecimal("9")), row(1, new BigDecimal("9")), row(1, new BigDecimal("3.0")))
                .delete(0, row(1, new BigDecimal("9")))
                .delete(0, row(1, new BigDecimal("3")))
                .expectRows(List.of("[1, 3, 9]"));
        verify(node)
                .insert(0, row(1, new BigDecimal("5.0")), row(1, new BigDecimal("5.00")), row(1, new BigDecimal("3")))
                .insert(0, row(1, new BigDecimal("9")), row(1, new BigDecimal("9")))
                .delete(0, row(1, new BigDecimal("9")), row(1, new BigDecimal("9")), row(1, new BigDecimal("3")))
                .delete(0, row(1, new BigDecimal("5.00")))
                .expectRows(List.of("[1, 5.0, 5.0]"));
    }

    /**
     * MIN/MAX removals are counted at the barrier and a removed extreme is looked up only then: the
     * changes of an UPDATE (its old value out, its new one in) and of a group that vanishes and
     * comes back, within one epoch or across epochs, must still give each group's true extremes.
     */
    @Test
    void extremesLostWithinAnEpochAreFoundAtItsBarrier() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.NUMERIC),
                new int[] {0},
                call(AggKind.MIN, 1, DataType.NUMERIC),
                call(AggKind.MAX, 1, DataType.NUMERIC));
        verify(node)
                .insert(0, row(1, new BigDecimal("5")), row(1, new BigDecimal("9")), row(1, new BigDecimal("9.0")))
                .insert(0, row(2, new BigDecimal("4")), row(3, new BigDecimal("7")))
                // group 1: one 9 updated down to 8, then the other 9 down to 2; the minimum 5 up to 6
                .delete(0, row(1, new BigDecimal("9")))
                .insert(0, row(1, new BigDecimal("8")))
                .delete(0, row(1, new BigDecimal("9.0")), row(1, new BigDecimal("5")))
                .insert(0, row(1, new BigDecimal("2")), row(1, new BigDecimal("6")))
                .delete(0, row(1, new BigDecimal("2")))
                // group 2 vanishes and comes back with another value; group 3 loses its only value
                .delete(0, row(2, new BigDecimal("4")))
                .insert(0, row(2, new BigDecimal("3.50")))
                .delete(0, row(3, new BigDecimal("7")))
                .expectRows(List.of("[1, 6, 8]", "[2, 3.50, 3.50]"));
    }

    @Test
    void boolAndOrIgnoreNullsAndRetractExactly() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.BOOLEAN),
                new int[] {0},
                call(AggKind.BOOL_AND, 1, DataType.BOOLEAN),
                call(AggKind.BOOL_OR, 1, DataType.BOOLEAN));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, true), row(1, false), row(1, null), row(2, null)).barrier();
        assertEquals(List.of("[1, false, true]", "[2, null, null]"), h.rows());
        h.delete(0, row(1, false)).barrier();
        assertEquals(List.of("[1, true, true]", "[2, null, null]"), h.rows());
        h.delete(0, row(1, true)).insert(0, row(1, false)).barrier();
        assertEquals(List.of("[1, false, false]", "[2, null, null]"), h.rows());
        verify(node)
                .insert(0, row(1, true), row(1, false))
                .insert(0, row(1, null), row(2, null))
                .delete(0, row(1, false))
                .delete(0, row(1, true))
                .insert(0, row(1, false))
                .expectRows(List.of("[1, false, false]", "[2, null, null]"));
    }

    @Test
    void aGroupVanishesWithItsLastRowAndComesBackFresh() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.MAX, 1, DataType.INTEGER),
                call(AggKind.SUM, 1, DataType.BIGINT));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, 4), row(1, 9), row(2, 1)).barrier();
        h.takeEmitted();
        h.delete(0, row(1, 9), row(1, 4)).barrier();
        assertEquals(List.of("-[1, 2, 9, 13]"), h.takeEmitted());
        assertEquals(List.of("[2, 1, 1, 1]"), h.rows());
        h.restore().insert(0, row(1, 3)).barrier();
        assertEquals(List.of("+[1, 1, 3, 3]"), h.takeEmitted());
        assertEquals(List.of("[1, 1, 3, 3]", "[2, 1, 1, 1]"), h.rows());
    }

    @Test
    void onlyGroupsWhoseRowChangedEmit() {
        HashAggNode node =
                agg(source(DataType.INTEGER, DataType.INTEGER), new int[] {0}, call(AggKind.MAX, 1, DataType.INTEGER));
        OperatorHarness h = harness(node);
        // Output is held back until the barrier (emitting once per epoch, not once per chunk, is what
        // makes a backfill's millions of updates to a few groups cheap), so emissions are read after it.
        h.insert(0, row(1, 5), row(2, 5));
        assertEquals(List.of(), h.takeEmitted(), "output waits for the barrier");
        h.barrier();
        assertEquals(List.of("+[1, 5]", "+[2, 5]"), h.takeEmitted());
        h.insert(0, row(1, 3));
        h.push(0, new Chunk(new Op[] {Op.INSERT, Op.DELETE}, new Object[][] {row(2, 8), row(2, 8)}));
        h.barrier();
        assertEquals(List.of(), h.takeEmitted(), "max unchanged, and a row in and out within one chunk");
        h.push(0, new Chunk(new Op[] {Op.INSERT, Op.INSERT, Op.DELETE}, new Object[][] {row(1, 6), row(1, 7), row(1, 6)
        }));
        h.insert(0, row(2, 9)).delete(0, row(2, 9));
        h.barrier();
        assertEquals(
                List.of("-[1, 5]", "+[1, 7]"),
                h.takeEmitted(),
                "one update per group per epoch; a row in and out over two chunks changes nothing");
        assertEquals(List.of("[1, 7]", "[2, 5]"), h.rows());
    }

    @Test
    void globalAggregateHasItsRowOverNoInputAndKeepsIt() {
        HashAggNode node = agg(
                source(DataType.INTEGER),
                new int[0],
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.SUM, 0, DataType.BIGINT),
                call(AggKind.SUM0, 0, DataType.BIGINT),
                call(AggKind.MIN, 0, DataType.INTEGER));
        OperatorHarness h = harness(node);
        h.barrier();
        assertEquals(List.of("+[0, null, 0, null]"), h.takeEmitted());
        h.insert(0, row(3), row(4)).barrier();
        assertEquals(List.of("[2, 7, 7, 3]"), h.rows());
        h.delete(0, row(3), row(4)).barrier();
        assertEquals(List.of("[0, null, 0, null]"), h.rows());
        h.takeEmitted();
        h.restore().barrier();
        assertEquals(List.of(), h.takeEmitted(), "a restored operator does not emit the row again");
        h.insert(0, row(5)).barrier();
        assertEquals(List.of("-[0, null, 0, null]", "+[1, 5, 5, 5]"), h.takeEmitted());
    }

    @Test
    void globalAggregateEmitsItsRowOnTheFirstChunkAndAgainIfThatEpochIsLost() {
        HashAggNode node = agg(source(DataType.INTEGER), new int[0], call(AggKind.COUNT, -1, DataType.BIGINT));
        OperatorHarness h = harness(node);
        h.insert(0, row(1));
        // the row over no input goes out at once; the chunk's update waits for the barrier
        assertEquals(List.of("+[0]"), h.takeEmitted());
        h.restore().barrier();
        assertEquals(List.of("+[0]"), h.takeEmitted());
        assertEquals(List.of("[0]"), h.rows());
    }

    @Test
    void distinctAggregatesCountEachValueOnce() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                new AggCall(AggKind.COUNT, 1, true, -1, DataType.BIGINT),
                new AggCall(AggKind.SUM, 1, true, -1, DataType.BIGINT),
                call(AggKind.COUNT, 1, DataType.BIGINT),
                new AggCall(AggKind.MAX, 1, true, -1, DataType.INTEGER));
        assertEquals(4, node.stateTableCount());
        OperatorHarness h = harness(node);
        h.insert(0, row(1, 5), row(1, 5), row(1, 7), row(1, null)).barrier();
        assertEquals(List.of("[1, 2, 12, 3, 7]"), h.rows());
        h.delete(0, row(1, 5)).barrier();
        assertEquals(List.of("[1, 2, 12, 2, 7]"), h.rows());
        h.restore().delete(0, row(1, 5), row(1, 7)).barrier();
        assertEquals(List.of("[1, 0, null, 0, null]"), h.rows());
        verify(node)
                .insert(0, row(1, 5), row(1, 5))
                .insert(0, row(1, 7), row(1, null))
                .delete(0, row(1, 5))
                .delete(0, row(1, 7))
                .expectRows(List.of("[1, 1, 5, 1, 5]"));
    }

    @Test
    void filteredCallsCountOnlyRowsWhoseFilterIsTrue() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER, DataType.BOOLEAN),
                new int[] {0},
                new AggCall(AggKind.COUNT, -1, false, 2, DataType.BIGINT),
                new AggCall(AggKind.SUM, 1, false, 2, DataType.BIGINT),
                new AggCall(AggKind.MIN, 1, false, 2, DataType.INTEGER),
                call(AggKind.COUNT, -1, DataType.BIGINT));
        verify(node)
                .insert(0, row(1, 1, true), row(1, 2, false))
                .insert(0, row(1, 3, null), row(1, 4, true))
                .expectRows(List.of("[1, 2, 5, 1, 4]"));
        verify(node)
                .insert(0, row(1, 1, true), row(1, 2, false))
                .insert(0, row(1, 3, null), row(1, 4, true))
                .delete(0, row(1, 1, true))
                .delete(0, row(1, 4, true))
                .expectRows(List.of("[1, 0, null, null, 2]"));
    }

    @Test
    void restoreDropsUncommittedChangesAndEmitsNothingAgain() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.MIN, 1, DataType.INTEGER),
                new AggCall(AggKind.COUNT, 1, true, -1, DataType.BIGINT));
        OperatorHarness h = harness(node);
        h.insert(0, row(1, 2), row(1, 3), row(2, 8)).barrier();
        h.delete(0, row(1, 2)).insert(0, row(3, 1), row(1, 9));
        h.restore().barrier();
        assertEquals(List.of("[1, 2, 2, 2]", "[2, 1, 8, 1]"), h.rows());
        h.takeEmitted();
        h.delete(0, row(1, 2)).barrier();
        assertEquals(List.of("-[1, 2, 2, 2]", "+[1, 1, 3, 1]"), h.takeEmitted());
        assertEquals(List.of("[1, 1, 3, 1]", "[2, 1, 8, 1]"), h.rows());
    }

    @Test
    void groupsEvictedFromTheCacheAreReadBackFromState() {
        HashAggNode node = agg(
                source(DataType.INTEGER, DataType.INTEGER),
                new int[] {0},
                call(AggKind.COUNT, -1, DataType.BIGINT),
                call(AggKind.MAX, 1, DataType.INTEGER));
        OperatorHarness h = harness(node, 2);
        OperatorHarness.Scenario scenario = verify(node, 2);
        for (int round = 0; round < 3; round++) {
            for (int g = 0; g < 10; g++) {
                h.insert(0, row(g, round * 10 + g));
                scenario.insert(0, row(g, round * 10 + g));
            }
            if (round == 1) {
                h.barrier();
            }
        }
        h.delete(0, row(4, 24)).barrier();
        scenario.delete(0, row(4, 24));
        List<String> expected = new ArrayList<>();
        for (int g = 0; g < 10; g++) {
            expected.add(g == 4 ? "[4, 2, 14]" : "[" + g + ", 3, " + (20 + g) + "]");
        }
        assertEquals(expected, h.rows());
        scenario.expectRows(expected);
    }

    @Test
    void refusesAWrongNumberOfStateTables() {
        HashAggNode node = agg(source(DataType.INTEGER), new int[] {0}, call(AggKind.MIN, 0, DataType.INTEGER));
        assertThrows(IllegalArgumentException.class, () -> new HashAggOperator(node, new int[] {1}, null));
    }

    // ---- randomized: the operator's committed output against GROUP BY recomputed from scratch ----

    private static final DataType[] RANDOM_INPUT = {
        DataType.INTEGER,
        DataType.TEXT,
        DataType.INTEGER,
        DataType.numeric(8, 2),
        DataType.TEXT,
        DataType.BOOLEAN,
        DataType.BOOLEAN
    };

    private static final AggCall[] RANDOM_CALLS = {
        call(AggKind.COUNT, -1, DataType.BIGINT),
        call(AggKind.COUNT, 2, DataType.BIGINT),
        call(AggKind.SUM, 2, DataType.BIGINT),
        call(AggKind.SUM0, 2, DataType.BIGINT),
        call(AggKind.SUM, 3, DataType.NUMERIC),
        call(AggKind.MIN, 4, DataType.TEXT),
        call(AggKind.MAX, 4, DataType.TEXT),
        call(AggKind.MIN, 2, DataType.INTEGER),
        call(AggKind.MAX, 3, DataType.NUMERIC),
        new AggCall(AggKind.COUNT, 2, true, -1, DataType.BIGINT),
        new AggCall(AggKind.SUM, 2, true, -1, DataType.BIGINT),
        call(AggKind.BOOL_AND, 5, DataType.BOOLEAN),
        call(AggKind.BOOL_OR, 5, DataType.BOOLEAN),
        new AggCall(AggKind.COUNT, -1, false, 6, DataType.BIGINT),
        new AggCall(AggKind.MAX, 2, false, 6, DataType.INTEGER),
        new AggCall(AggKind.COUNT, 4, true, 6, DataType.BIGINT),
    };

    @Test
    void randomChangesMatchGroupByRecomputedFromScratch() {
        for (long seed = 1; seed <= 8; seed++) {
            int[] groupKeys = seed % 4 == 0 ? new int[0] : seed % 2 == 0 ? new int[] {0} : new int[] {0, 1};
            int cacheGroups = seed % 3 == 0 ? HashAggOperator.DEFAULT_CACHE_GROUPS : 3;
            runRandom(seed, groupKeys, cacheGroups, RANDOM_INPUT, RANDOM_CALLS, HashAggOperatorTest::randomRow);
        }
    }

    /** Calls {@link FlatInserts} sums, over the input of {@link #flatRow}. */
    private static final AggCall[] FLAT_CALLS = {
        call(AggKind.COUNT, -1, DataType.BIGINT),
        call(AggKind.COUNT, 3, DataType.BIGINT),
        call(AggKind.SUM, 3, DataType.NUMERIC),
        call(AggKind.MAX, 3, DataType.NUMERIC),
        call(AggKind.MIN, 2, DataType.INTEGER),
        call(AggKind.MIN, 4, DataType.TEXT),
        call(AggKind.MAX, 4, DataType.TEXT),
    };

    private static final DataType[] FLAT_INPUT = {
        DataType.INTEGER, DataType.TEXT, DataType.INTEGER, DataType.NUMERIC, DataType.TEXT
    };

    /**
     * Inserted rows are summed flat ({@link FlatInserts}) between the deletes and barriers that fold
     * them; rows that do not fit there (sums past a {@code long}, values encoded longer than 15
     * bytes, a group's fifth distinct value) fold their group and take the ordinary path.
     */
    @Test
    void flatSummedInsertsMatchGroupByRecomputedFromScratch() {
        for (long seed = 1; seed <= 8; seed++) {
            int[] groupKeys = seed % 2 == 0 ? new int[] {0} : new int[] {0, 1};
            int cacheGroups = seed % 3 == 0 ? HashAggOperator.DEFAULT_CACHE_GROUPS : 3;
            runRandom(seed, groupKeys, cacheGroups, FLAT_INPUT, FLAT_CALLS, HashAggOperatorTest::flatRow);
        }
    }

    private static Object[] flatRow(Random rnd) {
        int digits = rnd.nextInt(8);
        BigDecimal amount = digits == 0
                ? BigDecimal.valueOf(rnd.nextLong() % 1_000_000_000_000_000_000L, 2)
                : BigDecimal.valueOf(rnd.nextInt(2001) - 1000, 2);
        return new Object[] {
            rnd.nextInt(5) == 0 ? null : rnd.nextInt(4),
            rnd.nextInt(4) == 0 ? null : String.valueOf((char) ('a' + rnd.nextInt(2))),
            rnd.nextInt(5) == 0 ? null : rnd.nextInt(11) - 5,
            rnd.nextInt(6) == 0 ? null : amount,
            rnd.nextInt(5) == 0 ? null : (rnd.nextInt(4) == 0 ? "a long text value " : "s") + rnd.nextInt(6),
        };
    }

    private void runRandom(
            long seed,
            int[] groupKeys,
            int cacheGroups,
            DataType[] input,
            AggCall[] calls,
            java.util.function.Function<Random, Object[]> newRow) {
        Random rnd = new Random(seed);
        HashAggNode node = agg(source(input), groupKeys, calls);
        OperatorHarness h = harness(node, cacheGroups);
        List<Object[]> live = new ArrayList<>();
        List<Object[]> committed = new ArrayList<>();
        for (int step = 0; step < 300; step++) {
            int n = 1 + rnd.nextInt(12);
            Op[] ops = new Op[n];
            Object[][] rows = new Object[n][];
            for (int i = 0; i < n; i++) {
                if (live.isEmpty() || rnd.nextInt(10) < 6) {
                    ops[i] = Op.INSERT;
                    rows[i] = rnd.nextInt(4) == 0 && !live.isEmpty()
                            ? live.get(rnd.nextInt(live.size())).clone()
                            : newRow.apply(rnd);
                    live.add(rows[i]);
                } else {
                    ops[i] = Op.DELETE;
                    rows[i] = live.remove(rnd.nextInt(live.size()));
                }
            }
            h.push(0, new Chunk(ops, rows));
            int r = rnd.nextInt(10);
            if (r < 2) {
                h.barrier();
                committed = new ArrayList<>(live);
                assertEquals(groupBy(live, groupKeys, calls), h.result(), "seed " + seed + " step " + step);
            } else if (r == 2) {
                h.restore();
                live = new ArrayList<>(committed);
            }
        }
        h.barrier();
        assertEquals(groupBy(live, groupKeys, calls), h.result(), "seed " + seed + " at the end");
    }

    private static Object[] randomRow(Random rnd) {
        return new Object[] {
            rnd.nextInt(5) == 0 ? null : rnd.nextInt(4),
            rnd.nextInt(4) == 0 ? null : String.valueOf((char) ('a' + rnd.nextInt(2))),
            rnd.nextInt(5) == 0 ? null : rnd.nextInt(11) - 5,
            rnd.nextInt(5) == 0 ? null : BigDecimal.valueOf(rnd.nextInt(2001) - 1000, 2),
            rnd.nextInt(5) == 0 ? null : "s" + rnd.nextInt(6),
            rnd.nextInt(4) == 0 ? null : rnd.nextBoolean(),
            rnd.nextInt(4) == 0 ? null : rnd.nextBoolean(),
        };
    }

    /** GROUP BY over the live input, computed the obvious way, as the harness's result multiset. */
    private static Map<List<Object>, Integer> groupBy(List<Object[]> input, int[] groupKeys, AggCall[] calls) {
        Map<List<Object>, List<Object[]>> groups = new LinkedHashMap<>();
        if (groupKeys.length == 0) {
            groups.put(List.of(), new ArrayList<>());
        }
        for (Object[] row : input) {
            List<Object> key =
                    Arrays.asList(Arrays.stream(groupKeys).mapToObj(k -> row[k]).toArray());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        Map<List<Object>, Integer> out = new HashMap<>();
        groups.forEach((key, rows) -> {
            List<Object> result = new ArrayList<>(key);
            for (AggCall c : calls) {
                result.add(aggregate(c, rows));
            }
            out.merge(result, 1, Integer::sum);
        });
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object aggregate(AggCall c, List<Object[]> rows) {
        List<Object> values = new ArrayList<>();
        for (Object[] row : rows) {
            if (c.filterArg() >= 0 && !Boolean.TRUE.equals(row[c.filterArg()])) {
                continue;
            }
            if (c.arg() < 0 || row[c.arg()] != null) {
                values.add(c.arg() < 0 ? 1 : row[c.arg()]);
            }
        }
        if (c.distinct()) {
            values = new ArrayList<>(new LinkedHashSet<>(values));
        }
        Comparator<Object> order = (a, b) -> ((Comparable) a).compareTo(b);
        return switch (c.kind()) {
            case COUNT -> (long) values.size();
            case SUM -> values.isEmpty() ? null : sum(values);
            case SUM0 -> values.isEmpty() ? 0L : sum(values);
            case MIN -> values.stream().min(order).orElse(null);
            case MAX -> values.stream().max(order).orElse(null);
            case BOOL_AND -> values.isEmpty() ? null : values.stream().allMatch(Boolean.TRUE::equals);
            case BOOL_OR -> values.isEmpty() ? null : values.stream().anyMatch(Boolean.TRUE::equals);
        };
    }

    private static Object sum(List<Object> values) {
        if (values.get(0) instanceof BigDecimal) {
            return values.stream()
                    .map(v -> (BigDecimal) v)
                    .reduce(BigDecimal::add)
                    .orElseThrow();
        }
        return values.stream().mapToLong(v -> ((Number) v).longValue()).sum();
    }
}
