package io.tributary.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link KeyRangeDmlText} reads, and what it leaves to the general path. */
class KeyRangeDmlTextTest {
    @Test
    void readsTheStreamingShapes() {
        KeyRangeDmlText.Statement update = KeyRangeDmlText.read(
                "UPDATE orders SET amount = amount + -1.25, status = 'it''s' WHERE id BETWEEN 1000 AND 1499");
        assertNotNull(update);
        assertEquals("orders", update.table());
        assertEquals(
                List.of(
                        new KeyRangeDmlText.Assignment(
                                "amount", "amount", false, new KeyRangeDmlText.Operand(new BigDecimal("-1.25"), 0)),
                        new KeyRangeDmlText.Assignment("status", null, false, new KeyRangeDmlText.Operand("it's", 0))),
                update.set());
        assertEquals(new BigDecimal("1000"), update.low().constant());
        assertEquals(new BigDecimal("1499"), update.high().constant());

        KeyRangeDmlText.Statement prepared =
                KeyRangeDmlText.read("update orders set amount = amount - $1, status = $2 where id between $3 and $4");
        assertNotNull(prepared);
        assertEquals(3, prepared.low().param());
        assertEquals(4, prepared.high().param());

        KeyRangeDmlText.Statement delete = KeyRangeDmlText.read("DELETE FROM \"Orders\" WHERE id = $1");
        assertNotNull(delete);
        assertEquals("Orders", delete.table());
        assertEquals(delete.low(), delete.high());
    }

    @Test
    void theFirstWordIsReadWithoutTheLexerOnlyToLeaveOtherStatements() {
        assertNotNull(KeyRangeDmlText.read("\n\t  Update orders SET amount = 1 WHERE id = 1"));
        assertNotNull(KeyRangeDmlText.read("delete FROM orders WHERE id = 1"));
        assertNull(KeyRangeDmlText.read("updates orders SET amount = 1 WHERE id = 1"));
        assertNull(KeyRangeDmlText.read("SELECT 1"));
        assertNull(KeyRangeDmlText.read(""));
    }

    @Test
    void leavesEverythingElse() {
        for (String sql : List.of(
                "UPDATE orders SET amount = amount * 2 WHERE id = 1",
                "UPDATE orders o SET amount = 1 WHERE id = 1",
                "UPDATE orders SET amount = 1 WHERE id = 1 RETURNING *",
                "UPDATE orders SET amount = 1 WHERE id = 1;",
                "UPDATE orders SET amount = 1e10 WHERE id = 1",
                "UPDATE orders SET status = E'a\\tb' WHERE id = 1",
                "UPDATE orders SET status = 'a' 'b' WHERE id = 1",
                "UPDATE orders SET amount = 1 WHERE id > 1",
                "UPDATE orders SET amount = 1 WHERE id NOT BETWEEN 1 AND 2",
                "UPDATE orders SET amount = 1 WHERE id BETWEEN SYMMETRIC 1 AND 2",
                "UPDATE orders SET amount = 1 WHERE id = 1 AND status = 'x'",
                "UPDATE public.orders SET amount = 1 WHERE id = 1",
                "UPDATE orders SET \"Amount\" = 1 WHERE id = 1",
                "DELETE FROM orders",
                "DELETE FROM orders WHERE id = '5' || '6'",
                "INSERT INTO orders VALUES (1)")) {
            assertNull(KeyRangeDmlText.read(sql), sql);
        }
    }
}
