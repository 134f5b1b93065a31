package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Distribution;
import io.tributary.plan.Field;
import io.tributary.plan.InputRef;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.SourceNode;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectOperatorTest {
    /** (id BIGINT, a INTEGER, b INTEGER) keyed by id. */
    static final SourceNode INPUT = new SourceNode(
            1,
            "t",
            List.of(
                    new Field("id", DataType.BIGINT),
                    new Field("a", DataType.INTEGER),
                    new Field("b", DataType.INTEGER)),
            new int[] {0});

    @TempDir
    Path dir;

    /** SELECT id, a / b FROM t. */
    private static ProjectOperator quotients() {
        ProjectNode node = new ProjectNode(
                INPUT,
                List.of(new InputRef(0, DataType.BIGINT), TestExpr.divide(1, 2)),
                List.of(new Field("id", DataType.BIGINT), new Field("q", DataType.INTEGER)),
                new int[] {0},
                Distribution.hash(0));
        return new ProjectOperator(node);
    }

    @Test
    void projectsEveryRowWithItsOp() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> quotients())) {
            h.insert(0, row(1L, 10, 2), row(2L, 9, 3), row(3L, null, 3)).barrier();
            assertEquals(List.of("[1, 5]", "[2, 3]", "[3, null]"), h.rows());
            assertEquals(List.of("+[1, 5]", "+[2, 3]", "+[3, null]"), h.takeEmitted());
            h.delete(0, row(2L, 9, 3)).barrier();
            assertEquals(List.of("-[2, 3]"), h.takeEmitted());
            assertEquals(List.of("[1, 5]", "[3, null]"), h.rows());
        }
    }

    @Test
    void failingExpressionYieldsNullAndTheDeleteMatchesTheInsert() {
        OperatorHarness.verify(dir, view -> quotients())
                .insert(0, row(1L, 10, 0), row(2L, 8, 4))
                .expectRows(List.of("[1, null]", "[2, 2]"));
        OperatorHarness.verify(dir, view -> quotients())
                .insert(0, row(1L, 10, 0), row(2L, 8, 4))
                .insert(0, row(3L, 1, 0))
                .delete(0, row(1L, 10, 0))
                .expectRows(List.of("[2, 2]", "[3, null]"));
    }

    @Test
    void continuesAfterRestore() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> quotients())) {
            h.insert(0, row(1L, 10, 0), row(2L, 8, 4)).barrier();
            h.insert(0, row(3L, 3, 1)).restore();
            h.delete(0, row(1L, 10, 0)).insert(0, row(4L, 4, 2)).barrier();
            assertEquals(List.of("[2, 2]", "[4, 2]"), h.rows());
        }
    }
}
