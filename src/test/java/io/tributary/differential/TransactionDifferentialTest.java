package io.tributary.differential;

import static io.tributary.differential.BlockSteps.VIEW;
import static io.tributary.differential.BlockSteps.a;
import static io.tributary.differential.BlockSteps.b;
import static io.tributary.differential.BlockSteps.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * Multi-statement transactions against embedded PostgreSQL: two sessions on each server (A runs
 * the transaction blocks, B is another session looking at the data), the same steps on both, and
 * after each step its outcome (rows, count or error with message), the transaction state the
 * server reported in ReadyForQuery, and a materialized view over the table compared with
 * PostgreSQL's answer to the view's query. Blocks that meet another session's commits run as
 * REPEATABLE READ on both, the level Tributary gives every block.
 */
class TransactionDifferentialTest {
    private static final ComparedOutcomes OUTCOMES = new ComparedOutcomes(true, false);
    private static final String VIEW_QUERY =
            "SELECT owner, sum(balance) AS total, count(*) AS n FROM acct GROUP BY owner";

    private static PostgresPair pair;
    private static Connection pgOther;
    private static Connection tributaryOther;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("txn-diff");
        pgOther = DifferentialPostgres.connectDev();
        tributaryOther = pair.tributary.connect("postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pgOther, tributaryOther, pair);
    }

