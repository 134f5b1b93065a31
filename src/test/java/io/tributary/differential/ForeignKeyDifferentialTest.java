package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * FOREIGN KEY constraints run in order on Tributary and on embedded PostgreSQL: the statements that
 * create them (default names, the referenced key, type checks and refusals), every write that must
 * respect them (a referencing row without its referenced row, a referenced row still referenced,
 * MATCH SIMPLE's NULLs, multi-row statements and transaction blocks where parent and child come
 * together, a failing statement leaving nothing behind), and DDL over them. Rows, update counts
 * and errors (SQLSTATE, message, DETAIL and the schema, table and constraint fields) must match.
 */
class ForeignKeyDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE, name text)",
            "CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p, v text)",
            "INSERT INTO p VALUES (1, 'a', 'one'), (2, 'b', 'two'), (3, 'c', 'three')",
            "INSERT INTO c VALUES (10, 1, 'x')",
            "INSERT INTO c VALUES (11, 4, 'y')",
            "INSERT INTO c VALUES (12, NULL, 'z')",
            "INSERT INTO c VALUES (13, 2, 'ok'), (14, 9, 'bad'), (15, 3, 'ok')",
            "SELECT * FROM c ORDER BY id",
            "INSERT INTO c SELECT 20 + id, id, 'sel' FROM p",
            "INSERT INTO c SELECT 30 + x, x, 'sel' FROM generate_series(1, 5) AS g(x)",
            "DELETE FROM p WHERE id = 1",
            "DELETE FROM p WHERE id > 1",
            "UPDATE p SET id = 7 WHERE id = 1",
            "UPDATE p SET name = 'uno' WHERE id = 1",
            "UPDATE c SET pid = 5 WHERE id = 10",
            "UPDATE c SET pid = 2 WHERE id = 10",
            "UPDATE c SET v = 'still' WHERE id = 10",
            "INSERT INTO p VALUES (4, 'd', 'four')",
            "DELETE FROM p WHERE id = 4",
            "INSERT INTO c VALUES (40, 4, 'x') ON CONFLICT (id) DO NOTHING",
            "INSERT INTO c VALUES (10, 4, 'x') ON CONFLICT (id) DO UPDATE SET pid = 4",
            "INSERT INTO c VALUES (10, 4, 'x') ON CONFLICT (id) DO UPDATE SET pid = 1",
            "SELECT * FROM c ORDER BY id",
            "SELECT * FROM p ORDER BY id",
            // a key referenced by a UNIQUE constraint, named, with a table constraint and two columns
            "CREATE TABLE c2 (id int PRIMARY KEY, pcode text, CONSTRAINT c2_code FOREIGN KEY (pcode) REFERENCES p (code))",
            "INSERT INTO c2 VALUES (1, 'a'), (2, NULL)",
            "INSERT INTO c2 VALUES (3, 'zz')",
            "UPDATE p SET code = 'aa' WHERE id = 1",
            "UPDATE p SET code = 'cc' WHERE id = 3",
            "CREATE TABLE mp (a int, b text, PRIMARY KEY (a, b))",
            "INSERT INTO mp VALUES (1, 'x'), (2, 'y')",
            "CREATE TABLE mc (id int PRIMARY KEY, a int, b text, FOREIGN KEY (a, b) REFERENCES mp)",
            "INSERT INTO mc VALUES (1, 1, 'x'), (2, 2, NULL), (3, NULL, 'q')",
            "INSERT INTO mc VALUES (4, 1, 'y')",
            "DELETE FROM mp WHERE a = 1",
            "DELETE FROM mp WHERE a = 2",
            "CREATE TABLE mc2 (id int PRIMARY KEY, a int, b text, FOREIGN KEY (b, a) REFERENCES mp (b, a))",
            "INSERT INTO mc2 VALUES (1, 1, 'x')",
            "INSERT INTO mc2 VALUES (2, 1, 'y')",
            // integer types compare across widths
            "CREATE TABLE bc (id int PRIMARY KEY, pid bigint REFERENCES p (id), sid smallint REFERENCES p)",
            "INSERT INTO bc VALUES (1, 1, 1)",
            "INSERT INTO bc VALUES (2, 5000000000, NULL)",
            "INSERT INTO bc VALUES (3, NULL, 9)",
            // self reference; parent and child in one statement
            "CREATE TABLE tree (id int PRIMARY KEY, parent int REFERENCES tree)",
            "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2)",
            "INSERT INTO tree VALUES (5, 4), (4, 1)",
            "INSERT INTO tree VALUES (6, 7)",
            "DELETE FROM tree WHERE id = 2",
            "DELETE FROM tree WHERE id IN (2, 3)",
            "DELETE FROM tree",
            "SELECT count(*) FROM tree",
            // parent and child in one transaction block
            "BEGIN",
            "INSERT INTO p VALUES (8, 'h', 'eight')",
            "INSERT INTO c VALUES (80, 8, 'blk')",
            "COMMIT",
            "BEGIN",
            "INSERT INTO c VALUES (81, 99, 'blk')",
            "ROLLBACK",
            "BEGIN",
            "DELETE FROM c WHERE pid = 8",
            "DELETE FROM p WHERE id = 8",
            "COMMIT",
            "SELECT * FROM c ORDER BY id",
            "SELECT * FROM p ORDER BY id",
            // refusals when creating
            "CREATE TABLE e1 (a text REFERENCES p)",
            "CREATE TABLE e2 (a int REFERENCES p (name))",
            "CREATE TABLE e3 (a int REFERENCES nosuch)",
            "CREATE TABLE e4 (a int REFERENCES p (nosuch))",
            "CREATE TABLE e5 (a int, FOREIGN KEY (nosuch) REFERENCES p)",
            "CREATE TABLE e6 (a int, b int, FOREIGN KEY (a, b) REFERENCES p)",
            "CREATE TABLE nopk (a int)",
            "CREATE TABLE e7 (a int REFERENCES nopk)",
            "CREATE VIEW pv AS SELECT * FROM p",
            "CREATE TABLE e8 (a int REFERENCES pv)",
            "CREATE TABLE e9 (a int, CONSTRAINT x FOREIGN KEY (a) REFERENCES p, CONSTRAINT x FOREIGN KEY (a) REFERENCES p)",
            "SELECT count(*) FROM pg_class WHERE relname LIKE 'e_'",
            // the catalogs
            "SELECT conname, contype, conkey, confkey, confrelid::regclass::text AS parent, confupdtype, confdeltype,"
                    + " confmatchtype, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f'"
                    + " ORDER BY conname",
            "SELECT * FROM information_schema.referential_constraints ORDER BY constraint_name",
            "SELECT constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint"
                    + " FROM information_schema.key_column_usage WHERE constraint_name LIKE '%fkey' OR constraint_name"
                    + " = 'c2_code' ORDER BY 1, 4",
            "SELECT constraint_name, table_name, constraint_type FROM information_schema.table_constraints"
                    + " WHERE constraint_type = 'FOREIGN KEY' ORDER BY 1",
            // ALTER TABLE ... ADD validates the stored rows; DROP CONSTRAINT
            "CREATE TABLE ac (id int PRIMARY KEY, pid int, pcode text)",
            "INSERT INTO ac VALUES (1, 1, 'a'), (2, 6, 'b')",
            "ALTER TABLE ac ADD FOREIGN KEY (pid) REFERENCES p",
            "DELETE FROM ac WHERE id = 2",
            "ALTER TABLE ac ADD FOREIGN KEY (pid) REFERENCES p",
            "ALTER TABLE ONLY ac ADD CONSTRAINT ac_code FOREIGN KEY (pcode) REFERENCES p (code) ON DELETE RESTRICT",
            "ALTER TABLE ac ADD CONSTRAINT ac_code FOREIGN KEY (pcode) REFERENCES p (code)",
            "INSERT INTO ac VALUES (3, 6, NULL)",
            "SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'ac'::regclass"
                    + " ORDER BY 1",
            "ALTER TABLE ac DROP CONSTRAINT ac_pid_fkey",
            "INSERT INTO ac VALUES (3, 6, NULL)",
            "ALTER TABLE ac DROP CONSTRAINT ac_pid_fkey",
            // DROP TABLE and TRUNCATE of a referenced table
            "DROP VIEW pv",
            "DROP TABLE p",
            "DROP TABLE mp",
            "TRUNCATE mp",
            "TRUNCATE mp, mc",
            "INSERT INTO mp VALUES (1, 'x')",
            "INSERT INTO mc VALUES (1, 1, 'x')",
            "TRUNCATE mp CASCADE",
            "SELECT count(*) FROM mc",
            "DROP TABLE mp, mc, mc2",
            "DROP TABLE p CASCADE",
            "SELECT count(*) FROM pg_constraint WHERE contype = 'f'",
            "INSERT INTO c VALUES (90, 12345, 'orphan allowed')",
            "CREATE TABLE tree2 (id int PRIMARY KEY, parent int REFERENCES tree2)",
            "DROP TABLE tree2",
            // the referential actions that change referencing rows are not built yet (0A000 on Tributary)
            "CREATE TABLE refused (id int PRIMARY KEY, pid int REFERENCES c ON DELETE RESTRICT ON UPDATE NO ACTION)",
            "DROP TABLE refused",
            // ALTER TABLE ... DROP COLUMN: a referencing column takes its constraint with it; a
            // referenced one is 2BP01 naming the constraints (CASCADE is 0A000 on Tributary)
            "CREATE TABLE dp (id int PRIMARY KEY, code text UNIQUE, x int)",
            "CREATE TABLE dc (id int PRIMARY KEY, pid int REFERENCES dp, pcode text, y int,"
                    + " CONSTRAINT dc_code FOREIGN KEY (pcode) REFERENCES dp (code))",
            "CREATE TABLE dc2 (id int PRIMARY KEY, pcode text REFERENCES dp (code))",
            "ALTER TABLE dp DROP COLUMN code",
            "ALTER TABLE dp DROP COLUMN id",
            "ALTER TABLE dp DROP COLUMN x",
            "ALTER TABLE dc DROP COLUMN pid",
            "SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'dc'::regclass"
                    + " ORDER BY 1",
            "INSERT INTO dc VALUES (1, NULL, 5)",
            "INSERT INTO dc VALUES (2, 'nosuch', 5)",
            "DELETE FROM dp",
            "CREATE TABLE dt (id int PRIMARY KEY, parent int REFERENCES dt, u int UNIQUE, v int REFERENCES dt (u))",
            "ALTER TABLE dt DROP COLUMN parent",
            "ALTER TABLE dt DROP COLUMN u",
            "ALTER TABLE dt DROP COLUMN v",
            "ALTER TABLE dt DROP COLUMN u",
            "SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'dt'::regclass",
            "DROP TABLE dc, dc2, dp, dt");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("fk-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void foreignKeysLikePostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS, ForeignKeyDifferentialTest::outcome);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Rows, an update count, or the error with its DETAIL and object fields. */
    static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return StatementOutcome.labelledRowsOrCount(s, sql);
        } catch (PSQLException e) {
            ServerErrorMessage m = e.getServerErrorMessage();
            if (m == null) {
                return "ERROR " + e.getSQLState() + " " + e.getMessage();
            }
            return "ERROR " + e.getSQLState() + " " + m.getMessage() + " DETAIL " + m.getDetail() + " OBJECT "
                    + m.getSchema() + "/" + m.getTable() + "/" + m.getColumn() + "/" + m.getConstraint();
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState() + " " + e.getMessage();
        }
    }
}
