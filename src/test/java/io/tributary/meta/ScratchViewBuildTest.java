package io.tributary.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.TableDef;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.stream.backfill.BackfillRate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's scratch computation of a view's snapshot phase gives, under the server's table ids,
 * byte for byte the state the server's own backfill of the same rows gives: for a filter, a GROUP
 * BY with MIN/MAX (whose value tables are state too) and a join.
 */
@Timeout(300)
class ScratchViewBuildTest {
    /** Holds every scratch database a test makes; JUnit removes it after each test. */
    @TempDir
    Path tmp;

    @Test
    void theScratchStateEqualsTheServersOwnBackfill() throws Exception {
        try (BackfillFixture server = new BackfillFixture(50);
                Connection c = server.connect()) {
            BackfillFixture.exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT, note VARCHAR)");
            BackfillFixture.exec(
                    c, "INSERT INTO t SELECT x, x % 7, x * 3, 'n' || x FROM generate_series(1, 3000) AS g(x)");
            BackfillFixture.exec(c, "CREATE TABLE d (g BIGINT PRIMARY KEY, name VARCHAR)");
            BackfillFixture.exec(c, "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 5) AS g(x)");
            BackfillFixture.exec(c, "CREATE MATERIALIZED VIEW f AS SELECT id, note FROM t WHERE g = 1");
            BackfillFixture.exec(
                    c,
                    "CREATE MATERIALIZED VIEW agg AS SELECT g, count(*) AS n, sum(v) AS s, min(v) AS lo, max(note) AS hi"
                            + " FROM t GROUP BY g");
            BackfillFixture.exec(
                    c, "CREATE MATERIALIZED VIEW j AS SELECT t.id, d.name, t.v FROM t JOIN d ON t.g = d.g");
            Database db = server.db;
            TableDef t = db.catalog().require("t");
            TableDef d = db.catalog().require("d");
            for (String name : List.of("f", "agg", "j")) {
                TableDef view = db.catalog().require(name);
                Path dir = Files.createTempDirectory(tmp, "scratch-");
                try (ScratchViewBuild build =
                        ScratchViewBuild.open(dir, CalciteViewPlanner::new, System.currentTimeMillis())) {
                    for (TableDef relation : List.of(t, d)) {
                        build.createRelation(relation);
                        build.load(relation.id(), storedRows(db, relation.id()));
                    }
                    int[] tables = stateTables(view);
                    build.buildView(view, tables, 1, NO_CHECKPOINT, BackfillRate.UNLIMITED, (k, v, rows) -> {});
                    List<String> scratch = new ArrayList<>();
                    build.readState(name, tables, (k, v) -> scratch.add(hex(k, v)));
                    assertEquals(serverState(db, tables), scratch, name);
                }
            }
        }
    }

    /**
     * A worker's warm-up plans its throw-away view (a filter, a join and a GROUP BY with MIN/MAX)
     * in a scratch database in the directory it is given: a planning that failed there would
     * throw, and the worker would only learn it at its first job.
     */
    @Test
    void theWarmUpPlansAViewOfEachKindInOne() throws Exception {
        Path dir = Files.createTempDirectory(tmp, "warm-");
        ScratchViewBuild.warmUp(dir, CalciteViewPlanner::new);
        assertTrue(Files.isDirectory(dir.resolve("state")), "the warm-up ran in the directory it was given");
    }

    /**
     * {@code now()} in a view computed on a worker is the server's snapshot time, not the worker's
     * clock: at a snapshot time of 2020-01-01 00:00 UTC, a row of 23:30 the day before passes
     * {@code ts > now() - 1 hour} and one of 22:00 does not (at this machine's clock, neither does).
     */
    @Test
    void nowInTheScratchViewIsTheServersSnapshotTime() throws Exception {
        try (BackfillFixture server = new BackfillFixture(50);
                Connection c = server.connect()) {
            BackfillFixture.exec(c, "CREATE TABLE ev (id BIGINT PRIMARY KEY, ts TIMESTAMPTZ)");
            BackfillFixture.exec(
                    c,
                    "INSERT INTO ev VALUES (1, CAST('2019-12-31 23:30:00 UTC' AS TIMESTAMPTZ)),"
                            + " (2, CAST('2019-12-31 22:00:00 UTC' AS TIMESTAMPTZ))");
            BackfillFixture.exec(
                    c, "CREATE MATERIALIZED VIEW recent AS SELECT id FROM ev WHERE ts > now() - INTERVAL '1 hour'");
            Database db = server.db;
            TableDef ev = db.catalog().require("ev");
            TableDef view = db.catalog().require("recent");
            long snapshotMillis =
                    java.time.Instant.parse("2020-01-01T00:00:00Z").toEpochMilli();
            Path dir = Files.createTempDirectory(tmp, "scratch-");
            try (ScratchViewBuild build = ScratchViewBuild.open(dir, CalciteViewPlanner::new, snapshotMillis)) {
                build.createRelation(ev);
                build.load(ev.id(), storedRows(db, ev.id()));
                build.buildView(view, stateTables(view), 1, NO_CHECKPOINT, BackfillRate.UNLIMITED, (k, v, rows) -> {});
                List<String> viewRows = new ArrayList<>();
                build.readState("recent", stateTables(view), (k, v) -> {
                    if (java.nio.ByteBuffer.wrap(k, 0, 4).getInt() == view.id()) {
                        viewRows.add(hex(k, v));
                    }
                });
                assertEquals(1, viewRows.size(), "only the row of 23:30 is visible at the snapshot's time");
            }
        }
    }

    /**
     * Resume is exact: a build that goes on from a prefix of another build's checkpoints (as a
     * second worker does after the first was killed) ends in the state the server's own backfill
     * gives, byte for byte; replaying every checkpoint of a whole build over empty tables gives it
     * too, so the checkpoints miss no write. A GROUP BY (sums are state that a row read twice or
     * not at all would change) and a join, over enough rows for several checkpoints.
     */
    @Test
    void aBuildGoingOnFromAnEarlierBuildsCheckpointEndsInTheServersState() throws Exception {
        try (BackfillFixture server = new BackfillFixture(50);
                Connection c = server.connect()) {
            BackfillFixture.exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
            BackfillFixture.exec(c, "INSERT INTO t SELECT x, x % 97, x * 3 FROM generate_series(1, 200000) AS g(x)");
            BackfillFixture.exec(c, "CREATE TABLE d (g BIGINT PRIMARY KEY, name VARCHAR)");
            BackfillFixture.exec(c, "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 50) AS g(x)");
            BackfillFixture.exec(
                    c,
                    "CREATE MATERIALIZED VIEW agg AS SELECT g, count(*) AS n, sum(v) AS s, max(v) AS hi FROM t GROUP BY g");
            BackfillFixture.exec(c, "CREATE MATERIALIZED VIEW j AS SELECT t.id, d.name FROM t JOIN d ON t.g = d.g");
            Database db = server.db;
            TableDef t = db.catalog().require("t");
            TableDef d = db.catalog().require("d");
            for (String name : List.of("agg", "j")) {
                TableDef view = db.catalog().require(name);
                int[] tables = stateTables(view);
                List<String> expected = serverState(db, tables);
                List<List<byte[][]>> checkpoints = new ArrayList<>();
                List<Long> rowsRead = new ArrayList<>();
                try (ScratchViewBuild first = scratch(db, List.of(t, d))) {
                    first.buildView(view, tables, 1, NO_CHECKPOINT, BackfillRate.UNLIMITED, (keys, values, rows) -> {
                        rowsRead.add(rows);
                        List<byte[][]> group = new ArrayList<>();
                        for (int i = 0; i < keys.size(); i++) {
                            group.add(new byte[][] {keys.get(i), values.get(i)});
                        }
                        checkpoints.add(group);
                    });
                }
                // how many checkpoints a build takes depends on how far its actor reads before the coordinator's
                // trigger lands (a fast run took 2 in CI): what matters is that the first ends mid-way
                assertTrue(checkpoints.size() >= 2, name + ": more than one checkpoint, not " + checkpoints.size());
                for (int i = 1; i < rowsRead.size(); i++) {
                    assertTrue(rowsRead.get(i) >= rowsRead.get(i - 1), name + ": rows read never go back");
                }
                assertEquals(expected, replayed(checkpoints, tables), name + ": every checkpoint replayed");
                List<List<byte[][]>> prefix = checkpoints.subList(0, checkpoints.size() / 2);
                io.tributary.meta.ddl.RemoteViewAdoption.StagedState resume =
                        out -> prefix.forEach(g -> g.forEach(p -> out.accept(p[0], p[1])));
                try (ScratchViewBuild second = ScratchViewBuild.open(
                        Files.createTempDirectory(tmp, "scratch-"),
                        CalciteViewPlanner::new,
                        System.currentTimeMillis())) {
                    // as a retried attempt copies: only the rows after the checkpoint's positions
                    long copied = 0;
                    for (TableDef relation : List.of(t, d)) {
                        second.createRelation(relation);
                    }
                    SnapshotResume from = SnapshotResume.of(resume, second.sourceRelations(view));
                    for (TableDef relation : List.of(t, d)) {
                        List<byte[][]> rows = rowsAfter(db, relation.id(), from);
                        second.load(relation.id(), rows);
                        copied += rows.size();
                    }
                    long resumed = second.buildView(
                            view,
                            tables,
                            1,
                            resume,
                            BackfillRate.UNLIMITED,
                            (k, v, rows) -> assertTrue(
                                    rows >= rowsRead.get(prefix.size() - 1), name + ": rows read never go back"));
                    assertTrue(resumed > 0 && resumed < 200_000, name + ": resumed mid-way, at " + resumed);
                    assertEquals(
                            rowsRead.get(prefix.size() - 1),
                            resumed,
                            name + ": the resumed build starts at the rows its checkpoint reported");
                    assertEquals(
                            200_000 + 51 - resumed,
                            copied,
                            name + ": only the rows the checkpoint has not read are copied");
                    List<String> state = new ArrayList<>();
                    second.readState(name, tables, (k, v) -> state.add(hex(k, v)));
                    assertEquals(expected, state, name + ": resumed from checkpoint " + prefix.size());
                }
            }
        }
    }

    private static final io.tributary.meta.ddl.RemoteViewAdoption.StagedState NO_CHECKPOINT = out -> {};

    private ScratchViewBuild scratch(Database db, List<TableDef> relations) throws Exception {
        ScratchViewBuild build = ScratchViewBuild.open(
                Files.createTempDirectory(tmp, "scratch-"), CalciteViewPlanner::new, System.currentTimeMillis());
        for (TableDef relation : relations) {
            build.createRelation(relation);
            build.load(relation.id(), storedRows(db, relation.id()));
        }
        return build;
    }

    /** The stored rows of a relation that a build resumed at {@code from} still reads, as a worker copies them. */
    private static List<byte[][]> rowsAfter(Database db, int relation, SnapshotResume from) {
        List<byte[][]> rows = new ArrayList<>();
        try (ReadView view = db.store().latest();
                KvIterator it =
                        view.scan(Keyspace.DATA, TableKeys.tableStart(relation), TableKeys.tableEnd(relation))) {
            while (it.next()) {
                int vnode = TableKeys.vnodeOf(it.key());
                byte[] pk = TableKeys.pkOf(it.key());
                byte[] after = from.copyAfter(relation, vnode);
                if (from.copies(relation, vnode)
                        && (after == null || java.util.Arrays.compareUnsigned(pk, after) > 0)) {
                    rows.add(new byte[][] {it.value(), pk});
                }
            }
        }
        return rows;
    }

    /** The state tables' rows after applying every change of {@code checkpoints} in order, positions left out. */
    private static List<String> replayed(List<List<byte[][]>> checkpoints, int[] tables) {
        java.util.TreeMap<String, String> state = new java.util.TreeMap<>();
        for (List<byte[][]> group : checkpoints) {
            for (byte[][] p : group) {
                if (java.nio.ByteBuffer.wrap(p[0], 0, 4).getInt()
                        == io.tributary.meta.ddl.ViewSnapshotJob.POSITIONS_TABLE) {
                    continue;
                }
                String key = HexFormat.of().formatHex(p[0]);
                if (p[1] == null) {
                    state.remove(key);
                } else {
                    state.put(key, HexFormat.of().formatHex(p[1]));
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (int table : tables) {
            String prefix = HexFormat.of()
                    .formatHex(java.nio.ByteBuffer.allocate(4).putInt(table).array());
            state.forEach((k, v) -> {
                if (k.startsWith(prefix)) {
                    out.add(k + "=" + v);
                }
            });
        }
        return out;
    }

    private static int[] stateTables(TableDef view) {
        int[] state = view.stateTableIds();
        int[] out = new int[state.length + 1];
        out[0] = view.id();
        System.arraycopy(state, 0, out, 1, state.length);
        return out;
    }

    /** A relation's rows as the server stores them: {value, primary key}. */
    private static List<byte[][]> storedRows(Database db, int relation) {
        List<byte[][]> rows = new ArrayList<>();
        try (ReadView view = db.store().latest();
                KvIterator it =
                        view.scan(Keyspace.DATA, TableKeys.tableStart(relation), TableKeys.tableEnd(relation))) {
            while (it.next()) {
                rows.add(new byte[][] {it.value(), TableKeys.pkOf(it.key())});
            }
        }
        return rows;
    }

    private static List<String> serverState(Database db, int[] tables) {
        List<String> out = new ArrayList<>();
        try (ReadView view = db.store().latest()) {
            for (int table : tables) {
                try (KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(table), TableKeys.tableEnd(table))) {
                    while (it.next()) {
                        out.add(hex(it.key(), it.value()));
                    }
                }
            }
        }
        return out;
    }

    private static String hex(byte[] key, byte[] value) {
        return HexFormat.of().formatHex(key) + "=" + HexFormat.of().formatHex(value);
    }
}
