package io.tributary.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.batch.Snapshot;
import io.tributary.batch.TableScan;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableWriterTest {
    @TempDir
    Path dir;

    private Database db;

    @BeforeEach
    void open() {
        db = Database.open(dir, 10_000, CalciteViewPlanner::new);
    }

    @AfterEach
    void close() {
        if (db != null) {
            db.close();
        }
    }

    private TableDef createKv(String name) throws InterruptedException {
        List<ColumnDef> cols = List.of(
                new ColumnDef("id", DataType.INTEGER, true, false),
                new ColumnDef("v", DataType.TEXT, false, false),
                new ColumnDef("n", DataType.INTEGER, true, false));
        assertTrue(db.ddl()
                .createTable(
                        name,
                        cols,
                        new int[] {0},
                        "CREATE TABLE " + name,
                        false,
                        null,
                        null,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE));
        return db.catalog().table(name).orElseThrow();
    }

    private TableDef createNoPk(String name) throws InterruptedException {
        List<ColumnDef> cols = List.of(
                new ColumnDef("v", DataType.TEXT, false, false),
                new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true));
        db.ddl()
                .createTable(
                        name,
                        cols,
                        new int[] {1},
                        "CREATE TABLE " + name,
                        false,
                        null,
                        null,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE);
        return db.catalog().table(name).orElseThrow();
    }

    /** Applies one statement's writes and waits until they are durable. */
    private void statement(TableDef t, java.util.function.Consumer<TableWriter> writes) throws InterruptedException {
        try (TableWriter w = db.newTableWriter(t)) {
            writes.accept(w);
            db.barriers().awaitCommitted(w.apply());
        }
    }

    private List<Object[]> rows(TableDef t) {
        List<Object[]> out = new ArrayList<>();
        try (Snapshot s = db.snapshots().open();
                TableScan scan = s.scan(t)) {
            while (scan.hasNext()) {
                out.add(scan.next());
            }
        }
        return out;
    }

    /** id -> v of a kv table. */
    private Map<Integer, String> kv(TableDef t) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : rows(t)) {
            out.put((Integer) r[0], (String) r[1]);
        }
        return out;
    }

    private static Object[] row(int id, String v) {
        return new Object[] {id, v, 0};
    }

    /**
     * A row's {@code AS PROCTIME()} column holds the time of the epoch it lands in: a barrier passing between
     * the row entering the writer and its staging stamps it again, to a time past the one it first got.
     */
    @Test
    void proctimeIsTheTimeOfTheEpochTheRowLandsIn() throws Exception {
        List<ColumnDef> cols = List.of(
                new ColumnDef("id", DataType.INTEGER, true, false),
                new ColumnDef("p", DataType.TIMESTAMPTZ, false, false, null, null, ColumnDef.Generated.PROCTIME));
        db.ddl()
                .createTable(
                        "stamped",
                        cols,
                        new int[] {0},
                        "CREATE TABLE stamped",
                        false,
                        null,
                        null,
                        List.of(),
                        RelationKind.TABLE);
        TableDef t = db.catalog().table("stamped").orElseThrow();
        TableDef other = createKv("other");
        long first;
        long moved;
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(new Object[] {1, null});
            first = db.barriers().openEpochMillis();
            Thread.sleep(5);
            statement(other, o -> o.insert(new Object[] {1, "x", 1}));
            moved = db.barriers().openEpochMillis();
            assertTrue(moved > first, "an epoch committed after the row was stamped");
            db.barriers().awaitCommitted(w.apply());
        }
        long stored = (Long) rows(t).get(0)[1];
        assertTrue(stored >= moved * 1000, "stamped at staging: " + stored + " < " + moved * 1000);
        statement(t, w -> w.insert(new Object[] {2, 12345L}));
        assertTrue((Long) rows(t).get(1)[1] >= moved * 1000, "the writer, not the caller, sets the column");
    }

    @Test
    void insertedRowsAreReadBack() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> {
            w.insert(row(2, "b"));
            w.insert(row(1, "a"));
            w.insert(row(3, null));
            assertEquals(3, w.count());
        });
        Map<Integer, String> expected = new TreeMap<>();
        expected.put(1, "a");
        expected.put(2, "b");
        expected.put(3, null);
        assertEquals(expected, kv(t));
    }

    @Test
    void duplicateKeyWithinStatementAppliesNothing() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> w.insert(row(7, "seven")));
        try (TableWriter w = db.newTableWriter(t)) {
            // changes are settled at apply: staging the duplicate is accepted, apply reports it
            w.insert(row(1, "a"));
            w.insert(row(2, "b"));
            w.insert(row(1, "again"));
            w.replace(row(7, "SEVEN"));
            assertEquals(4, w.count());
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            assertEquals("duplicate key value violates unique constraint \"t_pkey\"", e.getMessage());
            assertEquals("Key (id)=(1) already exists.", e.detail());
        }
        db.barriers().flush();
        assertEquals(Map.of(7, "seven"), kv(t), "nothing of the failed statement is applied");
        // the failed statement left nothing staged that would block its keys
        statement(t, w -> w.insert(row(1, "later")));
        assertEquals(Map.of(1, "later", 7, "seven"), kv(t));
    }

    /**
     * A statement staged in ascending key order skips the sort that groups changes by key; a key
     * repeated at the end (equal, not ascending) must still take the grouping path and be found.
     */
    @Test
    void ascendingKeysThenARepeatIsADuplicate() throws Exception {
        TableDef t = createKv("t");
        try (TableWriter w = db.newTableWriter(t)) {
            for (int id = -500; id < 500; id++) {
                w.insert(row(id, "v"));
            }
            w.insert(row(499, "again"));
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            assertEquals("Key (id)=(499) already exists.", e.detail());
        }
        statement(t, w -> {
            for (int id = -500; id < 500; id++) {
                w.insert(row(id, "v" + id));
            }
        });
        Map<Integer, String> rows = kv(t);
        assertEquals(1000, rows.size());
        assertEquals("v-500", rows.get(-500));
        assertEquals("v499", rows.get(499));
    }

    @Test
    void duplicateWithinStatementAfterDeleteAndReinsert() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> w.insert(row(1, "a")));
        // delete then insert of one key is a replacement; a second insert of it is still a duplicate
        try (TableWriter w = db.newTableWriter(t)) {
            w.delete(row(1, "a"));
            w.insert(row(1, "b"));
            w.insert(row(1, "c"));
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            assertEquals("Key (id)=(1) already exists.", e.detail());
        }
        db.barriers().flush();
        assertEquals(Map.of(1, "a"), kv(t));
        statement(t, w -> {
            w.delete(row(1, "a"));
            w.insert(row(1, "b"));
        });
        assertEquals(Map.of(1, "b"), kv(t));
    }

    @Test
    void duplicateAgainstCommittedRowsAppliesNothing() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> w.insert(row(5, "five")));
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(row(1, "one"));
            w.insert(row(5, "dup"));
            w.insert(row(9, "nine"));
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            assertEquals("Key (id)=(5) already exists.", e.detail());
        }
        db.barriers().flush();
        assertEquals(Map.of(5, "five"), kv(t));
    }

    @Test
    void bulkLoadAmongCommittedRowsChecksEachKey() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> {
            for (int id = 1; id < 2000; id += 2) {
                w.insert(row(id, "odd"));
            }
        });
        // ascending keys, so packed; the committed odd ids lie in their range
        try (TableWriter w = db.newTableWriter(t)) {
            for (int id = 0; id < 1500; id++) {
                w.insert(row(id, "dup"));
            }
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            assertEquals("Key (id)=(1) already exists.", e.detail());
        }
        statement(t, w -> {
            for (int id = 0; id < 2000; id += 2) {
                w.insert(row(id, "even"));
            }
        });
        Map<Integer, String> rows = kv(t);
        assertEquals(2000, rows.size());
        assertEquals("even", rows.get(1998));
        assertEquals("odd", rows.get(1999));
    }

    @Test
    void bulkLoadSeesDeletesAndLoadsOfItsOwnEpoch() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> w.insert(row(500, "old")));
        try (TableWriter delete = db.newTableWriter(t);
                TableWriter load = db.newTableWriter(t);
                TableWriter again = db.newTableWriter(t)) {
            delete.delete(row(500, "old"));
            delete.apply();
            // the key deleted earlier in this epoch may be loaded again
            for (int id = 0; id < 1000; id++) {
                load.insert(row(id, "new"));
            }
            load.apply();
            // a second load into the same open epoch meets the first one's rows
            for (int id = 999; id < 1100; id++) {
                again.insert(row(id, "again"));
            }
            TributaryException e = assertThrows(TributaryException.class, () -> again.apply());
            assertEquals("Key (id)=(999) already exists.", e.detail());
        }
        db.barriers().flush();
        Map<Integer, String> rows = kv(t);
        assertEquals(1000, rows.size());
        assertEquals("new", rows.get(500));
    }

    @Test
    void bulkLoadThatTurnsBackOrDeletesIsStagedRowByRow() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> {
            for (int id = 0; id < 1000; id++) {
                w.insert(row(id, "a"));
            }
            // keys stop ascending: the packed rows become changes, nothing is lost
            w.insert(row(-1, "b"));
            w.delete(row(0, "a"));
            assertEquals(1002, w.count());
        });
        Map<Integer, String> rows = kv(t);
        assertEquals(1000, rows.size());
        assertEquals("b", rows.get(-1));
        assertEquals("a", rows.get(999));
        assertEquals(null, rows.get(0));
    }

    @Test
    void duplicateAgainstAnotherStatementInTheSameOpenEpoch() throws Exception {
        TableDef t = createKv("t");
        try (TableWriter a = db.newTableWriter(t);
                TableWriter b = db.newTableWriter(t)) {
            a.insert(row(1, "a"));
            b.insert(row(1, "b"));
            b.insert(row(2, "b2"));
            long ticket = a.apply(); // staged, not yet committed
            TributaryException e = assertThrows(TributaryException.class, () -> b.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
            db.barriers().awaitCommitted(ticket);
        }
        assertEquals(Map.of(1, "a"), kv(t));
    }

    @Test
    void numericKeysEqualInSqlAreDuplicates() throws Exception {
        List<ColumnDef> cols = List.of(new ColumnDef("k", DataType.NUMERIC, true, false));
        db.ddl()
                .createTable(
                        "n",
                        cols,
                        new int[] {0},
                        "CREATE TABLE n",
                        false,
                        null,
                        null,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE);
        TableDef t = db.catalog().table("n").orElseThrow();
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(new Object[] {new BigDecimal("1.0")});
            w.insert(new Object[] {new BigDecimal("1.00")});
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
        }
        db.barriers().flush();
        assertTrue(rows(t).isEmpty(), "nothing of the failed statement is applied");
        // and against a committed row
        statement(t, w -> w.insert(new Object[] {new BigDecimal("1.0")}));
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(new Object[] {new BigDecimal("1.000")});
            assertEquals(
                    SqlState.UNIQUE_VIOLATION,
                    assertThrows(TributaryException.class, () -> w.apply()).sqlState());
        }
    }

    @Test
    void notNullViolation() throws Exception {
        TableDef t = createKv("t");
        try (TableWriter w = db.newTableWriter(t)) {
            TributaryException e = assertThrows(TributaryException.class, () -> w.insert(new Object[] {1, "x", null}));
            assertEquals(SqlState.NOT_NULL_VIOLATION, e.sqlState());
            assertEquals("null value in column \"n\" of relation \"t\" violates not-null constraint", e.getMessage());
            TributaryException e2 =
                    assertThrows(TributaryException.class, () -> w.replace(new Object[] {null, "x", 1}));
            assertEquals(SqlState.NOT_NULL_VIOLATION, e2.sqlState());
        }
    }

    @Test
    void updateSwappingPrimaryKeysWorks() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> {
            w.insert(row(1, "a"));
            w.insert(row(2, "b"));
            w.insert(row(3, "c"));
        });
        // UPDATE t SET id = 3 - id WHERE id IN (1, 2): deletes of all old rows first, then inserts
        statement(t, w -> {
            w.delete(row(1, "a"));
            w.delete(row(2, "b"));
            w.insert(row(2, "a"));
            w.insert(row(1, "b"));
        });
        assertEquals(Map.of(1, "b", 2, "a", 3, "c"), kv(t));
        // moving a key onto a row that is not moved away is still a duplicate
        try (TableWriter w = db.newTableWriter(t)) {
            w.delete(row(1, "b"));
            w.insert(row(3, "b"));
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNIQUE_VIOLATION, e.sqlState());
        }
        db.barriers().flush();
        assertEquals(Map.of(1, "b", 2, "a", 3, "c"), kv(t));
    }

    @Test
    void replaceAndDeleteOfCommittedRows() throws Exception {
        TableDef t = createKv("t");
        statement(t, w -> {
            w.insert(row(1, "a"));
            w.insert(row(2, "b"));
        });
        statement(t, w -> {
            w.replace(row(1, "A"));
            w.delete(row(2, "b"));
        });
        assertEquals(Map.of(1, "A"), kv(t));
    }

    @Test
    void hiddenRowIdsAreUniqueAndGrowAcrossRestart() throws Exception {
        TableDef t = createNoPk("h");
        statement(t, w -> {
            for (int i = 0; i < 500; i++) {
                w.insert(new Object[] {"same", null});
            }
        });
        statement(t, w -> {
            for (int i = 0; i < 500; i++) {
                w.insert(new Object[] {"same", null});
            }
        });
        Set<Long> ids = new HashSet<>();
        long max = Long.MIN_VALUE;
        for (Object[] r : rows(t)) {
            ids.add((Long) r[1]);
            max = Math.max(max, (Long) r[1]);
        }
        assertEquals(1000, ids.size());
        db.close();
        db = Database.open(dir, 10_000, CalciteViewPlanner::new);
        TableDef t2 = db.catalog().table("h").orElseThrow();
        statement(t2, w -> w.insert(new Object[] {"after restart", null}));
        List<Object[]> all = rows(t2);
        assertEquals(1001, all.size());
        long newId = all.stream()
                .filter(r -> "after restart".equals(r[0]))
                .mapToLong(r -> (Long) r[1])
                .findFirst()
                .orElseThrow();
        assertTrue(newId > max, "row id after restart " + newId + " must exceed " + max);
    }

    @Test
    void restartKeepsCommittedRowsAndTables() throws Exception {
        TableDef t = createKv("t");
        TableDef u = createKv("u");
        statement(t, w -> w.insert(row(1, "t1")));
        statement(u, w -> w.insert(row(7, "u7")));
        // staged but never awaited: Database.close() commits what is staged
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(row(2, "t2"));
            w.apply();
        }
        db.close();
        db = Database.open(dir, 10_000, CalciteViewPlanner::new);
        assertEquals(
                List.of("t", "u"),
                db.catalog().tables().stream().map(TableDef::name).toList());
        TableDef t2 = db.catalog().table("t").orElseThrow();
        assertEquals(t.id(), t2.id());
        assertEquals(t.columns(), t2.columns());
        assertEquals(Map.of(1, "t1", 2, "t2"), kv(t2));
        assertEquals(Map.of(7, "u7"), kv(db.catalog().table("u").orElseThrow()));
        // committed keys are still unique after the restart
        try (TableWriter w = db.newTableWriter(t2)) {
            w.insert(row(1, "dup"));
            assertEquals(
                    SqlState.UNIQUE_VIOLATION,
                    assertThrows(TributaryException.class, () -> w.apply()).sqlState());
        }
        // table ids are never reused, even after a drop and a restart
        db.ddl().drop(List.of("u"), RelationKind.TABLE, false, false, notice -> {});
        db.close();
        db = Database.open(dir, 10_000, CalciteViewPlanner::new);
        TableDef v = createKv("v");
        assertTrue(v.id() > u.id(), "new id " + v.id() + " must not reuse " + u.id());
        assertTrue(db.catalog().table("u").isEmpty());
    }

    @Test
    void applyToADroppedTableFails() throws Exception {
        TableDef t = createKv("t");
        try (TableWriter w = db.newTableWriter(t)) {
            w.insert(row(1, "a"));
            db.ddl().drop(List.of("t"), RelationKind.TABLE, false, false, notice -> {});
            TributaryException e = assertThrows(TributaryException.class, () -> w.apply());
            assertEquals(SqlState.UNDEFINED_TABLE, e.sqlState());
        }
        TableDef again = createKv("t");
        assertTrue(rows(again).isEmpty());
    }
}
