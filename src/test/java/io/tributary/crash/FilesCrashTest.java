package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once ingestion of CSV files under {@code kill -9}: two tables, one without a primary key
 * (a line read twice would be a second row) and one keyed, read the same directory, each with an
 * aggregation view. The first file is there before CREATE TABLE; a writer in the test then appends
 * the others line by line (some lines in two writes, so a half-written line is on disk when the
 * source looks), also while the server is down; a few lines are malformed. The server is killed
 * twice while rows arrive. In the end each table holds every well-formed line exactly once with
 * its content, the malformed lines are counted as skipped exactly once and are not in the table,
 * and each view equals its query. Rerun a seed with {@code -Dfilescrash.seed=N}.
 */
class FilesCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int FILES = 5;
    private static final int LINES_PER_FILE = 3000;
    private static final int LINES = FILES * LINES_PER_FILE;
    private static final int LINES_PER_WRITE = 40;
    private static final long WRITE_PAUSE_MS = 30;
    private static final int KILLS = 2;
    private static final List<String> TABLES = List.of("appended", "keyed");
    private static final String VIEW_QUERY =
            "SELECT g, count(*) AS c, sum(id) AS s, sum(v) AS sv, count(name) AS n" + " FROM %s GROUP BY g";

    @TempDir
    Path dataDir;

    @TempDir
    Path input;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    /** Line {@code id} (1-based over all files) is malformed: a bad number or a missing field. */
    private static boolean malformed(int id) {
        return id % 1000 == 500;
    }

    private static int g(int id) {
        return id % 10;
    }

    private static int v(int id) {
        return id * 7919 % 2001 - 1000;
    }

    /** The name column's value: mostly plain, some with quotes and the delimiter, some NULL or empty. */
    private static String name(int id) {
        if (id % 11 == 0) {
            return null;
        }
        if (id % 13 == 0) {
            return "";
        }
        return id % 7 == 0 ? "a, \"q\" " + id : "n" + id;
    }

    /** The CSV line of row {@code id}, with its newline; the header is {@code name,id,v,g}. */
    private static String line(int id) {
        String name = name(id);
        String field = name == null
                ? ""
                : name.isEmpty() || name.contains(",") ? '"' + name.replace("\"", "\"\"") + '"' : name;
        if (!malformed(id)) {
            return field + "," + id + "," + v(id) + "," + g(id) + "\n";
        }
        return id % 2000 == 500
                ? field + ",x" + id + "," + v(id) + "," + g(id) + "\n"
                : field + "," + id + "," + v(id) + "\n";
    }

    private static String fileName(int file) {
        return "part-" + file + ".csv";
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes files 1.. a few lines at a time, cutting some writes inside a line. */
    private void writeRest(Random random) {
        for (int file = 1; file < FILES; file++) {
            Path path = input.resolve(fileName(file));
            append(path, "name,id,v,g\n");
            StringBuilder pending = new StringBuilder();
            for (int i = 0; i < LINES_PER_FILE; i += LINES_PER_WRITE) {
                for (int id = file * LINES_PER_FILE + i + 1; id <= file * LINES_PER_FILE + i + LINES_PER_WRITE; id++) {
                    pending.append(line(id));
                }
                int cut = random.nextBoolean() ? pending.length() : pending.length() - 1 - random.nextInt(5);
                append(path, pending.substring(0, cut));
                pending.delete(0, cut);
                try {
                    Thread.sleep(WRITE_PAUSE_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            append(path, pending.toString());
        }
    }

    @Test
    void everyWellFormedLineLandsExactlyOnceThroughKill9() throws Exception {
        long seed = Long.getLong("filescrash.seed", System.nanoTime());
        System.out.println("files crash seed " + seed);
        Random random = new Random(seed);
        StringBuilder first = new StringBuilder("name,id,v,g\n");
        for (int id = 1; id <= LINES_PER_FILE; id++) {
            first.append(line(id));
        }
        append(input.resolve(fileName(0)), first.toString());

        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            for (String table : TABLES) {
                String key = table.equals("keyed") ? " PRIMARY KEY" : "";
                st.execute("CREATE TABLE " + table + " (id BIGINT" + key + ", g INT, v INT, name TEXT)"
                        + " WITH (connector = 'files', path = '" + input
                        + "', match_pattern = 'part-*.csv', on_error = 'skip')"
                        + " FORMAT PLAIN ENCODE CSV (without_header = 'false')");
                st.execute("CREATE MATERIALIZED VIEW " + table + "_agg AS " + VIEW_QUERY.formatted(table));
            }
        }
        Random writerRandom = new Random(seed + 1);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> writeRest(writerRandom));
        List<String> expected = new ArrayList<>();
        Set<String> malformedAt = new HashSet<>();
        for (int id = 1; id <= LINES; id++) {
            if (malformed(id)) {
                // line 1 of each file is its header
                malformedAt.add(fileName((id - 1) / LINES_PER_FILE) + ":" + ((id - 1) % LINES_PER_FILE + 2));
            } else {
                expected.add(id + "|" + g(id) + "|" + v(id) + "|" + name(id));
            }
        }
        expected.sort(null);

        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing("SELECT count(*) FROM appended", expected.size(), 500, random);
            System.out.printf("  kill %d: %d of %d rows seen before%n", kill, seen, expected.size());
            servers.start(dataDir);
        }
        writer.get(60, TimeUnit.SECONDS);

        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (!TABLES.stream().allMatch(t -> caughtUp(st, t, expected.size(), malformedAt.size()))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            for (String table : TABLES) {
                List<String> rows = Sql.rows(st, "SELECT id, g, v, name FROM " + table);
                assertEquals(expected.size(), rows.size(), table + ": rows (seed " + seed + ")");
                assertEquals(expected, rows, table + ": every well-formed line once (seed " + seed + ")");
                assertEquals(
                        malformedAt.size(),
                        skipped(st, table),
                        table + ": skipped lines counted once (seed " + seed + ")");
                for (String location : Sql.rows(
                        st,
                        "SELECT location FROM tributary_catalog.source_errors" + " WHERE table_name = '" + table
                                + "'")) {
                    assertTrue(malformedAt.contains(location), table + ": " + location + " is not a malformed line");
                }
                assertEquals(
                        Sql.rows(st, VIEW_QUERY.formatted(table)),
                        Sql.rows(st, "SELECT * FROM " + table + "_agg"),
                        table + "_agg equals its query (seed " + seed + ")");
            }
        }
    }

    private static boolean caughtUp(Statement st, String table, long rows, long skipped) {
        try {
            return Sql.scalar(st, "SELECT count(*) FROM " + table) >= rows && skipped(st, table) >= skipped;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static long skipped(Statement st, String table) throws SQLException {
        return Sql.scalar(
                st,
                "SELECT sum(skipped_inputs) FROM tributary_catalog.source_progress" + " WHERE table_name = '" + table
                        + "'");
    }
}
