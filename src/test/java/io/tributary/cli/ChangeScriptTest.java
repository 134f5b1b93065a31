package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangeScriptTest {
    private static final long ROWS = 10_000;
    private static final int CUSTOMERS = 500;
    private static final int CLIENTS = 3;
    private static final long CHANGES = 7_001;
    /** Enough rounds for the deletes to use up the preloaded ids and go on into inserted ones. */
    private static final int ROUNDS = 6;

    /**
     * Replays the rounds on the set of live ids: every statement must change exactly its
     * {@code rows()} rows whatever order the clients' statements interleave in, which holds when
     * inserts add ids not live, updates and deletes touch live ids only, and no two clients of a
     * round touch the same id.
     */
    @Test
    void everyStatementChangesItsRowsWhateverTheInterleaving() {
        ChangeScript script = new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 42);
        Set<Long> live = new HashSet<>();
        for (long id = 1; id <= ROWS; id++) {
            live.add(id);
        }
        Set<String> kinds = new HashSet<>();
        boolean deletedInsertedIds = false;
        for (int r = 0; r < ROUNDS; r++) {
            List<List<ChangeScript.Change>> round = script.nextRound(CHANGES);
            assertEquals(CLIENTS, round.size());
            Map<Long, Integer> touchedBy = new HashMap<>();
            long total = 0;
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                for (ChangeScript.Change change : round.get(client)) {
                    assertTrue(
                            change.rows() >= 1 && change.rows() <= ChangeScript.ROWS_PER_STATEMENT, change::toString);
                    kinds.add(change.getClass().getSimpleName());
                    total += change.rows();
                    for (long id : ids(change)) {
                        Integer other = touchedBy.putIfAbsent(id, client);
                        assertTrue(
                                other == null || other == client,
                                () -> "clients " + other + " and " + client + " share id " + id);
                        assertTrue(id < ChangeScript.FIRST_FREE_ID);
                        if (change instanceof ChangeScript.Insert) {
                            assertTrue(live.add(id), () -> change + " inserts live id " + id);
                        } else if (change instanceof ChangeScript.Delete) {
                            assertTrue(live.remove(id), () -> change + " deletes missing id " + id);
                            deletedInsertedIds |= id > ROWS;
                        } else {
                            assertTrue(live.contains(id), () -> change + " updates missing id " + id);
                        }
                    }
                }
            }
            assertEquals(CHANGES, total);
        }
        assertEquals(Set.of("Insert", "Update", "Delete"), kinds);
        assertTrue(deletedInsertedIds, "the deletes never reached the inserted ids");
    }

    @Test
    void theSameSeedGivesTheSameStatementsAndValues() {
        ChangeScript a = new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 7);
        ChangeScript b = new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 7);
        for (int r = 0; r < ROUNDS; r++) {
            assertEquals(a.nextRound(CHANGES), b.nextRound(CHANGES));
        }
        assertEquals(a.order(123_456), b.order(123_456));
        assertNotEquals(
                new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 8).nextRound(CHANGES),
                new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 7).nextRound(CHANGES));
    }

    @Test
    void insertedOrdersReferToExistingCustomers() {
        ChangeScript script = new ChangeScript(ROWS, CUSTOMERS, CLIENTS, 1);
        for (long id = 1; id <= 1_000; id++) {
            ChangeScript.Order order = script.order(id);
            assertTrue(order.customerId() >= 1 && order.customerId() <= CUSTOMERS, order::toString);
            assertEquals(2, order.amount().scale());
            assertFalse(order.amount().signum() < 0, order::toString);
            assertTrue(ChangeScript.STATUSES.contains(order.status()));
        }
    }

    private static long[] ids(ChangeScript.Change change) {
        long first;
        if (change instanceof ChangeScript.Insert i) {
            first = i.firstId();
        } else if (change instanceof ChangeScript.Update u) {
            first = u.firstId();
        } else {
            first = ((ChangeScript.Delete) change).firstId();
        }
        long[] ids = new long[(int) change.rows()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = first + k;
        }
        return ids;
    }
}
