package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import org.junit.jupiter.api.Test;

class ExprEvaluatorTest {
    @Test
    void sqlErrorsBecomeNullOtherFailuresPropagate() {
        ExprEvaluator eval = new ExprEvaluator("test");
        assertEquals(5, eval.eval(TestExpr.divide(0, 1), row(10, 2)));
        assertNull(eval.eval(TestExpr.divide(0, 1), row(10, 0)));
        assertThrows(ClassCastException.class, () -> eval.eval(TestExpr.divide(0, 1), row("x", 1)));
        TestExpr broken = new TestExpr("broken", DataType.INTEGER, r -> {
            throw new IllegalStateException("bug");
        });
        assertThrows(IllegalStateException.class, () -> eval.eval(broken, row()));
    }

    @Test
    void logsTheFirstErrorThenEveryTenThousandth() {
        assertTrue(ExprEvaluator.logs(1));
        assertFalse(ExprEvaluator.logs(2));
        assertFalse(ExprEvaluator.logs(9_999));
        assertTrue(ExprEvaluator.logs(10_000));
        assertFalse(ExprEvaluator.logs(10_001));
        assertTrue(ExprEvaluator.logs(20_000));
    }
}
