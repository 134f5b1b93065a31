package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ALTER TABLE ... ADD PRIMARY KEY} on populated tables without a key, run in order on
 * Tributary and on embedded PostgreSQL: rows, errors (SQLSTATE, message and DETAIL), the key as
 * pgjdbc's {@code getPrimaryKeys} reports it, and what later inserts do must match.
 */
class AddPrimaryKeyDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE a (id INT, v TEXT)",
            "INSERT INTO a VALUES (3, 'c'), (1, 'a'), (2, NULL)",
            "ALTER TABLE ONLY a ADD CONSTRAINT a_pkey PRIMARY KEY (id)",
            "SELECT * FROM a ORDER BY id",
            "INSERT INTO a VALUES (1, 'again')",
            "INSERT INTO a VALUES (NULL, 'x')",
            "INSERT INTO a VALUES (4, 'd')",
            "UPDATE a SET v = 'B' WHERE id = 2",
            "DELETE FROM a WHERE id = 3",
            "SELECT * FROM a ORDER BY id",
            "ALTER TABLE a ADD PRIMARY KEY (v)",
            "CREATE TABLE d (id INT, v TEXT)",
            "INSERT INTO d VALUES (1, 'x'), (2, 'y'), (1, 'z')",
            "ALTER TABLE d ADD CONSTRAINT d_pkey PRIMARY KEY (id)",
            "INSERT INTO d VALUES (1, 'w')",
            "SELECT * FROM d ORDER BY id, v",
            "CREATE TABLE n (id INT, v TEXT)",
            "INSERT INTO n VALUES (1, 'x'), (NULL, 'y')",
            "ALTER TABLE n ADD PRIMARY KEY (id)",
            "ALTER TABLE n ADD PRIMARY KEY (nosuch)",
            "ALTER TABLE n ADD PRIMARY KEY (v, v)",
            "SELECT * FROM n ORDER BY id",
            "CREATE TABLE c (a INT, b TEXT, v BIGINT)",
            "INSERT INTO c VALUES (1, 'x', 10), (1, 'y', 20), (2, 'x', 30)",
            "ALTER TABLE c ADD PRIMARY KEY (b, a)",
            "INSERT INTO c VALUES (1, 'y', 21)",
            "SELECT * FROM c ORDER BY a, b",
            "CREATE TABLE e (id INT, v TEXT)",
            "ALTER TABLE e ADD PRIMARY KEY (id)",
            "INSERT INTO e VALUES (1, 'x') ON CONFLICT (id) DO UPDATE SET v = 'y'",
            "INSERT INTO e VALUES (1, 'x') ON CONFLICT (id) DO UPDATE SET v = 'y'",
            "SELECT * FROM e",
            "CREATE TABLE s (id SERIAL, v TEXT)",
            "INSERT INTO s (v) VALUES ('p'), ('q')",
            "ALTER TABLE s ADD CONSTRAINT s_pkey PRIMARY KEY (id)",
            "INSERT INTO s (v) VALUES ('r') RETURNING id",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT * FROM s ORDER BY id",
            "ALTER TABLE nosuch ADD PRIMARY KEY (id)");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("addpk-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void addPrimaryKeyLikePostgres() throws SQLException {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS, StatementOutcome::withMessage);
        for (String table : List.of("a", "c", "d", "e", "n", "s")) {
            assertEquals(primaryKey(pg, table), primaryKey(tributary.connection, table), table);
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void tablesThatJobsReadAndOtherConstraintsAreRefusedByName() throws SQLException {
        try (Statement s = tributary.connection.createStatement()) {
            s.execute("CREATE TABLE r (id INT, v INT)");
            s.execute("INSERT INTO r VALUES (1, 1)");
            s.execute("CREATE MATERIALIZED VIEW r_sum AS SELECT sum(v) AS total FROM r");
            String refused = StatementOutcome.withMessage(tributary.connection, "ALTER TABLE r ADD PRIMARY KEY (id)");
            assertTrue(refused.startsWith("ERROR 0A000") && refused.contains("materialized view r_sum"), refused);
            for (String constraint :
                    List.of("FOREIGN KEY (v) REFERENCES a (id) MATCH FULL", "EXCLUDE USING gist (v WITH =)")) {
                String other = StatementOutcome.withMessage(
                        tributary.connection, "ALTER TABLE r ADD CONSTRAINT r_c " + constraint);
                assertTrue(other.startsWith("ERROR 0A000") && other.contains(constraint.substring(0, 5)), other);
            }
            s.execute("DROP MATERIALIZED VIEW r_sum");
            s.execute("ALTER TABLE r ADD PRIMARY KEY (id)");
            assertEquals("[[id=1, v=1]]", StatementOutcome.of(tributary.connection, "SELECT * FROM r", false));
        }
    }

    /** The key's columns in key order, as pgjdbc reads them from the catalog. */
    private static List<String> primaryKey(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", table)) {
            while (rs.next()) {
                out.add(rs.getShort("KEY_SEQ") + ":" + rs.getString("COLUMN_NAME") + ":" + rs.getString("PK_NAME"));
            }
        }
        out.sort(null);
        return out;
    }
}
