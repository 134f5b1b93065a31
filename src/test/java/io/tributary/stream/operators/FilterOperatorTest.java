package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.plan.FilterNode;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterOperatorTest {
    @TempDir
    Path dir;

    /** WHERE a / b > 1 over (id, a, b): false for 1 / 1, NULL for a NULL a, an error for b = 0. */
    private static FilterOperator quotientAboveOne() {
        return new FilterOperator(
                new FilterNode(ProjectOperatorTest.INPUT, TestExpr.greaterThan(TestExpr.divide(1, 2), 1)));
    }

    @Test
    void passesOnlyRowsWhoseConditionIsTrue() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> quotientAboveOne())) {
            h.insert(0, row(1L, 10, 2), row(2L, 1, 1), row(3L, null, 1), row(4L, 9, 3))
                    .barrier();
            assertEquals(List.of("[1, 10, 2]", "[4, 9, 3]"), h.rows());
            h.takeEmitted();
            h.delete(0, row(1L, 10, 2), row(2L, 1, 1)).barrier();
            assertEquals(List.of("-[1, 10, 2]"), h.takeEmitted());
            assertEquals(List.of("[4, 9, 3]"), h.rows());
        }
    }

    @Test
    void failingConditionCountsAsNotTrueForInsertAndDelete() {
        // a delete passed on for the failing row would be a row never emitted, which the harness rejects
        OperatorHarness.verify(dir, view -> quotientAboveOne())
                .insert(0, row(1L, 10, 0), row(2L, 10, 5))
                .delete(0, row(1L, 10, 0))
                .insert(0, row(3L, 4, 0))
                .expectRows(List.of("[2, 10, 5]"));
    }

    @Test
    void continuesAfterRestore() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> quotientAboveOne())) {
            h.insert(0, row(1L, 10, 2)).barrier();
            h.insert(0, row(2L, 10, 2)).restore();
            h.insert(0, row(3L, 6, 2)).delete(0, row(1L, 10, 2)).barrier();
            assertEquals(List.of("[3, 6, 2]"), h.rows());
        }
    }
}
