package io.tributary.differential;

import static io.tributary.differential.BlockSteps.VIEW;
import static io.tributary.differential.BlockSteps.a;
import static io.tributary.differential.BlockSteps.b;
import static io.tributary.differential.BlockSteps.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * SAVEPOINT, RELEASE and ROLLBACK TO against embedded PostgreSQL: the same steps on both servers
 * (session A runs the blocks, B looks from outside), and after each its outcome (rows, count or
 * error with message), the transaction state ReadyForQuery reported, and a materialized view over
 * the table compared with PostgreSQL's answer to its query. Then pgjdbc's own savepoint calls and
 * its {@code autosave} modes, which wrap each statement of a block in a savepoint.
 */
class SavepointDifferentialTest {
    private static final ComparedOutcomes OUTCOMES = new ComparedOutcomes(true, false);
    private static final String VIEW_QUERY =
            "SELECT owner, sum(balance) AS total, count(*) AS n FROM acct GROUP BY owner";

    private static PostgresPair pair;
    private static Connection pgOther;
    private static Connection tributaryOther;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("savepoint-diff");
        pgOther = DifferentialPostgres.connectDev();
        tributaryOther = pair.tributary.connect("postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pgOther, tributaryOther, pair);
    }

    private static final BlockSteps.Step ROWS = a("SELECT * FROM acct ORDER BY id");

