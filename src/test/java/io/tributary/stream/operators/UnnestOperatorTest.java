package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.InputRef;
import io.tributary.plan.SourceNode;
import io.tributary.plan.UnnestNode;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnnestOperatorTest {
    private static final DataType INT_ARRAY = DataType.array(DataType.INTEGER);

    /** (id BIGINT, a INTEGER[]) keyed by id. */
    private static final SourceNode INPUT =
            new SourceNode(1, "t", List.of(new Field("id", DataType.BIGINT), new Field("a", INT_ARRAY)), new int[] {0});

    @TempDir
    Path dir;

    private static UnnestOperator unnest(boolean outer) {
        return new UnnestOperator(new UnnestNode(INPUT, new InputRef(1, INT_ARRAY), DataType.INTEGER, outer));
    }

    @Test
    void keysEachElementByItsRowAndPosition() {
        UnnestNode node = new UnnestNode(INPUT, new InputRef(1, INT_ARRAY), DataType.INTEGER, false);
        assertEquals("[0, 3]", Arrays.toString(node.streamKey()));
        assertEquals(
                List.of("id", "a", "unnest", "ordinality"),
                node.fields().stream().map(Field::name).toList());
    }

    @Test
    void emitsOneRowPerElementAndRetractsThemWithTheRow() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> unnest(false))) {
            h.insert(0, row(1L, List.of(7, 7)), row(2L, null), row(3L, List.of()), row(4L, Arrays.asList(null, 5)))
                    .barrier();
            assertEquals(
                    List.of(
                            "+[1, [7, 7], 7, 1]",
                            "+[1, [7, 7], 7, 2]",
                            "+[4, [null, 5], null, 1]",
                            "+[4, [null, 5], 5, 2]"),
                    h.takeEmitted());
            h.delete(0, row(1L, List.of(7, 7))).insert(0, row(1L, List.of(8))).barrier();
            assertEquals(List.of("-[1, [7, 7], 7, 1]", "-[1, [7, 7], 7, 2]", "+[1, [8], 8, 1]"), h.takeEmitted());
        }
    }

    @Test
    void outerKeepsRowsWithoutElements() {
        OperatorHarness.verify(dir, view -> unnest(true))
                .insert(0, row(1L, List.of(1, 2)), row(2L, null), row(3L, List.of()))
                .delete(0, row(1L, List.of(1, 2)))
                .insert(0, row(1L, List.of(3)))
                .delete(0, row(3L, List.of()))
                .expectRows(List.of("[1, [3], 3, 1]", "[2, null, null, null]"));
    }
}
