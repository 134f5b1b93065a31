package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import io.tributary.sql.StatementControl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.junit.jupiter.api.Test;

class GuardedEnumerableTest {
    /** An input that counts how often it is read from the start, as a table scan would be. */
    private static Enumerable<Integer> counted(List<Integer> rows, AtomicInteger passes) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Integer> enumerator() {
                passes.incrementAndGet();
                return Linq4j.enumerator(rows);
            }
        };
    }

    private static List<Integer> drain(Enumerable<Integer> e) {
        List<Integer> out = new ArrayList<>();
        try (Enumerator<Integer> en = e.enumerator()) {
            while (en.moveNext()) {
                out.add(en.current());
            }
        }
        return out;
    }

    @Test
    void aSpooledInputIsReadOnceAndServesEveryPass() {
        AtomicInteger passes = new AtomicInteger();
        StatementControl control = new StatementControl(1 << 20);
        Enumerable<Integer> inner = GuardedEnumerable.of(
                counted(List.of(3, 1, 2), passes), control, GuardedEnumerable.SPOOLED, 100, Long.MAX_VALUE, new int[0]);
        for (int outer = 0; outer < 5; outer++) {
            assertEquals(List.of(3, 1, 2), drain(inner));
        }
        assertEquals(1, passes.get(), "the input is read once, not once per outer row");
        assertEquals(300, control.memoryHeld(), "the kept rows are accounted once");
    }

    @Test
    void aSpoolOverTheBudgetFailsWith53200() {
        StatementControl control = new StatementControl(250);
        Enumerable<Integer> inner = GuardedEnumerable.of(
                counted(List.of(1, 2, 3), new AtomicInteger()),
                control,
                GuardedEnumerable.SPOOLED,
                100,
                Long.MAX_VALUE,
                new int[0]);
        TributaryException e = assertThrows(TributaryException.class, () -> drain(inner));
        assertEquals("53200", e.sqlState());
    }

    @Test
    void aMaterializedInputIsReadPerPassAndGivesItsMemoryBack() {
        AtomicInteger passes = new AtomicInteger();
        StatementControl control = new StatementControl(1 << 20);
        Enumerable<Integer> build = GuardedEnumerable.of(
                counted(List.of(1, 2), passes),
                control,
                GuardedEnumerable.MATERIALIZED,
                100,
                Long.MAX_VALUE,
                new int[0]);
        drain(build);
        drain(build);
        assertEquals(2, passes.get());
        assertEquals(0, control.memoryHeld());
    }
}
