package io.tributary.connector.postgres;

import java.util.List;

/**
 * Checkpoint between streamed transactions: a small snapshot, then small transactions (the
 * checkpoint falls after them), then one transaction larger than a whole batch; while down,
 * inserts, updates, key-only deletes (REPLICA IDENTITY DEFAULT) and a primary-key change.
 */
class CdcContractMidStreamTest extends CdcContractTestBase {
    @Override
    int tableId() {
        return 9102;
    }

    @Override
    List<String> beforeCreate() {
        return List.of(insertRange(1, 5));
    }

    @Override
    List<String> afterCreate() {
        return List.of(
                "BEGIN",
                insertRange(6, 7),
                "COMMIT",
                "BEGIN",
                "UPDATE " + table() + " SET name = 'x' WHERE id = 1",
                "DELETE FROM " + table() + " WHERE id = 2",
                "COMMIT",
                "BEGIN",
                insertRange(8, 9),
                "COMMIT",
                insertRange(100, 1599));
    }

    @Override
    List<String> whileDownStatements() {
        return List.of(
                insertRange(2000, 2010),
                "UPDATE " + table() + " SET name = NULL, amount = -1 WHERE id BETWEEN 100 AND 120",
                "DELETE FROM " + table() + " WHERE id BETWEEN 1500 AND 1599",
                "UPDATE " + table() + " SET id = id + 10000 WHERE id = 3");
    }
}