    @Test
    void savepointsLikePostgres() throws SQLException {
        List<BlockSteps.Step> steps = List.of(
                a("CREATE TABLE acct (id INT PRIMARY KEY, owner TEXT NOT NULL, balance INT CHECK (balance >= 0))"),
                a("INSERT INTO acct VALUES (1, 'ann', 100), (2, 'bob', 50)"),
                new BlockSteps.Step('M', "CREATE MATERIALIZED VIEW acct_totals AS " + VIEW_QUERY),
                VIEW,
                // outside a block
                a("SAVEPOINT s"),
                a("RELEASE SAVEPOINT s"),
                a("RELEASE s"),
                a("ROLLBACK TO SAVEPOINT s"),
                a("ROLLBACK TO s"),
                // the writes after the savepoint go, those before stay; reads see the difference
                a("BEGIN"),
                a("INSERT INTO acct VALUES (3, 'cy', 10)"),
                a("SAVEPOINT s1"),
                a("INSERT INTO acct VALUES (4, 'dee', 4)"),
                a("UPDATE acct SET balance = balance - 10 WHERE id = 1"),
                a("DELETE FROM acct WHERE id = 3"),
                ROWS,
                a("ROLLBACK TO SAVEPOINT s1"),
                ROWS,
                a("SELECT * FROM acct WHERE id = 4"),
                a("SELECT * FROM acct WHERE id = 3"),
                a("INSERT INTO acct VALUES (4, 'dee', 5)"),
                a("ROLLBACK TO s1"),
                a("INSERT INTO acct VALUES (4, 'dee', 6)"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // ROLLBACK TO out of a failed block
                a("BEGIN"),
                a("UPDATE acct SET balance = 1 WHERE id = 2"),
                a("SAVEPOINT a"),
                a("INSERT INTO acct VALUES (5, 'eve', 5)"),
                a("INSERT INTO acct VALUES (1, 'dup', 1)"),
                a("SELECT 1"),
                a("SAVEPOINT b"),
                a("RELEASE a"),
                a("ROLLBACK TO nosuch"),
                a("SELECT 1"),
                a("ROLLBACK TO a"),
                ROWS,
                a("INSERT INTO acct VALUES (5, 'eve', 7)"),
                a("UPDATE acct SET balance = balance - 1000 WHERE id = 1"),
                a("ROLLBACK TO SAVEPOINT a"),
                a("ROLLBACK TO SAVEPOINT a"),
                ROWS,
                a("COMMIT"),
                ROWS,
                VIEW,
                // nested savepoints; a re-used name means the newest
                a("BEGIN"),
                a("SAVEPOINT x"),
                a("INSERT INTO acct VALUES (6, 'fay', 6)"),
                a("SAVEPOINT y"),
                a("INSERT INTO acct VALUES (7, 'gus', 7)"),
                a("SAVEPOINT x"),
                a("DELETE FROM acct WHERE id = 6"),
                a("UPDATE acct SET owner = 'gus2' WHERE id = 7"),
                ROWS,
                a("ROLLBACK TO x"),
                ROWS,
                a("ROLLBACK TO y"),
                ROWS,
                a("ROLLBACK TO x"),
                ROWS,
                a("INSERT INTO acct VALUES (6, 'fay', 60)"),
                a("RELEASE x"),
                ROWS,
                a("ROLLBACK TO y"),
                a("ROLLBACK"),
                ROWS,
                // RELEASE keeps the writes and forgets the later savepoints
                a("BEGIN"),
                a("SAVEPOINT p"),
                a("INSERT INTO acct VALUES (8, 'hal', 8)"),
                a("SAVEPOINT q"),
                a("UPDATE acct SET balance = 9 WHERE id = 8"),
                a("RELEASE SAVEPOINT p"),
                ROWS,
                a("ROLLBACK TO q"),
                a("ROLLBACK"),
                ROWS,
                a("BEGIN"),
                a("SAVEPOINT p"),
                a("INSERT INTO acct VALUES (8, 'hal', 8)"),
                a("SAVEPOINT q"),
                a("UPDATE acct SET balance = 9 WHERE id = 8"),
                a("RELEASE q"),
                a("SAVEPOINT r"),
                a("UPDATE acct SET balance = 10 WHERE id = 8"),
                a("ROLLBACK TO r"),
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // a savepoint before the block's first read; inserted-then-deleted rows and moved keys
                a("BEGIN"),
                a("SAVEPOINT first"),
                a("INSERT INTO acct VALUES (9, 'ivy', 9)"),
                a("DELETE FROM acct WHERE id = 9"),
                a("UPDATE acct SET id = id + 100 WHERE id = 1"),
                ROWS,
                a("ROLLBACK TO first"),
                ROWS,
                a("UPDATE acct SET balance = balance + 1"),
                a("SAVEPOINT second"),
                a("INSERT INTO acct VALUES (10, NULL, 10)"),
                a("ROLLBACK TO second"),
                a("INSERT INTO acct VALUES (9, 'ivy', 90)"),
                a("SAVEPOINT third"),
                a("DELETE FROM acct WHERE id = 9"),
                a("ROLLBACK TO third"),
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // everything rolled back to the first savepoint: the commit applies nothing
                a("BEGIN"),
                a("SAVEPOINT z"),
                a("INSERT INTO acct VALUES (11, 'jon', 11)"),
                a("DELETE FROM acct WHERE id = 2"),
                a("ROLLBACK TO z"),
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // names are identifiers: quoted ones keep their case
                a("BEGIN"),
                a("SAVEPOINT \"Mixed\""),
                a("INSERT INTO acct VALUES (12, 'kim', 12)"),
                a("RELEASE mixed"),
                a("ROLLBACK TO \"Mixed\""),
                a("RELEASE \"Mixed\""),
                a("ROLLBACK WORK TO SAVEPOINT \"Mixed\""),
                a("ROLLBACK"),
                a("BEGIN"),
                a("SAVEPOINT Up"),
                a("INSERT INTO acct VALUES (13, 'lee', 13)"),
                a("ROLLBACK TRANSACTION TO up"),
                a("INSERT INTO acct VALUES (14, 'max', 14)"),
                a("COMMIT"),
                // several statements in one simple query
                a("BEGIN; INSERT INTO acct VALUES (15, 'ned', 15); SAVEPOINT m;"
                        + " INSERT INTO acct VALUES (16, 'ola', 16); ROLLBACK TO m; COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // a COMMIT after an error past a savepoint rolls back all of it
                a("BEGIN"),
                a("INSERT INTO acct VALUES (17, 'pat', 17)"),
                a("SAVEPOINT e"),
                a("INSERT INTO acct VALUES (17, 'pat', 18)"),
                a("COMMIT"),
                ROWS,
                VIEW);
        assertEquals(List.of(), steps().mismatches(steps), "savepoint steps that differ from PostgreSQL");
    }

    /** pgjdbc's Connection.setSavepoint, rollback(Savepoint) and releaseSavepoint, with COPY between. */
    @Test
    void jdbcSavepointsLikePostgres() throws Exception {
        for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
            OUTCOMES.of(c, "CREATE TABLE js (id BIGINT PRIMARY KEY, name TEXT)");
        }
        List<String> outcomes = new ArrayList<>();
        for (Connection[] sessions : List.of(
                new Connection[] {pair.pg, pgOther}, new Connection[] {pair.tributary.connection, tributaryOther})) {
            outcomes.add(jdbcSavepoints(sessions[0], sessions[1]));
        }
        assertEquals(outcomes.get(0), outcomes.get(1), "pgjdbc savepoints: postgres first, tributary second");
    }

    private static String jdbcSavepoints(Connection c, Connection other) throws Exception {
        StringBuilder out = new StringBuilder();
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO js VALUES (?, ?)")) {
            insert(insert, 1, "one");
            Savepoint unnamed = c.setSavepoint();
            insert(insert, 2, "two");
            Savepoint named = c.setSavepoint("after two");
            long copied = c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY js FROM STDIN", new StringReader("3\tthree\n4\tfour\n"));
            out.append(copied)
                    .append(OUTCOMES.of(c, "SELECT * FROM js ORDER BY id"))
                    .append('\n');
            c.rollback(named);
            out.append(OUTCOMES.of(c, "SELECT * FROM js ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            try {
                insert(insert, 1, "again");
            } catch (SQLException e) {
                out.append(e.getSQLState()).append(state(c)).append('\n');
            }
            c.rollback(unnamed);
            out.append(OUTCOMES.of(c, "SELECT * FROM js ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            Savepoint last = c.setSavepoint("last");
            insert(insert, 5, "five");
            c.releaseSavepoint(last);
            out.append(OUTCOMES.of(other, "SELECT count(*) FROM js")).append('\n');
            c.commit();
            out.append(OUTCOMES.of(other, "SELECT * FROM js ORDER BY id"))
                    .append(state(c))
                    .append('\n');
        } finally {
            c.setAutoCommit(true);
        }
        return out.toString();
    }

    /** pgjdbc with autocommit off and autosave: a failed statement does not abort the block. */
    @Test
    void autosaveLikePostgres() throws Exception {
        for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
            OUTCOMES.of(c, "CREATE TABLE ja (id BIGINT PRIMARY KEY, name TEXT NOT NULL)");
        }
        for (String mode :
                List.of("?autosave=always", "?autosave=always&cleanupSavepoints=true", "?autosave=conservative")) {
            for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
                OUTCOMES.of(c, "DELETE FROM ja");
            }
            List<String> outcomes = new ArrayList<>();
            try (Connection pg = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + DifferentialPostgres.port() + "/dev" + mode,
                            "postgres",
                            "");
                    Connection tributary = pair.tributary.connect("postgres", mode, 60)) {
                outcomes.add(autosaveScript(pg, pgOther));
                outcomes.add(autosaveScript(tributary, tributaryOther));
            }
            assertEquals(outcomes.get(0), outcomes.get(1), mode + ": postgres first, tributary second");
        }
    }

