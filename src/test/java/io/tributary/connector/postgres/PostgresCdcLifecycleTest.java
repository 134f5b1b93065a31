package io.tributary.connector.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SplitReader;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.replication.LogSequenceNumber;

/** What the source does to the upstream over its life: WAL confirmation, the slot at reopen, dropping. */
class PostgresCdcLifecycleTest {
    private static final List<SourceColumn> COLUMNS =
            List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("v", DataType.TEXT));
    private int tableId;

    /** Creates the upstream table {@code (id int PRIMARY KEY, v text, n int)} with rows 1 and 2, and opens its source. */
    private Source create(int id, String... alter) throws Exception {
        tableId = id;
        UpstreamPostgres.execute(
                "DROP TABLE IF EXISTS " + table(),
                "CREATE TABLE " + table() + " (id int PRIMARY KEY, v text, n int)",
                "INSERT INTO " + table() + " VALUES (1, 'a'), (2, 'b')");
        for (String statement : alter) {
            UpstreamPostgres.execute(statement.replace("$T", table()));
        }
        return open(null);
    }

    private Source open(byte[] identity) throws Exception {
        return new PostgresCdcConnector()
                .open(UpstreamPostgres.context(
                        tableId, COLUMNS, new int[] {0}, UpstreamPostgres.options(table()), identity));
    }

    private String table() {
        return "lifecycle_" + tableId;
    }

    @AfterEach
    void drop() throws Exception {
        UpstreamPostgres.dropSlotAndPublication(table(), tableId);
        UpstreamPostgres.execute("DROP TABLE IF EXISTS " + table());
    }

    private static long confirmedFlush(String slot) throws Exception {
        return LogSequenceNumber.valueOf(UpstreamPostgres.queryOne(
                        "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'"))
                .asLong();
    }

    @Test
    void confirmedFlushAdvancesOnlyAfterCheckpointCompletion() throws Exception {
        Source source = create(9401);
        String slot = source.splits().get(0);
        long consistentPoint = CdcIdentity.decode(source.identity()).consistentPoint();
        try (SplitReader reader = source.reader(slot, null)) {
            Reading.atLeast(reader, 2);
            // WAL moves on without any transaction the slot sends; keepalives (every 2.5 s with
            // wal_sender_timeout 5s) carry the new LSN, which pgjdbc's automatic flush would confirm
            UpstreamPostgres.execute("SELECT pg_logical_emit_message(false, 'test', 'not captured')");
            readFor(reader, 3_500);
            assertEquals(
                    consistentPoint, confirmedFlush(slot), "nothing may be confirmed before a checkpoint completes");

            UpstreamPostgres.execute(
                    "INSERT INTO " + table() + " VALUES (3, 'c')", "UPDATE " + table() + " SET v = 'z'");
            Reading.atLeast(reader, 4);
            byte[] position = reader.position();
            long lsn = ((CdcPosition.Streaming) CdcPosition.decode(position)).lsn();
            assertTrue(lsn > consistentPoint);
            readFor(reader, 3_000);
            assertEquals(
                    consistentPoint, confirmedFlush(slot), "nothing may be confirmed before a checkpoint completes");

            reader.onCheckpointComplete(position);
            long deadline = System.currentTimeMillis() + 10_000;
            while (confirmedFlush(slot) != lsn && System.currentTimeMillis() < deadline) {
                reader.poll(50, 1000);
            }
            assertEquals(lsn, confirmedFlush(slot));
        } finally {
            source.close();
        }
    }

    private static void readFor(SplitReader reader, long millis) throws InterruptedException {
        long until = System.currentTimeMillis() + millis;
        Reading.until(reader, changes -> System.currentTimeMillis() >= until);
    }

    @Test
    void reopenStreamsFromTheCommittedPositionOnceTheOldConnectionLetsGoOfTheSlot() throws Exception {
        Source source = create(9402);
        String slot = source.splits().get(0);
        byte[] position;
        try (SplitReader reader = source.reader(slot, null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute("INSERT INTO " + table() + " VALUES (3, 'c')");
            Reading.atLeast(reader, 1);
            position = reader.position();
        }
        source.close();
        UpstreamPostgres.execute("DELETE FROM " + table() + " WHERE id = 1");
        Source reopened = open(source.identity());
        try (SplitReader reader = reopened.reader(slot, position)) {
            assertEquals("streaming", reader.phase());
            List<SourceChange> changes = Reading.atLeast(reader, 1);
            assertEquals(1, changes.size());
            assertEquals(SourceChange.Kind.DELETE, changes.get(0).kind());
            assertEquals(1, changes.get(0).row()[0]);
            assertNull(changes.get(0).row()[1], "REPLICA IDENTITY DEFAULT deletes carry only the key");
        } finally {
            reopened.close();
        }
    }

    @Test
    void aBrokenReplicationConnectionResumesFromThePosition() throws Exception {
        Source source = create(9405);
        String slot = source.splits().get(0);
        try (SplitReader reader = source.reader(slot, null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute("INSERT INTO " + table() + " VALUES (3, 'c')");
            assertEquals(1, Reading.atLeast(reader, 1).size());
            UpstreamPostgres.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
                    + " WHERE slot_name = '" + slot + "'");
            UpstreamPostgres.execute("INSERT INTO " + table() + " VALUES (4, 'd')");
            List<SourceChange> changes = Reading.atLeast(reader, 1);
            long quiet = System.currentTimeMillis() + 500;
            changes.addAll(Reading.until(reader, c -> System.currentTimeMillis() >= quiet));
            assertEquals(1, changes.size(), "only the insert after the break, once");
            assertEquals(4, changes.get(0).row()[0]);
        } finally {
            source.close();
        }
    }

    private static final String LARGE_VALUE = "(SELECT string_agg(md5(g::text), '') FROM generate_series(1, 500) g)";

    @Test
    void anUnchangedLargeValueComesFromTheOldRowWithReplicaIdentityFull() throws Exception {
        Source source = create(9406, "ALTER TABLE $T REPLICA IDENTITY FULL");
        try (SplitReader reader = source.reader(source.splits().get(0), null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute("UPDATE " + table() + " SET v = " + LARGE_VALUE + " WHERE id = 1");
            String large = (String) Reading.atLeast(reader, 1).get(0).row()[1];
            assertEquals(16_000, large.length());
            UpstreamPostgres.execute("UPDATE " + table() + " SET n = 7 WHERE id = 1");
            List<SourceChange> changes = Reading.atLeast(reader, 1);
            assertEquals(SourceChange.Kind.UPDATE, changes.get(0).kind());
            assertEquals(large, changes.get(0).row()[1]);
        } finally {
            source.close();
        }
    }

    @Test
    void anUnchangedLargeValueWithReplicaIdentityDefaultIsAClearError() throws Exception {
        Source source = create(9407);
        try (SplitReader reader = source.reader(source.splits().get(0), null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute(
                    "UPDATE " + table() + " SET v = " + LARGE_VALUE + " WHERE id = 1",
                    "UPDATE " + table() + " SET n = 7 WHERE id = 1");
            Reading.atLeast(reader, 1);
            ConnectorException e = assertThrows(ConnectorException.class, () -> Reading.atLeast(reader, 1));
            assertTrue(e.getMessage().contains("REPLICA IDENTITY FULL"), e.getMessage());
        } finally {
            source.close();
        }
    }

    @Test
    void destroyDropsTheSlotAndThePublication() throws Exception {
        Source source = create(9403);
        String slot = source.splits().get(0);
        try (SplitReader reader = source.reader(slot, null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute("INSERT INTO " + table() + " VALUES (3, 'c')");
            Reading.atLeast(reader, 1);
        }
        assertEquals(
                "1",
                UpstreamPostgres.queryOne(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
        source.close();
        source.destroy();
        assertEquals(
                "0",
                UpstreamPostgres.queryOne(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
        assertEquals(
                "0",
                UpstreamPostgres.queryOne("SELECT count(*) FROM pg_publication WHERE pubname = '" + slot + "_pub'"));
    }

    @Test
    void truncateUpstreamStopsTheSourceWithAClearError() throws Exception {
        Source source = create(9404);
        try (SplitReader reader = source.reader(source.splits().get(0), null)) {
            Reading.atLeast(reader, 2);
            UpstreamPostgres.execute("TRUNCATE " + table());
            ConnectorException e = assertThrows(ConnectorException.class, () -> Reading.atLeast(reader, 1));
            assertEquals("0A000", e.sqlState());
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        } finally {
            source.close();
        }
    }
}
