package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Restoring plain-format dumps into Tributary with real psql: real {@code pg_dump} (PostgreSQL 15's
 * client) dumps an embedded PostgreSQL database, and then a Tributary database; psql runs each
 * script against an empty Tributary (the second after the first's tables are dropped). Every table's rows (loaded by the dump's {@code COPY ...
 * FROM stdin}) must then read as in the source, and each statement Tributary refuses must fail with
 * 0A000 naming the feature (never 42601 or 42704); the one follow-on error allowed is 42P01 from
 * the {@code setval} of a sequence whose CREATE SEQUENCE was refused. Skipped without the client
 * programs.
 */
class PgDumpIntoTributaryTest {
    private static final String PG_DUMP = "/usr/bin/pg_dump";
    private static final String PSQL = "/usr/bin/psql";
    private static final String USER = "postgres";

    private static final List<String> SETUP = List.of(
            "CREATE TABLE plain (a INT, b TEXT, c NUMERIC(10,2), d DATE, e TIMESTAMP, f BOOLEAN, g BYTEA,"
                    + " h DOUBLE PRECISION, i BIGINT NOT NULL DEFAULT 7)",
            "CREATE TABLE keyed (id INT PRIMARY KEY, v VARCHAR(20))",
            "CREATE TABLE ser (id SERIAL PRIMARY KEY, v TEXT)",
            "INSERT INTO plain VALUES (1, 'tab\tand \\ backslash', 3.25, '2024-01-02', '2024-01-02 03:04:05.25',"
                    + " true, '\\xdeadbeef'::bytea, 1.5, 1),"
                    + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2), (3, 'line\nbreak', -99999999.99,"
                    + " '1999-12-31', '1999-12-31 23:59:59', false, ''::bytea, -0.125, 3)",
            "INSERT INTO keyed VALUES (1, 'one'), (2, NULL), (3, '')",
            "INSERT INTO ser (v) VALUES ('p'), ('q'), (NULL)");

    private static final List<String> CHECKS = List.of(
            "SELECT * FROM plain ORDER BY i", "SELECT * FROM keyed ORDER BY id", "SELECT * FROM ser ORDER BY id");

    /** An error as psql prints it with VERBOSITY verbose: {@code ERROR:  0A000: message}. */
    private static final Pattern ERROR = Pattern.compile("ERROR:  ([0-9A-Z]{5}): (.*)");

    private static Connection pg;
    private static InProcessTributary tributary;
    private static InProcessTributary target;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("pgdump-into-", 20, USER, "", 60);
        for (Connection c : List.of(pg, tributary.connection)) {
            try (Statement s = c.createStatement()) {
                for (String sql : SETUP) {
                    s.execute(sql);
                }
            }
        }
        target = InProcessTributary.temporary("pgdump-target-", 20, USER, "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary, target);
    }

    @Test
    void postgresAndTributaryDumpsRestoreTablesIntoTributary() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PG_DUMP)) && Files.isExecutable(Path.of(PSQL)), "no pg_dump/psql");
        restore(DifferentialPostgres.port());
        compare(pg);
        try (Statement s = target.connection.createStatement()) {
            s.execute("DROP TABLE plain, keyed, ser");
        }
        restore(tributary.port());
        compare(tributary.connection);
    }

    /** Dumps database {@code dev} of the server on {@code port} and runs the script on {@link #target}. */
    private static void restore(int port) throws Exception {
        Path dump = Files.createTempFile("dump-into-", ".sql");
        try {
            run(
                    PG_DUMP,
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(port),
                    "-U",
                    USER,
                    "--no-owner",
                    "-f",
                    dump.toString(),
                    "dev");
            String out = run(
                    PSQL,
                    "-X",
                    "-q",
                    "-v",
                    "VERBOSITY=verbose",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(target.port()),
                    "-U",
                    USER,
                    "-d",
                    "dev",
                    "-f",
                    dump.toString());
            List<String> wrong = new ArrayList<>();
            int refused = 0;
            Matcher m = ERROR.matcher(out);
            while (m.find()) {
                boolean followOn = m.group(1).equals("42P01") && m.group(2).contains("_seq\"");
                if (m.group(1).equals("0A000")) {
                    refused++;
                } else if (!followOn) {
                    wrong.add(m.group());
                }
            }
            assertEquals(List.of(), wrong, out);
            // CREATE SEQUENCE, ALTER SEQUENCE ... OWNED BY, the SET DEFAULT and the primary keys
            assertTrue(refused >= 4, out);
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    private static void compare(Connection source) {
        for (String sql : CHECKS) {
            assertEquals(
                    StatementOutcome.of(source, sql, true), StatementOutcome.of(target.connection, sql, true), sql);
        }
    }

    /** Runs a client program to its end; returns what it printed (both streams). */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command[0] + " did not finish");
        }
        assertEquals(0, p.exitValue(), command[0] + " failed:\n" + out);
        return out;
    }
}
