package io.tributary.connector.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.Source;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SplitReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The snapshot and the stream meet exactly at the slot's consistent point while the upstream is
 * being written: the slot is created and the snapshot read (in small chunks) while a writer
 * commits inserts of new keys and increments of a counter row. Every inserted key arrives exactly
 * once, and the counter's values arrive without a gap or a repeat.
 */
class PostgresCdcHandoverTest {
    private static final int TABLE_ID = 9301;
    private static final String TABLE = "handover_" + TABLE_ID;
    private static final int WRITES = 400;
    private static final List<SourceColumn> COLUMNS =
            List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("v", DataType.INTEGER));

    @AfterAll
    static void drop() throws Exception {
        UpstreamPostgres.dropSlotAndPublication(TABLE, TABLE_ID);
        UpstreamPostgres.execute("DROP TABLE IF EXISTS " + TABLE);
    }

    @Test
    void nothingLostOrDoubledAcrossTheHandover() throws Exception {
        UpstreamPostgres.execute(
                "DROP TABLE IF EXISTS " + TABLE,
                "CREATE TABLE " + TABLE + " (id int PRIMARY KEY, v int)",
                "INSERT INTO " + TABLE + " VALUES (0, 0)");
        ExecutorService writer = Executors.newSingleThreadExecutor();
        // the second half of the writes waits for the slot, so some of them must come through the
        // stream however slowly the slot is created (on a busy machine the writes could all end first)
        CountDownLatch slotCreated = new CountDownLatch(1);
        Source source = null;
        try {
            Future<?> writes = writer.submit(() -> {
                try (Connection c = UpstreamPostgres.connect();
                        PreparedStatement insert = c.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, 0)");
                        PreparedStatement increment =
                                c.prepareStatement("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 0")) {
                    for (int i = 1; i <= WRITES; i++) {
                        if (i == WRITES / 2 && !slotCreated.await(60, TimeUnit.SECONDS)) {
                            throw new AssertionError("the source did not open within a minute");
                        }
                        insert.setInt(1, i);
                        insert.executeUpdate();
                        increment.executeUpdate();
                    }
                }
                return null;
            });
            while (Integer.parseInt(UpstreamPostgres.queryOne("SELECT v FROM " + TABLE + " WHERE id = 0")) < 50) {
                Thread.sleep(5);
            }
            source = new PostgresCdcConnector(16)
                    .open(UpstreamPostgres.context(
                            TABLE_ID, COLUMNS, new int[] {0}, UpstreamPostgres.options(TABLE), null));
            slotCreated.countDown();
            List<SourceChange> changes;
            try (SplitReader reader = source.reader(source.splits().get(0), null)) {
                changes = Reading.until(reader, c -> writes.isDone() && counterReached(c, WRITES));
                writes.get();
                assertEquals("streaming", reader.phase());
            }

            Map<Integer, Integer> arrivals = new HashMap<>();
            List<Integer> counter = new ArrayList<>();
            for (SourceChange c : changes) {
                int id = (Integer) c.row()[0];
                if (id == 0) {
                    counter.add((Integer) c.row()[1]);
                } else {
                    arrivals.merge(id, 1, Integer::sum);
                    assertEquals(SourceChange.Kind.INSERT, c.kind());
                }
            }
            for (int i = 1; i <= WRITES; i++) {
                assertEquals(1, arrivals.getOrDefault(i, 0), "key " + i + " must arrive exactly once");
            }
            assertEquals(WRITES, arrivals.size());
            assertTrue(counter.size() > 1, "some increments must come through the stream");
            assertTrue(counter.get(0) >= 50, "the snapshot holds the counter as it was at the consistent point");
            for (int k = 1; k < counter.size(); k++) {
                assertEquals(counter.get(k - 1) + 1, counter.get(k), "counter values " + counter);
            }
        } finally {
            writer.shutdownNow();
            if (source != null) {
                source.close();
            }
        }
    }

    private static boolean counterReached(List<SourceChange> changes, int value) {
        for (SourceChange c : changes) {
            if ((Integer) c.row()[0] == 0 && (Integer) c.row()[1] == value) {
                return true;
            }
        }
        return false;
    }
}
