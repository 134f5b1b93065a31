package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.SortKey;
import io.tributary.plan.SourceNode;
import io.tributary.plan.TopNNode;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopNOperatorTest {
    /** (id BIGINT, score INTEGER, name TEXT) keyed by id. */
    static final SourceNode INPUT = new SourceNode(
            1,
            "t",
            List.of(
                    new Field("id", DataType.BIGINT),
                    new Field("score", DataType.INTEGER),
                    new Field("name", DataType.TEXT)),
            new int[] {0});

    static final int[] STATE = {100};

    @TempDir
    Path dir;

    private OperatorHarness harness(List<SortKey> order, long offset, long limit) {
        return harness("store", order, offset, limit);
    }

    /** A harness over a store of its own, named {@code store} within the test's directory. */
    private OperatorHarness harness(String store, List<SortKey> order, long offset, long limit) {
        TopNNode node = new TopNNode(INPUT, order, offset, limit);
        return new OperatorHarness(dir.resolve(store), view -> new TopNOperator(node, STATE, view));
    }

    private OperatorHarness.Scenario verify(List<SortKey> order, long offset, long limit) {
        TopNNode node = new TopNNode(INPUT, order, offset, limit);
        return OperatorHarness.verify(dir, view -> new TopNOperator(node, STATE, view));
    }

    private static SortKey asc(int column) {
        return new SortKey(column, false, false);
    }

    private static SortKey desc(int column) {
        return new SortKey(column, true, true);
    }

    @Test
    void deleteInsideTheRangePullsTheNextRowIn() {
        try (OperatorHarness h = harness(List.of(desc(1)), 0, 3)) {
            h.insert(0, row(1L, 10, "a"), row(2L, 50, "b"), row(3L, 30, "c"), row(4L, 40, "d"), row(5L, 20, "e"))
                    .barrier();
            assertEquals(List.of("[2, 50, b]", "[3, 30, c]", "[4, 40, d]"), h.rows());
            h.takeEmitted();
            h.delete(0, row(4L, 40, "d")).barrier();
            assertEquals(List.of("-[4, 40, d]", "+[5, 20, e]"), h.takeEmitted());
            h.delete(0, row(2L, 50, "b"), row(3L, 30, "c")).barrier();
            assertEquals(List.of("[1, 10, a]", "[5, 20, e]"), h.rows());
        }
        verify(List.of(desc(1)), 0, 3)
                .insert(0, row(1L, 10, "a"), row(2L, 50, "b"), row(3L, 30, "c"))
                .insert(0, row(4L, 40, "d"), row(5L, 20, "e"))
                .delete(0, row(4L, 40, "d"))
                .delete(0, row(2L, 50, "b"))
                .delete(0, row(3L, 30, "c"))
                .expectRows(List.of("[1, 10, a]", "[5, 20, e]"));
    }

    @Test
    void insertIntoTheRangePushesTheLastRowOutAndLaterRowsChangeNothing() {
        try (OperatorHarness h = harness(List.of(asc(1)), 0, 2)) {
            h.insert(0, row(1L, 10, "a"), row(2L, 20, "b"), row(3L, 30, "c")).barrier();
            h.takeEmitted();
            h.insert(0, row(4L, 40, "d")).delete(0, row(3L, 30, "c")).barrier();
            assertEquals(List.of(), h.takeEmitted());
            h.insert(0, row(5L, 5, "e")).barrier();
            assertEquals(List.of("-[2, 20, b]", "+[5, 5, e]"), h.takeEmitted());
            assertEquals(List.of("[1, 10, a]", "[5, 5, e]"), h.rows());
        }
    }

    @Test
    void offsetSkipsTheFirstRowsAndShiftsWithThem() {
        try (OperatorHarness h = harness(List.of(asc(1)), 1, 2)) {
            h.insert(0, row(1L, 1, "a")).barrier();
            assertEquals(List.of(), h.rows());
            h.insert(0, row(2L, 2, "b"), row(3L, 3, "c"), row(4L, 4, "d"), row(5L, 5, "e"))
                    .barrier();
            assertEquals(List.of("[2, 2, b]", "[3, 3, c]"), h.rows());
            h.takeEmitted();
            h.insert(0, row(6L, 0, "z")).barrier();
            assertEquals(List.of("-[3, 3, c]", "+[1, 1, a]"), h.takeEmitted());
            h.delete(0, row(6L, 0, "z"), row(1L, 1, "a")).barrier();
            assertEquals(List.of("[3, 3, c]", "[4, 4, d]"), h.rows());
        }
        verify(List.of(asc(1)), 1, 2)
                .insert(0, row(1L, 1, "a"))
                .insert(0, row(2L, 2, "b"), row(3L, 3, "c"))
                .insert(0, row(4L, 4, "d"), row(5L, 5, "e"))
                .insert(0, row(6L, 0, "z"))
                .delete(0, row(6L, 0, "z"))
                .delete(0, row(1L, 1, "a"))
                .expectRows(List.of("[3, 3, c]", "[4, 4, d]"));
    }

    @Test
    void tiesOnTheSortKeyBreakByTheStreamKey() {
        try (OperatorHarness h = harness(List.of(asc(1)), 0, 2)) {
            h.insert(0, row(5L, 7, "e"), row(3L, 7, "c"), row(9L, 7, "i"), row(1L, 7, "a"))
                    .barrier();
            assertEquals(List.of("[1, 7, a]", "[3, 7, c]"), h.rows());
            h.delete(0, row(1L, 7, "a")).barrier();
            assertEquals(List.of("[3, 7, c]", "[5, 7, e]"), h.rows());
            h.insert(0, row(4L, 7, "d")).barrier();
            assertEquals(List.of("[3, 7, c]", "[4, 7, d]"), h.rows());
        }
        verify(List.of(asc(1)), 0, 2)
                .insert(0, row(5L, 7, "e"), row(3L, 7, "c"))
                .insert(0, row(9L, 7, "i"))
                .insert(0, row(1L, 7, "a"))
                .delete(0, row(1L, 7, "a"))
                .insert(0, row(4L, 7, "d"))
                .expectRows(List.of("[3, 7, c]", "[4, 7, d]"));
    }

    @Test
    void ascendingPutsNullsLastUnlessAskedOtherwise() {
        Object[][] rows = {row(1L, null, "a"), row(2L, 2, "b"), row(3L, null, "c"), row(4L, 1, "d")};
        try (OperatorHarness h = harness("nullsLast", List.of(new SortKey(1, false, false)), 0, 3)) {
            h.insert(0, rows).barrier();
            assertEquals(List.of("[1, null, a]", "[2, 2, b]", "[4, 1, d]"), h.rows());
        }
        try (OperatorHarness h = harness("nullsFirst", List.of(new SortKey(1, false, true)), 0, 3)) {
            h.insert(0, rows).barrier();
            assertEquals(List.of("[1, null, a]", "[3, null, c]", "[4, 1, d]"), h.rows());
        }
    }

    @Test
    void descendingPutsNullsFirstUnlessAskedOtherwise() {
        Object[][] rows = {row(1L, null, "a"), row(2L, 2, "b"), row(3L, null, "c"), row(4L, 1, "d")};
        try (OperatorHarness h = harness("nullsFirst", List.of(new SortKey(1, true, true)), 0, 3)) {
            h.insert(0, rows).barrier();
            assertEquals(List.of("[1, null, a]", "[2, 2, b]", "[3, null, c]"), h.rows());
            h.delete(0, row(1L, null, "a")).barrier();
            assertEquals(List.of("[2, 2, b]", "[3, null, c]", "[4, 1, d]"), h.rows());
        }
        try (OperatorHarness h = harness("nullsLast", List.of(new SortKey(1, true, false)), 0, 3)) {
            h.insert(0, rows).barrier();
            assertEquals(List.of("[1, null, a]", "[2, 2, b]", "[4, 1, d]"), h.rows());
        }
    }

    @Test
    void laterSortKeysOrderRowsTiedOnEarlierOnes() {
        try (OperatorHarness h = harness(List.of(asc(2), desc(1)), 0, 2)) {
            h.insert(0, row(1L, 1, "a"), row(2L, 3, "a"), row(3L, 2, "a"), row(4L, 9, "b"))
                    .barrier();
            assertEquals(List.of("[2, 3, a]", "[3, 2, a]"), h.rows());
        }
    }

    @Test
    void updateOfAColumnOutsideTheKeyReplacesTheRow() {
        try (OperatorHarness h = harness(List.of(asc(1)), 0, 2)) {
            h.insert(0, row(1L, 1, "a"), row(2L, 2, "b"), row(3L, 3, "c")).barrier();
            h.takeEmitted();
            h.push(0, new Chunk(new Op[] {Op.DELETE, Op.INSERT}, new Object[][] {row(2L, 2, "b"), row(2L, 2, "B")}))
                    .barrier();
            assertEquals(List.of("-[2, 2, b]", "+[2, 2, B]"), h.takeEmitted());
            assertEquals(List.of("[1, 1, a]", "[2, 2, B]"), h.rows());
        }
    }

    @Test
    void limitZeroEmitsNothing() {
        try (OperatorHarness h = harness(List.of(asc(1)), 0, 0)) {
            h.insert(0, row(1L, 1, "a")).barrier().delete(0, row(1L, 1, "a")).barrier();
            assertEquals(List.of(), h.takeEmitted());
        }
    }

    @Test
    void restoredOperatorRebuildsItsOutputSilentlyAndContinues() {
        try (OperatorHarness h = harness(List.of(desc(1)), 1, 2)) {
            h.insert(0, row(1L, 10, "a"), row(2L, 20, "b"), row(3L, 30, "c"), row(4L, 40, "d"))
                    .barrier();
            assertEquals(List.of("[2, 20, b]", "[3, 30, c]"), h.rows());
            h.insert(0, row(5L, 50, "e")).delete(0, row(3L, 30, "c")).restore();
            h.takeEmitted();
            h.barrier();
            assertEquals(List.of(), h.takeEmitted());
            assertEquals(List.of("[2, 20, b]", "[3, 30, c]"), h.rows());
            h.delete(0, row(4L, 40, "d")).barrier();
            assertEquals(List.of("-[3, 30, c]", "+[1, 10, a]"), h.takeEmitted());
            h.restore().delete(0, row(1L, 10, "a")).insert(0, row(6L, 35, "f")).barrier();
            assertEquals(List.of("[2, 20, b]", "[3, 30, c]"), h.rows());
        }
    }
}
