package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.SqlState;
import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Connectors;
import io.tributary.connector.Source;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SplitReader;
import io.tributary.connector.datagen.DatagenConnector;
import io.tributary.connector.files.FilesConnector;
import io.tributary.meta.Database;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source engine through SQL on a real server: restarts resume from the committed positions,
 * the rate limit pauses and survives restarts, a failing source stops alone with its error shown,
 * and DROP TABLE stops and destroys the source.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SourceEngineTest {
    private final AtomicInteger destroyed = new AtomicInteger();
    private Path dataDir;
    private Database db;
    private PgServer server;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        dataDir = Files.createTempDirectory("source-engine-");
        open();
    }

    private void open() throws SQLException {
        db = Database.open(
                dataDir,
                50,
                CalciteViewPlanner::new,
                new Connectors(
                        List.of(new DatagenConnector(), new FilesConnector(), new ScriptedConnector(destroyed))));
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("socketTimeout", "30");
        connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    private void close() throws SQLException {
        connection.close();
        server.close();
        db.close();
    }

    @AfterEach
    void stop() throws Exception {
        close();
        try (Stream<Path> walk = Files.walk(dataDir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private void exec(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    private long queryLong(String sql) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private long count(String table) {
        try {
            return queryLong("SELECT count(*) FROM " + table);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** How many committed keys state table {@code id} holds, read from a closed database's store. */
    private long keysOf(int id) throws Exception {
        close();
        long n = 0;
        try (StateStore store = RocksStateStore.open(dataDir.resolve("state"));
                ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(id), TableKeys.tableEnd(id))) {
            while (it.next()) {
                n++;
            }
        }
        open();
        return n;
    }

    /** Rows committed over all splits of {@code table}'s source (0 before it started). */
    private long ingested(String table) {
        return db.sources().progress().stream()
                .filter(p -> p.table().equals(table))
                .mapToLong(SourceManager.SplitProgress::rowsIngested)
                .sum();
    }

    private SourceManager.SplitProgress progress(String table, String split) {
        return db.sources().progress().stream()
                .filter(p -> p.table().equals(table) && p.split().equals(split))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no progress for " + table + "/" + split));
    }

    @Test
    void aRestartResumesEverySplitAfterItsCommittedPosition() throws Exception {
        exec("CREATE TABLE g (id BIGINT PRIMARY KEY, v INT) WITH (connector = 'datagen', fields.id.kind = 'sequence',"
                + " fields.id.end = '3000', datagen.rows.per.second = '300', datagen.split.num = '2')");
        exec("CREATE MATERIALIZED VIEW s AS SELECT count(*) AS c, sum(id) AS total FROM g");
        await("some rows", () -> ingested("g") > 150);
        // paused, so that the restart comes before the end however slowly a loaded machine closes
        exec("ALTER TABLE g SET SOURCE_RATE_LIMIT = 0");
        close();
        open();
        long before = ingested("g");
        assertTrue(before < 3000, "the restart came before the end: " + before);
        exec("ALTER TABLE g SET SOURCE_RATE_LIMIT = DEFAULT");
        await("every row", () -> count("g") == 3000);
        assertEquals(3000L * 3001 / 2, queryLong("SELECT sum(id) FROM g"));
        await("the view", () -> {
            try {
                return queryLong("SELECT total FROM s") == 3000L * 3001 / 2;
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(3000, queryLong("SELECT c FROM s"));
        await("durable counters", () -> ingested("g") == 3000);
        assertEquals("next sequence 3000", progress("g", "0").position());
        assertEquals("next sequence 3001", progress("g", "1").position());
        assertEquals("finished", progress("g", "1").phase());
    }

    /**
     * Many small epochs (50 ms) from two splits while {@code source_progress} is read in a tight
     * loop, with two threads burning CPU: in every row read, the position and the counts must belong
     * to the same committed epoch. Split s of 2 makes sequence numbers s, s + 2, ..., so after
     * {@code rows} committed rows its position is exactly {@code s + 2 * rows}.
     */
    @Test
    void sourceProgressShowsPositionAndCountOfTheSameEpoch() throws Exception {
        String read = "SELECT split, position, rows_ingested, phase FROM tributary_catalog.source_progress"
                + " WHERE table_name = 'g'";
        exec(read); // the first query compiles the planner's code; the loop below must read fast
        exec("CREATE TABLE g (id BIGINT PRIMARY KEY, v INT) WITH (connector = 'datagen', fields.id.kind = 'sequence',"
                + " fields.id.end = '40000', datagen.rows.per.second = '10000', datagen.split.num = '2')");
        AtomicBoolean burning = new AtomicBoolean(true);
        List<Thread> burners = Stream.generate(() -> new Thread(() -> {
                    long x = 0;
                    while (burning.get()) {
                        x += System.nanoTime() % 7;
                    }
                    if (x == 42) {
                        System.out.print("");
                    }
                }))
                .limit(2)
                .toList();
        burners.forEach(Thread::start);
        int reads = 0;
        int moving = 0;
        try (Statement st = connection.createStatement()) {
            long lastRows = -1;
            while (true) {
                long total = 0;
                boolean finished = true;
                // SQL reads and direct reads alternate: both must be consistent
                for (SourceManager.SplitProgress p : db.sources().progress()) {
                    checkAgreement(p.split(), p.position(), p.rowsIngested(), p.phase());
                    total += p.rowsIngested();
                    finished &= p.phase().equals("finished");
                }
                try (ResultSet rs = st.executeQuery(read)) {
                    while (rs.next()) {
                        checkAgreement(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4));
                    }
                }
                reads++;
                if (total != lastRows) {
                    moving++;
                    lastRows = total;
                }
                if (finished) {
                    assertEquals(40_000, total, "every row is committed once both splits show finished");
                    break;
                }
            }
        } finally {
            burning.set(false);
            for (Thread t : burners) {
                t.join();
            }
        }
        System.out.println("source_progress read " + reads + " times, " + moving + " distinct totals");
        assertTrue(moving > 10, "the loop saw the counts move only " + moving + " times in " + reads + " reads");
        assertEquals(40_000, count("g"));
    }

    private static void checkAgreement(String split, String position, long rows, String phase) {
        if (position.isEmpty()) {
            assertEquals(0, rows, "split " + split + " shows rows but no position");
            return;
        }
        long expected = Long.parseLong(split) + 2 * rows;
        assertEquals(
                "next sequence " + expected,
                position,
                "split " + split + " with " + rows + " committed rows (phase " + phase + ")");
    }

    @Test
    void aRateLimitOfZeroPausesTheSourceAcrossRestarts() throws Exception {
        exec("CREATE TABLE g (id BIGINT PRIMARY KEY) WITH (connector = 'datagen', fields.id.kind = 'sequence',"
                + " datagen.rows.per.second = '100000', datagen.split.num = '3')");
        await("some rows", () -> ingested("g") > 0);
        exec("ALTER TABLE g SET SOURCE_RATE_LIMIT = 0");
        // a batch granted before the ALTER may still land, later on a loaded machine; after that nothing
        await("the pause", () -> {
            try {
                long a = count("g");
                Thread.sleep(500);
                return count("g") == a;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        long paused = count("g");
        Thread.sleep(500);
        assertEquals(paused, count("g"));
        assertEquals("paused", progress("g", "2").phase());
        close();
        open();
        Thread.sleep(500);
        assertEquals(paused, count("g"), "still paused after the restart");
        long start = System.nanoTime();
        exec("ALTER TABLE g SET SOURCE_RATE_LIMIT = 200");
        await("rows at 200/s", () -> ingested("g") >= paused + 100);
        double seconds = (System.nanoTime() - start) / 1e9;
        // at most a fifth of a second's burst (40 rows) comes at once, the other 60 take 0.3 s
        assertTrue(seconds >= 0.3, "100 rows at 200 rows/s took only " + seconds + " s");
        exec("ALTER TABLE g SET SOURCE_RATE_LIMIT = DEFAULT");
        long now = ingested("g");
        await("the unlimited rate", () -> ingested("g") > now + 20_000);
    }

    @Test
    void aFailingSourceStopsAloneAndShowsItsError() throws Exception {
        exec("CREATE TABLE bad (id INT PRIMARY KEY) WITH (connector = 'scripted', rows = '1000', fail.after = '50')");
        exec("CREATE TABLE good (id BIGINT PRIMARY KEY) WITH (connector = 'datagen', fields.id.kind = 'sequence',"
                + " fields.id.end = '500', datagen.rows.per.second = '100000')");
        await("the failure", () -> progress("bad", "only").phase().equals("failed"));
        assertEquals("row 50 is broken", progress("bad", "only").lastError());
        // the rows staged before the failure commit with their epoch
        await("the rows before the failure", () -> progress("bad", "only").rowsIngested() == 50);
        assertEquals(50, count("bad"));
        await("the other source", () -> count("good") == 500);
        exec("CREATE TABLE plain (a INT)");
        exec("INSERT INTO plain VALUES (1)");
        assertEquals(1, count("plain"));
        // the scripted source takes DML
        exec("INSERT INTO bad VALUES (-1)");
        assertEquals(51, count("bad"));
    }

    @Test
    void dropTableStopsAndDestroysTheSourceAndRemovesItsPositions() throws Exception {
        exec("CREATE TABLE s (id INT PRIMARY KEY) WITH (connector = 'scripted', rows = '1000000')");
        await("rows", () -> ingested("s") > 10);
        int positionsTable = db.catalog().require("s").source().positionsTableId();
        assertTrue(keysOf(positionsTable) > 0, "the split's position is stored");
        exec("DROP TABLE s");
        assertEquals(1, destroyed.get());
        assertTrue(db.sources().progress().isEmpty());
        assertEquals(0, keysOf(positionsTable), "the position went with the table");
        exec("CREATE TABLE s (id INT PRIMARY KEY) WITH (connector = 'scripted', rows = '5')");
        await("the new table's rows", () -> count("s") == 5);
        assertEquals(5, progress("s", "only").rowsIngested(), "the new table starts from the beginning");
    }

    @Test
    void aFailedOpenStoresNothing() throws Exception {
        SQLException e = assertThrows(
                SQLException.class,
                () -> exec("CREATE TABLE s (id INT PRIMARY KEY) WITH (connector = 'scripted', rows = 'many')"));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.getSQLState());
        assertEquals(
                SqlState.UNDEFINED_TABLE,
                assertThrows(SQLException.class, () -> queryLong("SELECT count(*) FROM s"))
                        .getSQLState());
        assertTrue(db.sources().progress().isEmpty());
    }

    @Test
    void skippedInputShowsInTheSystemTables() throws Exception {
        Path dir = Files.createDirectories(dataDir.resolve("input"));
        Files.writeString(dir.resolve("a.csv"), "1,one\nnot a number,two\n3,three\n");
        exec("CREATE TABLE f (id INT PRIMARY KEY, name TEXT) WITH (connector = 'files', path = '" + dir
                + "') FORMAT PLAIN ENCODE CSV (without_header = 'true')");
        await("the good rows", () -> ingested("f") == 2);
        try (Statement st = connection.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT table_name, location, reason FROM tributary_catalog.source_errors")) {
            assertTrue(rs.next());
            assertEquals("f", rs.getString(1));
            assertTrue(rs.getString(2).contains("a.csv"), rs.getString(2));
            assertTrue(!rs.getString(3).isEmpty());
        }
        assertEquals(
                1,
                queryLong("SELECT sum(skipped_inputs) FROM tributary_catalog.source_progress"
                        + " WHERE table_name = 'f'"));
        assertEquals(
                2,
                queryLong("SELECT sum(rows_ingested) FROM tributary_catalog.source_progress"
                        + " WHERE table_name = 'f'"));
        assertEquals(4, queryLong("SELECT sum(id) FROM f"));
    }

    /**
     * A connector that makes rows {@code 1..rows} in one split {@code only} (position: the next
     * row), fails at row {@code fail.after} if given, takes DML and counts destroys.
     */
    private static final class ScriptedConnector implements SourceConnector {
        private final AtomicInteger destroyed;

        ScriptedConnector(AtomicInteger destroyed) {
            this.destroyed = destroyed;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public List<String> options() {
            return List.of("rows", "fail.after");
        }

        @Override
        public Source open(SourceContext context) {
            int rows;
            try {
                rows = Integer.parseInt(context.options().get("rows"));
            } catch (NumberFormatException e) {
                throw new ConnectorException(SqlState.INVALID_PARAMETER_VALUE, "rows must be a number");
            }
            int failAfter = Integer.parseInt(context.options().getOrDefault("fail.after", "-1"));
            if (!context.columns().get(0).type().equals(DataType.INTEGER)) {
                throw new ConnectorException(SqlState.INVALID_PARAMETER_VALUE, "one INT column");
            }
            return new Source() {

                @Override
                public List<String> splits() {
                    return List.of("only");
                }

                @Override
                public SplitReader reader(String split, byte[] position) {
                    return new Reader(
                            position == null ? 1 : ByteBuffer.wrap(position).getInt(), rows, failAfter);
                }

                @Override
                public boolean acceptsDml() {
                    return true;
                }

                @Override
                public void destroy() {
                    destroyed.incrementAndGet();
                }
            };
        }
    }

    private static final class Reader implements SplitReader {
        private final int rows;
        private final int failAfter;
        private int next;

        Reader(int next, int rows, int failAfter) {
            this.next = next;
            this.rows = rows;
            this.failAfter = failAfter;
        }

        @Override
        public SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException {
            if (failAfter >= 0 && next > failAfter) {
                throw new ConnectorException(SqlState.DATA_EXCEPTION, "row " + failAfter + " is broken");
            }
            int last = Math.min(rows, Math.min(next + Math.min(maxRows, 10) - 1, failAfter >= 0 ? failAfter : rows));
            if (last < next) {
                Thread.sleep(maxWaitMillis);
                return SourceBatch.EMPTY;
            }
            List<SourceChange> out = new java.util.ArrayList<>();
            for (; next <= last; next++) {
                out.add(SourceChange.insert(new Object[] {next}));
            }
            Thread.sleep(1);
            return new SourceBatch(out, List.of());
        }

        @Override
        public byte[] position() {
            return ByteBuffer.allocate(4).putInt(next).array();
        }

        @Override
        public String describe(byte[] position) {
            return "next row " + ByteBuffer.wrap(position).getInt();
        }
    }
}