    private static String autosaveScript(Connection c, Connection other) throws Exception {
        StringBuilder out = new StringBuilder();
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO ja VALUES (?, ?)")) {
            insert(insert, 1, "one");
            insert(insert, 2, "two");
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    insert(insert, 1, "dup");
                } catch (SQLException e) {
                    out.append(e.getSQLState()).append(state(c)).append('\n');
                }
            }
            try {
                insert(insert, 3, null);
            } catch (SQLException e) {
                out.append(e.getSQLState()).append(state(c)).append('\n');
            }
            out.append(OUTCOMES.of(c, "SELECT * FROM ja ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            out.append(OUTCOMES.of(c, "UPDATE ja SET name = 'uno' WHERE id = 1"))
                    .append('\n');
            out.append(OUTCOMES.of(c, "SELECT * FROM nosuch")).append(state(c)).append('\n');
            try {
                // autosave=conservative leaves the block failed after the errors above
                insert(insert, 4, "four");
            } catch (SQLException e) {
                out.append(e.getSQLState()).append(state(c)).append('\n');
            }
            out.append(OUTCOMES.of(other, "SELECT count(*) FROM ja")).append('\n');
            try {
                c.commit();
            } catch (SQLException e) {
                out.append(e.getSQLState()).append(state(c)).append('\n');
            }
            out.append(OUTCOMES.of(other, "SELECT * FROM ja ORDER BY id"))
                    .append(state(c))
                    .append('\n');
        } finally {
            c.setAutoCommit(true);
        }
        return out.toString();
    }

    private static void insert(PreparedStatement insert, long id, String name) throws SQLException {
        insert.setLong(1, id);
        insert.setString(2, name);
        insert.executeUpdate();
    }

    private static BlockSteps steps() {
        return new BlockSteps(pair, pgOther, tributaryOther, OUTCOMES, VIEW_QUERY, "acct_totals");
    }
}