    @Test
    void blocksLikePostgres() throws SQLException {
        List<BlockSteps.Step> steps = List.of(
                a("CREATE TABLE acct (id INT PRIMARY KEY, owner TEXT NOT NULL, balance INT CHECK (balance >= 0))"),
                a("INSERT INTO acct VALUES (1, 'ann', 100), (2, 'bob', 50)"),
                new BlockSteps.Step('M', "CREATE MATERIALIZED VIEW acct_totals AS " + VIEW_QUERY),
                VIEW,
                // read your own writes; the other session and the view see none of them
                a("BEGIN"),
                a("INSERT INTO acct VALUES (3, 'cy', 10)"),
                a("UPDATE acct SET balance = balance - 30 WHERE id = 1"),
                a("UPDATE acct SET balance = balance + 30 WHERE id = 2"),
                a("SELECT * FROM acct ORDER BY id"),
                a("SELECT * FROM acct WHERE id = 3"),
                a("SELECT owner, balance FROM acct WHERE id BETWEEN 2 AND 3 ORDER BY id"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                a("DELETE FROM acct WHERE id = 3"),
                a("SELECT * FROM acct WHERE id = 3"),
                a("INSERT INTO acct VALUES (3, 'cy', 5)"),
                a("UPDATE acct SET id = id + 10 WHERE id = 3"),
                a("SELECT count(*), sum(balance) FROM acct"),
                a("INSERT INTO acct SELECT id + 100, owner, balance FROM acct WHERE id < 3"),
                a("SELECT * FROM acct ORDER BY id"),
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // ROLLBACK drops everything, the view never saw it
                a("START TRANSACTION"),
                a("DELETE FROM acct WHERE id > 100"),
                a("INSERT INTO acct VALUES (4, 'dee', 4)"),
                a("SELECT * FROM acct ORDER BY id"),
                a("ROLLBACK"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // errors abort the block: later statements fail until the end, COMMIT rolls back
                a("BEGIN"),
                a("INSERT INTO acct VALUES (5, 'eve', 5)"),
                a("UPDATE acct SET balance = balance - 1000 WHERE id = 1"),
                a("SELECT 1"),
                a("INSERT INTO acct VALUES (6, 'fay', 6)"),
                a("COMMIT"),
                a("SELECT * FROM acct ORDER BY id"),
                VIEW,
                a("BEGIN"),
                a("INSERT INTO acct VALUES (7, NULL, 7)"),
                a("ROLLBACK"),
                a("BEGIN"),
                a("INSERT INTO acct VALUES (1, 'dup', 1)"),
                a("END"),
                a("BEGIN"),
                a("INSERT INTO acct VALUES (8, 'gus', 8), (8, 'gus', 9)"),
                a("ABORT"),
                a("BEGIN"),
                a("INSERT INTO acct VALUES (9, 'hal', 9)"),
                a("INSERT INTO acct VALUES (9, 'hal', 10)"),
                a("ROLLBACK"),
                // key moves and deletes of own inserts
                a("BEGIN"),
                a("INSERT INTO acct VALUES (20, 'ivy', 1), (21, 'jon', 2)"),
                a("DELETE FROM acct WHERE id = 20"),
                a("UPDATE acct SET id = 20 WHERE id = 21"),
                a("UPDATE acct SET balance = balance + 1"),
                a("SELECT * FROM acct ORDER BY id"),
                a("COMMIT"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // another session's commits: the block keeps its snapshot, conflicts fail as in REPEATABLE READ
                a("BEGIN ISOLATION LEVEL REPEATABLE READ"),
                a("SELECT count(*) FROM acct"),
                b("INSERT INTO acct VALUES (30, 'kim', 30)"),
                b("UPDATE acct SET balance = 99 WHERE id = 2"),
                a("SELECT count(*) FROM acct"),
                a("SELECT * FROM acct WHERE id = 2"),
                a("INSERT INTO acct VALUES (31, 'lee', 31)"),
                a("UPDATE acct SET balance = 1 WHERE id = 1"),
                a("COMMIT"),
                a("SELECT * FROM acct ORDER BY id"),
                VIEW,
                a("START TRANSACTION ISOLATION LEVEL REPEATABLE READ"),
                a("SELECT count(*) FROM acct"),
                b("UPDATE acct SET balance = 98 WHERE id = 2"),
                a("UPDATE acct SET balance = 0 WHERE id = 2"),
                a("SELECT 1"),
                a("COMMIT"),
                a("BEGIN ISOLATION LEVEL REPEATABLE READ"),
                a("SELECT count(*) FROM acct"),
                b("INSERT INTO acct VALUES (32, 'max', 32)"),
                a("INSERT INTO acct VALUES (32, 'max', 33)"),
                a("ROLLBACK"),
                a("BEGIN ISOLATION LEVEL REPEATABLE READ"),
                a("SELECT count(*) FROM acct"),
                b("DELETE FROM acct WHERE id = 30"),
                a("DELETE FROM acct WHERE id = 30"),
                a("ROLLBACK"),
                b("SELECT * FROM acct ORDER BY id"),
                VIEW,
                // statements around blocks
                a("COMMIT"),
                a("ROLLBACK"),
                a("BEGIN"),
                a("BEGIN"),
                a("SET application_name = 'in a block'"),
                a("SHOW application_name"),
                a("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"),
                a("SHOW transaction_isolation"),
                a("COMMIT"),
                a("BEGIN; INSERT INTO acct VALUES (40, 'ned', 40); INSERT INTO acct VALUES (41, 'ola', 41)"),
                a("SELECT count(*) FROM acct"),
                a("COMMIT"),
                b("SELECT * FROM acct WHERE id >= 40 ORDER BY id"),
                VIEW,
                a("BEGIN; DELETE FROM acct WHERE id = 40; UPDATE acct SET balance = -1 WHERE id = 41; COMMIT"),
                a("SELECT * FROM acct WHERE id >= 40 ORDER BY id"),
                a("ROLLBACK"),
                VIEW);
        assertEquals(List.of(), steps().mismatches(steps), "transaction steps that differ from PostgreSQL");
    }

    /** pgjdbc with autocommit off (it sends BEGIN itself) and COPY FROM STDIN in a block. */
    @Test
    void autocommitOffLikePostgres() throws Exception {
        for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
            OUTCOMES.of(c, "CREATE TABLE jt (id BIGINT PRIMARY KEY, name TEXT)");
        }
        List<String> outcomes = new ArrayList<>();
        for (Connection[] sessions : List.of(
                new Connection[] {pair.pg, pgOther}, new Connection[] {pair.tributary.connection, tributaryOther})) {
            outcomes.add(jdbcScript(sessions[0], sessions[1]));
        }
        assertEquals(outcomes.get(0), outcomes.get(1), "pgjdbc autocommit off: postgres first, tributary second");
    }

    /** The outcomes of a pgjdbc session with autocommit off, and what the other session sees, as text. */
    private static String jdbcScript(Connection c, Connection other) throws Exception {
        StringBuilder out = new StringBuilder();
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO jt VALUES (?, ?)")) {
            for (long i = 1; i <= 3; i++) {
                insert.setLong(1, i);
                insert.setString(2, "n" + i);
                insert.addBatch();
            }
            insert.executeBatch();
            out.append(OUTCOMES.of(c, "SELECT * FROM jt ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            out.append(OUTCOMES.of(other, "SELECT count(*) FROM jt")).append('\n');
            c.rollback();
            out.append(OUTCOMES.of(other, "SELECT count(*) FROM jt")).append('\n');
            insert.setLong(1, 10);
            insert.setString(2, "ten");
            out.append(insert.executeUpdate()).append(state(c)).append('\n');
            long copied = c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY jt FROM STDIN", new StringReader("11\televen\n12\ttwelve\n"));
            out.append(copied)
                    .append(OUTCOMES.of(c, "SELECT * FROM jt ORDER BY id"))
                    .append('\n');
            out.append(OUTCOMES.of(other, "SELECT count(*) FROM jt")).append('\n');
            c.commit();
            out.append(OUTCOMES.of(other, "SELECT * FROM jt ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            insert.setLong(1, 11);
            insert.setString(2, "again");
            out.append(OUTCOMES.of(c, "UPDATE jt SET name = 'x' WHERE id = 10")).append('\n');
            try {
                insert.executeUpdate();
            } catch (SQLException e) {
                out.append(e.getSQLState()).append(state(c)).append('\n');
            }
            out.append(OUTCOMES.of(c, "SELECT 1")).append(state(c)).append('\n');
            c.rollback();
            out.append(OUTCOMES.of(c, "SELECT * FROM jt ORDER BY id"))
                    .append(state(c))
                    .append('\n');
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        return out.toString();
    }

    /** BEGIN, COMMIT and ROLLBACK out of place warn as in PostgreSQL. */
    @Test
    void warningsLikePostgres() throws SQLException {
        List<String> script = List.of("COMMIT", "ROLLBACK", "BEGIN", "BEGIN", "COMMIT", "END", "ABORT");
        assertEquals(warnings(pair.pg, script), warnings(pair.tributary.connection, script));
    }

    private static List<String> warnings(Connection c, List<String> script) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String sql : script) {
                s.execute(sql);
                List<String> states = new ArrayList<>();
                for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                    states.add(w.getSQLState() + " " + w.getMessage());
                }
                s.clearWarnings();
                out.add(sql + " " + states + state(c));
            }
        }
        return out;
    }

    private static BlockSteps steps() {
        return new BlockSteps(pair, pgOther, tributaryOther, OUTCOMES, VIEW_QUERY, "acct_totals");
    }
}
