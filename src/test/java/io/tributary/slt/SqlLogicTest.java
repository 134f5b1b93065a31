package io.tributary.slt;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code .slt} file under {@code src/test/resources/slt} (see {@link SltRunner} for the format), each
 * against a fresh database and server. Files under {@code known_deviations/} record where Tributary still differs
 * from PostgreSQL and run only with {@code -Dslt.all=true}. {@code -Dslt.only=views/} runs only the files whose path
 * under {@code slt/} starts with that prefix.
 */
class SqlLogicTest {
    private static final String KNOWN_DEVIATIONS = "known_deviations";

    @TestFactory
    Stream<DynamicTest> sqlLogicTests() throws IOException, URISyntaxException {
        URL root = SqlLogicTest.class.getResource("/slt");
        if (root == null) {
            throw new IllegalStateException("no slt directory on the test classpath");
        }
        Path dir = Path.of(root.toURI());
        boolean all = Boolean.getBoolean("slt.all");
        String only = System.getProperty("slt.only", "");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".slt"))
                    .filter(p -> all || !dir.relativize(p).startsWith(KNOWN_DEVIATIONS))
                    .filter(p -> dir.relativize(p).toString().replace('\\', '/').startsWith(only))
                    .sorted(Comparator.comparing(p -> dir.relativize(p).toString()))
                    .toList();
        }
        return files.stream().map(p -> {
            String name = dir.relativize(p).toString().replace('\\', '/');
            return DynamicTest.dynamicTest(name, p.toUri(), () -> runFile(name, p));
        });
    }

    private static void runFile(String name, Path file) throws Exception {
        List<SltRecord> records =
                SltParser.parse(name, Files.readAllLines(file, StandardCharsets.UTF_8), SltRunner.ENGINE);
        Path dataDir = Files.createTempDirectory("slt-");
        try {
            try (Database db = Database.open(dataDir, 50, CalciteViewPlanner::new);
                    PgServer server = startServer(db);
                    Connection connection = connect(server.port())) {
                new SltRunner(connection, name).run(records);
            }
        } finally {
            deleteRecursively(dataDir);
        }
    }

    private static PgServer startServer(Database db) {
        PgServer server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        return server;
    }

    private static Connection connect(int port) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "30");
        Connection connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/dev", props);
        connection.setAutoCommit(true);
        return connection;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
