package io.tributary.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract every connector passes: read part of every split, take the positions (a
 * checkpoint), read on without checkpointing (work a crash loses), drop everything as a kill
 * would, reopen from the checkpoint with the stored identity, and read exactly the rest: the rows
 * applied from the checkpointed part plus the rest equal the source's rows, none lost or doubled.
 *
 * <p>A subclass prepares a finite input and says what the table must hold in the end.
 */
public abstract class SourceContractTest {
    private static final long READ_TIMEOUT_MILLIS = 60_000;

    /** Opens the source under test; {@code identity} is null at the first open. */
    protected abstract Source open(byte[] identity) throws Exception;

    /** Every row the table must hold once all input is read, in column order, canonical values. */
    protected abstract List<List<Object>> expectedRows() throws Exception;

    /** Primary-key column indexes of the table; empty when changes are appended as they come. */
    protected abstract int[] primaryKey();

    /** How many changes to read (over all splits) before the checkpoint. */
    protected int changesBeforeCheckpoint() {
        return 10;
    }

    /** Called after the checkpoint and before the reopen, e.g. to add input while the server is "down". */
    protected void whileDown() throws Exception {}

    @Test
    void resumesExactlyAfterTheCheckpoint() throws Exception {
        Table table = new Table(primaryKey());
        Map<String, byte[]> positions = new LinkedHashMap<>();
        byte[] identity;
        Source first = open(null);
        try {
            identity = first.identity();
            assertNotNull(identity, "identity must not be null (empty when there is nothing to keep)");
            List<SplitReader> readers = new ArrayList<>();
            for (String split : first.splits()) {
                readers.add(first.reader(split, null));
            }
            readUntil(readers, table, () -> table.changes >= changesBeforeCheckpoint());
            for (int i = 0; i < readers.size(); i++) {
                positions.put(first.splits().get(i), readers.get(i).position());
            }
            // read on past the checkpoint: a kill loses this, so it must come again after the reopen
            Table lost = table.copy();
            readUntil(readers, lost, () -> true);
            readers.forEach(SplitReader::close);
        } finally {
            first.close();
        }
        whileDown();
        Source second = open(identity);
        try {
            assertEquals(positions.keySet(), new java.util.LinkedHashSet<>(second.splits()), "splits must be stable");
            List<SplitReader> readers = new ArrayList<>();
            for (Map.Entry<String, byte[]> e : positions.entrySet()) {
                readers.add(second.reader(e.getKey(), e.getValue()));
            }
            List<List<Object>> expected = sorted(expectedRows());
            readUntil(readers, table, () -> sorted(table.rows()).equals(expected));
            // nothing more may arrive: a doubled row would show here
            readUntil(readers, table, () -> true);
            readUntil(readers, table, () -> true);
            assertEquals(expected, sorted(table.rows()));
            readers.forEach(SplitReader::close);
        } finally {
            second.close();
        }
    }

    private static void readUntil(List<SplitReader> readers, Table table, java.util.function.BooleanSupplier done)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + READ_TIMEOUT_MILLIS;
        do {
            for (SplitReader r : readers) {
                SourceBatch batch = r.poll(50, 1000);
                assertNotNull(batch);
                batch.changes().forEach(table::apply);
            }
        } while (!done.getAsBoolean() && System.currentTimeMillis() < deadline);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort((a, b) -> Arrays.deepToString(a.toArray()).compareTo(Arrays.deepToString(b.toArray())));
        return out;
    }

    /** The table the changes build: keyed by the primary key, or a plain list without one. */
    private static final class Table {
        final int[] pk;
        final Map<List<Object>, List<Object>> byKey = new HashMap<>();
        final List<List<Object>> appended = new ArrayList<>();
        long changes;

        Table(int[] pk) {
            this.pk = pk;
        }

        void apply(SourceChange c) {
            changes++;
            List<Object> row = Arrays.asList(c.row().clone());
            if (pk.length == 0) {
                assertEquals(SourceChange.Kind.INSERT, c.kind(), "a table without a primary key only takes inserts");
                appended.add(row);
                return;
            }
            List<Object> key = new ArrayList<>();
            for (int i : pk) {
                key.add(row.get(i));
            }
            if (c.kind() == SourceChange.Kind.DELETE) {
                byKey.remove(key);
            } else {
                byKey.put(key, row);
            }
        }

        List<List<Object>> rows() {
            return pk.length == 0 ? appended : new ArrayList<>(byKey.values());
        }

        Table copy() {
            Table t = new Table(pk);
            t.byKey.putAll(byKey);
            t.appended.addAll(appended);
            t.changes = changes;
            return t;
        }
    }
}
