package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.SortKey;
import io.tributary.plan.SourceNode;
import io.tributary.plan.WindowCall;
import io.tributary.plan.WindowFrame;
import io.tributary.plan.WindowKind;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OverWindowOperatorTest {
    /** (id BIGINT, g INTEGER, v INTEGER) keyed by id. */
    static final SourceNode INPUT = new SourceNode(
            1,
            "t",
            List.of(
                    new Field("id", DataType.BIGINT),
                    new Field("g", DataType.INTEGER),
                    new Field("v", DataType.INTEGER)),
            new int[] {0});

    static final int[] STATE = {100};

    @TempDir
    Path dir;

    private static OverWindowNode node(WindowFrame frame, List<WindowCall> calls, int limitCall, long limit) {
        List<Field> fields = new ArrayList<>(INPUT.fields());
        for (int i = 0; i < calls.size(); i++) {
            fields.add(new Field("w" + i, calls.get(i).type()));
        }
        return new OverWindowNode(
                INPUT,
                new int[] {1},
                List.of(new SortKey(2, true, true)),
                frame,
                calls,
                limitCall,
                limit,
                List.copyOf(fields));
    }

    private static WindowCall call(WindowKind kind, int arg, DataType type) {
        return new WindowCall(kind, arg, kind == WindowKind.LAG ? 1 : 0, null, type);
    }

    @Test
    void ranksRunningSumsAndLagFollowInsertsUpdatesAndDeletes() {
        OverWindowNode node = node(
                WindowFrame.DEFAULT,
                List.of(
                        call(WindowKind.RANK, -1, DataType.BIGINT),
                        call(WindowKind.SUM, 2, DataType.BIGINT),
                        call(WindowKind.LAG, 2, DataType.INTEGER)),
                -1,
                0);
        try (OperatorHarness h =
                new OperatorHarness(dir.resolve("one"), view -> new OverWindowOperator(node, STATE, view))) {
            h.insert(0, row(1L, 1, 10), row(2L, 1, 30), row(3L, 1, 30), row(4L, 2, 5))
                    .barrier();
            assertEquals(
                    List.of(
                            "[1, 1, 10, 3, 70, 30]",
                            "[2, 1, 30, 1, 60, null]",
                            "[3, 1, 30, 1, 60, 30]",
                            "[4, 2, 5, 1, 5, null]"),
                    h.rows());
            h.takeEmitted();
            // partition 1 is evaluated again and its changed rows re-emitted; partition 2 is not touched
            h.delete(0, row(3L, 1, 30)).barrier();
            assertEquals(
                    List.of(
                            "-[2, 1, 30, 1, 60, null]",
                            "-[3, 1, 30, 1, 60, 30]",
                            "-[1, 1, 10, 3, 70, 30]",
                            "+[2, 1, 30, 1, 30, null]",
                            "+[1, 1, 10, 2, 40, 30]"),
                    h.takeEmitted());
        }
        OperatorHarness.verify(dir, view -> new OverWindowOperator(node, STATE, view))
                .insert(0, row(1L, 1, 10), row(2L, 1, 30))
                .insert(0, row(3L, 1, 30), row(4L, 2, 5))
                .delete(0, row(2L, 1, 30))
                .insert(0, row(5L, 2, 7), row(2L, 1, 1))
                .delete(0, row(4L, 2, 5))
                .expectRows(List.of(
                        "[1, 1, 10, 2, 40, 30]",
                        "[2, 1, 1, 3, 41, 10]",
                        "[3, 1, 30, 1, 30, null]",
                        "[5, 2, 7, 1, 7, null]"));
    }

    @Test
    void aGroupTopNKeepsOnlyTheRanksWithinTheLimit() {
        OverWindowNode node = node(
                new WindowFrame(true, WindowFrame.UNBOUNDED_PRECEDING, WindowFrame.CURRENT),
                List.of(call(WindowKind.ROW_NUMBER, -1, DataType.BIGINT)),
                0,
                2);
        OperatorHarness.verify(dir, view -> new OverWindowOperator(node, STATE, view))
                .insert(0, row(1L, 1, 10), row(2L, 1, 30), row(3L, 1, 20))
                .insert(0, row(4L, 2, 5))
                .delete(0, row(2L, 1, 30))
                .insert(0, row(5L, 1, 40), row(6L, 2, 6))
                .delete(0, row(4L, 2, 5))
                .expectRows(List.of("[3, 1, 20, 2]", "[5, 1, 40, 1]", "[6, 2, 6, 1]"));
    }
}
