package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.batch.Snapshot;
import io.tributary.batch.SnapshotSource;
import io.tributary.batch.TableScan;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.SourceNode;
import io.tributary.stream.OperatorHarness;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaterializeOperatorTest {
    private static final int VIEW_ID = 42;
    /** (name TEXT, id BIGINT, amount NUMERIC, n BIGINT) with the key (name, id): a key that is not the first column. */
    private static final List<Field> FIELDS = List.of(
            new Field("name", DataType.TEXT),
            new Field("id", DataType.BIGINT),
            new Field("amount", DataType.NUMERIC),
            new Field("n", DataType.BIGINT));

    private static final int[] KEY = {0, 1};
    private static final MaterializeNode NODE = new MaterializeNode(new SourceNode(7, "t", FIELDS, KEY), VIEW_ID, "v");
    private static final TableDef VIEW = new TableDef(
            VIEW_ID,
            "v",
            FIELDS.stream()
                    .map(f -> new ColumnDef(f.name(), f.type(), false, false))
                    .toList(),
            KEY,
            "CREATE MATERIALIZED VIEW v AS ...",
            RelationKind.MATERIALIZED_VIEW,
            "...",
            new int[] {7},
            new int[0],
            1);

    @TempDir
    Path dir;

    @Test
    void batchReadsTheCommittedViewLikeATable() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(
                            0,
                            row("a", 1L, new BigDecimal("1.50"), 10L),
                            row("b", 2L, null, 20L),
                            row("c", 3L, new BigDecimal("7"), 30L))
                    .barrier();
            assertEquals(List.of("[a, 1, 1.50, 10]", "[b, 2, null, 20]", "[c, 3, 7, 30]"), scan(h));
            assertEquals(List.of("[a, 1, 1.50, 10]", "[b, 2, null, 20]", "[c, 3, 7, 30]"), h.rows());

            h.delete(0, row("b", 2L, null, 20L))
                    .delete(0, row("c", 3L, new BigDecimal("7"), 30L))
                    .insert(0, row("c", 3L, new BigDecimal("8"), 31L))
                    .barrier();
            assertEquals(List.of("[a, 1, 1.50, 10]", "[c, 3, 8, 31]"), scan(h));
            try (Snapshot s = new SnapshotSource(h.store()).open()) {
                assertArrayEquals(row("c", 3L, new BigDecimal("8"), 31L), s.lookup(VIEW, row("c", 3L)));
                assertNull(s.lookup(VIEW, row("b", 2L)));
            }
        }
    }

    @Test
    void storesAndPassesOnCanonicalValues() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(0, row("a", 1, 2, 3)).barrier();
            assertEquals(List.of("+[a, 1, 2, 3]"), h.takeEmitted());
            assertEquals(
                    List.of(Arrays.asList("a", 1L, new BigDecimal(2), 3L)),
                    List.copyOf(h.result().keySet()));
            try (Snapshot s = new SnapshotSource(h.store()).open()) {
                assertArrayEquals(row("a", 1L, new BigDecimal(2), 3L), s.lookup(VIEW, row("a", 1L)));
            }
            h.delete(0, row("a", 1, 2, 3)).barrier();
            assertEquals(List.of(), scan(h));
            assertEquals(List.of(), h.rows());
        }
    }

    @Test
    void restoredOperatorContinuesFromTheCommittedRows() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(0, row("a", 1L, null, 1L), row("b", 2L, null, 2L)).barrier();
            h.insert(0, row("lost", 9L, null, 9L))
                    .delete(0, row("a", 1L, null, 1L))
                    .restore();
            assertEquals(List.of("[a, 1, null, 1]", "[b, 2, null, 2]"), scan(h));
            h.delete(0, row("b", 2L, null, 2L)).insert(0, row("d", 4L, null, 4L));
            assertEquals(2, h.heldChanges(), "the keys written since the barrier");
            h.barrier();
            assertEquals(0, h.heldChanges());
            assertEquals(List.of("[a, 1, null, 1]", "[d, 4, null, 4]"), scan(h));
            assertEquals(scan(h), h.rows());
        }
    }

    @Test
    void endsWithTheSameRowsWhereverBarriersAndRestoresFall() {
        OperatorHarness.verify(dir, view -> new MaterializeOperator(NODE, view))
                .insert(0, row("a", 1L, new BigDecimal("1.50"), 10L), row("b", 2L, null, 20L))
                .insert(0, row("c", 3L, new BigDecimal("7"), 30L))
                .delete(0, row("b", 2L, null, 20L))
                .delete(0, row("c", 3L, new BigDecimal("7"), 30L))
                .insert(0, row("c", 3L, new BigDecimal("8"), 31L))
                .expectRows(List.of("[a, 1, 1.50, 10]", "[c, 3, 8, 31]"));
    }

    /** The view's committed rows as a batch SELECT reads them, sorted as strings. */
    private static List<String> scan(OperatorHarness h) {
        List<String> out = new ArrayList<>();
        try (Snapshot s = new SnapshotSource(h.store()).open();
                TableScan scan = s.scan(VIEW)) {
            scan.forEachRemaining(r -> out.add(Arrays.toString(r)));
        }
        out.sort(null);
        return out;
    }
}
