package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.plan.Distribution;
import io.tributary.plan.StreamNode;
import io.tributary.plan.UnionNode;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnionOperatorTest {
    @TempDir
    Path dir;

    @Test
    void passesEveryInputsChangesUnchanged() {
        StreamNode in = ProjectOperatorTest.INPUT;
        UnionNode node = new UnionNode(List.of(in, in), in.fields(), new int[] {0}, Distribution.hash(0));
        try (OperatorHarness h = new OperatorHarness(dir, view -> new UnionOperator(node))) {
            h.insert(0, row(1L, 1, 1)).insert(1, row(2L, 2, 2), row(3L, 3, 3)).barrier();
            assertEquals(List.of("+[1, 1, 1]", "+[2, 2, 2]", "+[3, 3, 3]"), h.takeEmitted());
            h.delete(1, row(2L, 2, 2)).insert(0, row(4L, 4, 4)).restore();
            h.delete(0, row(1L, 1, 1)).insert(1, row(5L, 5, 5)).barrier();
            assertEquals(List.of("[2, 2, 2]", "[3, 3, 3]", "[5, 5, 5]"), h.rows());
        }
        OperatorHarness.verify(dir.resolve("verify"), view -> new UnionOperator(node))
                .insert(0, row(1L, 1, 1))
                .insert(1, row(2L, 2, 2), row(3L, 3, 3))
                .delete(1, row(2L, 2, 2))
                .insert(0, row(4L, 4, 4))
                .delete(0, row(1L, 1, 1))
                .expectRows(List.of("[3, 3, 3]", "[4, 4, 4]"));
    }
}
