package io.tributary.connector.postgres;

import java.util.List;

/**
 * Checkpoint inside the initial snapshot (chunks of 4 rows, checkpoint after 12 of 30): the reopen
 * has lost the exported snapshot, reads the rest of the table by key from a new one and streams
 * from the consistent point; changes made while down hit rows on both sides of the checkpoint key.
 */
class CdcContractMidSnapshotTest extends CdcContractTestBase {
    @Override
    int tableId() {
        return 9101;
    }

    @Override
    int snapshotChunkRows() {
        return 4;
    }

    @Override
    List<String> beforeCreate() {
        return List.of(insertRange(1, 30));
    }

    @Override
    List<String> afterCreate() {
        return List.of(
                "UPDATE " + table() + " SET name = 'streamed' WHERE id IN (3, 25)",
                "DELETE FROM " + table() + " WHERE id = 20");
    }

    @Override
    List<String> whileDownStatements() {
        return List.of(
                insertRange(31, 35),
                "UPDATE " + table() + " SET amount = 99.99 WHERE id IN (2, 28)",
                "DELETE FROM " + table() + " WHERE id IN (5, 29)",
                "UPDATE " + table() + " SET id = 105 WHERE id = 6",
                "INSERT INTO " + table() + " VALUES (20, 'back', NULL)");
    }
}
