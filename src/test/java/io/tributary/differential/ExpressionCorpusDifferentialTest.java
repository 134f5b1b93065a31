package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@link ExpressionCorpus} (over 600 statements on operators, functions, casts, precedence
 * and overflow) run on Tributary and on an embedded PostgreSQL with the same table: each
 * statement's rows (as {@code getString} texts, with column labels) or SQLSTATE must be the same.
 * Nothing is normalized.
 *
 * <p>Statements where Tributary still differs are listed, one per line, in
 * {@code src/test/resources/differential/expression_deviations.txt} (the known deviations, also
 * summarized in README's known limits). The test fails when a statement outside that list differs,
 * and also when a listed one now agrees, so the list only shrinks. No statement may fail with
 * XX000 on Tributary, listed or not. {@code -Dcorpus.record=true} rewrites the list from a run;
 * {@code -Dcorpus.report=FILE} writes both outcomes of every differing statement to FILE.
 */
class ExpressionCorpusDifferentialTest {
    private static final Path DEVIATIONS = Path.of("src/test/resources/differential/expression_deviations.txt");

    private static EmbeddedPostgres postgres;
    private static Path dataDir;
    private static Database db;
    private static PgServer server;
    private static Connection pg;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder()
                .setLocaleConfig("locale", "C")
                .setLocaleConfig("encoding", "UTF8")
                .start();
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE dev");
        }
        dataDir = Files.createTempDirectory("expr-diff-");
        db = Database.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        pg = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/dev", "postgres", "");
        trib = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", "postgres", "");
        for (Connection c : List.of(pg, trib)) {
            try (Statement s = c.createStatement()) {
                for (String sql : ExpressionCorpus.SETUP) {
                    s.execute(sql);
                }
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        Cleanup.closeAll(trib, pg, server, db, postgres);
        Cleanup.deleteTree(dataDir);
    }

    @Test
    void answersLikePostgresOutsideKnownDeviations() throws Exception {
        List<String> statements = ExpressionCorpus.statements();
        assertTrue(statements.size() >= 600, "corpus has " + statements.size() + " statements");
        Set<String> known = new LinkedHashSet<>(Files.readAllLines(DEVIATIONS, StandardCharsets.UTF_8));
        known.remove("");
        List<String> differing = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        List<String> internal = new ArrayList<>();
        List<String> report = new ArrayList<>();
        for (String sql : statements) {
            String expected = outcome(pg, sql);
            String actual = outcome(trib, sql);
            if (actual.startsWith("ERROR XX000")) {
                internal.add(sql);
            }
            if (!expected.equals(actual)) {
                differing.add(sql);
                report.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
                if (!known.contains(sql)) {
                    unexpected.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
                }
            }
        }
        if (Boolean.getBoolean("corpus.record")) {
            Files.write(DEVIATIONS, differing, StandardCharsets.UTF_8);
        }
        String reportFile = System.getProperty("corpus.report");
        if (reportFile != null) {
            Files.write(Path.of(reportFile), report, StandardCharsets.UTF_8);
        }
        List<String> nowAgreeing =
                known.stream().filter(s -> !differing.contains(s)).toList();
        assertEquals(List.of(), internal, "internal errors");
        assertEquals(List.of(), unexpected, "new deviations");
        assertEquals(List.of(), nowAgreeing, "listed deviations that now agree: remove them from " + DEVIATIONS);
    }

    /** Column labels and rows as texts, or {@code ERROR <sqlstate>}. */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                labels.add(rs.getMetaData().getColumnLabel(i));
            }
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row.toString());
            }
            return labels + " " + rows;
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }
}
