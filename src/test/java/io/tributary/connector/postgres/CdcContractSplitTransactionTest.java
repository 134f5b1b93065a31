package io.tributary.connector.postgres;

import java.util.List;

/**
 * Checkpoint inside a transaction larger than a whole batch (1500 inserts, batches of 1000): the
 * position counts the changes of it already returned, and the reopen returns exactly its rest.
 */
class CdcContractSplitTransactionTest extends CdcContractTestBase {
    @Override
    int tableId() {
        return 9103;
    }

    @Override
    List<String> beforeCreate() {
        return List.of(insertRange(1, 5));
    }

    @Override
    List<String> afterCreate() {
        return List.of(insertRange(10, 1509), "DELETE FROM " + table() + " WHERE id = 1");
    }

    @Override
    List<String> whileDownStatements() {
        return List.of(
                "UPDATE " + table() + " SET name = 'late' WHERE id BETWEEN 1000 AND 1100",
                "DELETE FROM " + table() + " WHERE id = 1509");
    }
}
