package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ON DELETE CASCADE, SET NULL and SET DEFAULT run in order on Tributary and on embedded PostgreSQL: chains of
 * them (a cascade that cascades further, a row two paths reach), a cascade that meets a RESTRICT
 * or a NOT NULL or CHECK of the row SET NULL leaves (the whole statement rolls back), self
 * references, two-column keys, a key referenced through a UNIQUE constraint, the referencing
 * table's unique index, transaction blocks with ROLLBACK and ROLLBACK TO, an UPDATE of a referenced
 * key (which no ON DELETE action acts on), a materialized view over a referencing table, and SET
 * DEFAULT's defaults (NULL without one; a default without a referenced row, or the deleted key
 * itself, is 23503; a default against a CHECK or a unique index). Every table's rows are compared after every statement that changes
 * rows, with the errors (SQLSTATE, message, DETAIL, object fields).
 */
class ForeignKeyActionsDifferentialTest {
    private static final String ROWS = "SELECT 'p' AS t, id::text || ':' || coalesce(code, '-') AS r FROM p"
            + " UNION ALL SELECT 'c', id || ':' || coalesce(pid::text, '-') || ':' || tag FROM c"
            + " UNION ALL SELECT 'g', id || ':' || coalesce(cid::text, '-') FROM g"
            + " UNION ALL SELECT 'n', id || ':' || coalesce(gid::text, '-') || ':' || coalesce(pcode, '-') FROM n"
            + " ORDER BY 1, 2";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE)",
            "CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p ON DELETE CASCADE, tag text UNIQUE)",
            "CREATE TABLE g (id int PRIMARY KEY, cid int REFERENCES c ON DELETE CASCADE)",
            "CREATE TABLE n (id int PRIMARY KEY, gid int REFERENCES g ON DELETE SET NULL,"
                    + " pcode text REFERENCES p (code) ON DELETE SET NULL)",
            "INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')",
            "INSERT INTO c VALUES (10, 1, 't10'), (11, 1, 't11'), (20, 2, 't20'), (30, 3, 't30'), (40, NULL, 't40'),"
                    + " (50, 5, 't50')",
            "INSERT INTO g VALUES (100, 10), (101, 11), (200, 20), (300, 30), (400, 40), (500, 50)",
            "INSERT INTO n VALUES (1, 100, 'a'), (2, 200, 'b'), (3, NULL, 'c'), (4, 400, 'a'), (5, 500, 'e')",
            "CREATE MATERIALIZED VIEW cv AS SELECT pid, count(*) AS n FROM c GROUP BY pid",
            "SELECT * FROM cv ORDER BY pid",
            // a chain: p → c (CASCADE) → g (CASCADE) → n (SET NULL), and p → n (SET NULL) directly
            "DELETE FROM p WHERE id = 1",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            // the deleted rows' unique index entries went with them
            "INSERT INTO c VALUES (12, 2, 't10')",
            // a cascade that meets a RESTRICT rolls the whole statement back
            "CREATE TABLE r (id int PRIMARY KEY, gid int REFERENCES g ON DELETE RESTRICT)",
            "INSERT INTO r VALUES (1, 200)",
            "DELETE FROM p WHERE id = 2",
            ROWS,
            "DROP TABLE r",
            "CREATE TABLE r (id int PRIMARY KEY, gid int REFERENCES g)",
            "INSERT INTO r VALUES (1, 200)",
            "DELETE FROM p WHERE id = 2",
            "DROP TABLE r",
            // NOT NULL and CHECK of the row SET NULL leaves
            "CREATE TABLE k (id int PRIMARY KEY, pid int NOT NULL REFERENCES p ON DELETE SET NULL)",
            "INSERT INTO k VALUES (1, 2)",
            "DELETE FROM p WHERE id = 2",
            ROWS,
            "DROP TABLE k",
            "CREATE TABLE k (id int PRIMARY KEY, pid int REFERENCES p ON DELETE SET NULL,"
                    + " CONSTRAINT k_kept CHECK (pid IS NOT NULL OR id > 5))",
            "INSERT INTO k VALUES (1, 2), (6, 2)",
            "DELETE FROM p WHERE id = 2",
            "DELETE FROM k WHERE id = 1",
            "DELETE FROM p WHERE id = 2",
            "SELECT * FROM k ORDER BY id",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            // self references
            "CREATE TABLE tree (id int PRIMARY KEY, parent int REFERENCES tree ON DELETE CASCADE)",
            "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 3), (5, 1), (6, NULL), (7, 6)",
            "DELETE FROM tree WHERE id = 2",
            "SELECT * FROM tree ORDER BY id",
            "DELETE FROM tree WHERE id IN (1, 7)",
            "SELECT * FROM tree ORDER BY id",
            // a chain far deeper than any call stack
            "CREATE TABLE chain (id int PRIMARY KEY, prev int REFERENCES chain ON DELETE CASCADE)",
            "INSERT INTO chain VALUES (1, NULL)",
            "INSERT INTO chain SELECT x, x - 1 FROM generate_series(2, 5000) AS g(x)",
            "DELETE FROM chain WHERE id = 10",
            "SELECT count(*), max(id) FROM chain",
            "CREATE TABLE st (id int PRIMARY KEY, parent int REFERENCES st ON DELETE SET NULL)",
            "INSERT INTO st VALUES (1, NULL), (2, 1), (3, 1), (4, 2)",
            "DELETE FROM st WHERE id = 1",
            "SELECT * FROM st ORDER BY id",
            // two columns; a NULL in the key references nothing
            "CREATE TABLE mp (a int, b text, PRIMARY KEY (a, b))",
            "CREATE TABLE mc (id int PRIMARY KEY, a int, b text, FOREIGN KEY (a, b) REFERENCES mp ON DELETE SET NULL)",
            "INSERT INTO mp VALUES (1, 'x'), (2, 'y')",
            "INSERT INTO mc VALUES (1, 1, 'x'), (2, 2, 'y'), (3, 1, NULL)",
            "DELETE FROM mp WHERE a = 1",
            "SELECT * FROM mc ORDER BY id",
            "CREATE TABLE mcc (id int PRIMARY KEY, a int, b text, FOREIGN KEY (a, b) REFERENCES mp ON DELETE CASCADE)",
            "INSERT INTO mcc VALUES (1, 2, 'y'), (2, 2, NULL)",
            "DELETE FROM mp",
            "SELECT * FROM mcc ORDER BY id",
            // transaction blocks: the cascade is part of the block, and goes with ROLLBACK
            "BEGIN",
            "DELETE FROM p WHERE id = 3",
            ROWS,
            "ROLLBACK",
            ROWS,
            "BEGIN",
            "SAVEPOINT s1",
            "DELETE FROM p WHERE id = 3",
            "ROLLBACK TO SAVEPOINT s1",
            ROWS,
            "DELETE FROM p WHERE id = 4",
            "INSERT INTO c VALUES (31, 3, 't31')",
            "DELETE FROM p WHERE id = 3",
            ROWS,
            "COMMIT",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            "BEGIN",
            "INSERT INTO k VALUES (2, 5)",
            "DELETE FROM p WHERE id = 5",
            "COMMIT",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            // an UPDATE of a referenced key is no delete: ON DELETE actions leave it to ON UPDATE NO ACTION
            "UPDATE p SET id = 7 WHERE id = 2",
            "UPDATE p SET code = 'z' WHERE id = 2",
            "BEGIN",
            "UPDATE p SET id = 7 WHERE id = 2",
            "ROLLBACK",
            "UPDATE p SET id = 8, code = 'h' WHERE id = 2",
            ROWS,
            // ON DELETE SET DEFAULT: the columns' DEFAULTs (NULL without one), then the row's own check
            "CREATE TABLE dp (id int PRIMARY KEY, code text UNIQUE)",
            "INSERT INTO dp VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five'),"
                    + " (6, 'six'), (7, 'seven')",
            "CREATE TABLE dc (id int PRIMARY KEY, pid int DEFAULT 1 + 1 REFERENCES dp ON DELETE SET DEFAULT,"
                    + " pcode text DEFAULT 'zero' REFERENCES dp (code) ON DELETE SET DEFAULT, tag text)",
            "CREATE TABLE dn (id int PRIMARY KEY, pid int REFERENCES dp ON DELETE SET DEFAULT)",
            "INSERT INTO dc VALUES (1, 3, 'three', 'a'), (2, 3, 'four', 'b'), (3, 4, NULL, 'c'), (4, NULL, 'five', 'd'),"
                    + " (5, 7, 'seven', 'e')",
            "INSERT INTO dn VALUES (1, 3), (2, 5)",
            "CREATE MATERIALIZED VIEW dcv AS SELECT pid, count(*) AS n FROM dc GROUP BY pid",
            "DELETE FROM dp WHERE id = 3",
            "SELECT * FROM dc ORDER BY id",
            "SELECT * FROM dn ORDER BY id",
            "SELECT * FROM dcv ORDER BY pid",
            "DELETE FROM dp WHERE code = 'four'",
            "SELECT * FROM dc ORDER BY id",
            "SELECT * FROM dcv ORDER BY pid",
            // the deleted key is the default: the rows keep it and still reference it
            "DELETE FROM dp WHERE id = 2",
            "SELECT * FROM dc ORDER BY id",
            // a default without a referenced row fails the referencing row's own check
            "CREATE TABLE dd (id int PRIMARY KEY, pid int DEFAULT 99 REFERENCES dp ON DELETE SET DEFAULT)",
            "INSERT INTO dd VALUES (1, 1)",
            "DELETE FROM dp WHERE id = 1",
            "SELECT * FROM dd ORDER BY id",
            "DROP TABLE dd",
            // the row the default leaves against a CHECK and a unique index
            "CREATE TABLE dk (id int PRIMARY KEY, pid int DEFAULT 0 REFERENCES dp ON DELETE SET DEFAULT CHECK (pid <> 0))",
            "INSERT INTO dk VALUES (1, 1)",
            "DELETE FROM dp WHERE id = 1",
            "DROP TABLE dk",
            "CREATE TABLE du (id int PRIMARY KEY, pid int DEFAULT 0 UNIQUE REFERENCES dp ON DELETE SET DEFAULT)",
            "INSERT INTO du VALUES (1, 5), (2, 6)",
            "DELETE FROM dp WHERE id IN (5, 6)",
            "SELECT * FROM du ORDER BY id",
            "DELETE FROM du WHERE id = 2",
            "DELETE FROM dp WHERE id IN (5, 6)",
            "SELECT * FROM du ORDER BY id",
            "SELECT * FROM dn ORDER BY id",
            // in a transaction block, with ROLLBACK and COMMIT
            "BEGIN",
            "DELETE FROM dp WHERE id = 7",
            "SELECT * FROM dc ORDER BY id",
            "ROLLBACK",
            "SELECT * FROM dc ORDER BY id",
            "BEGIN",
            "DELETE FROM dp WHERE code = 'seven'",
            "SELECT * FROM dc ORDER BY id",
            "COMMIT",
            "SELECT * FROM dc ORDER BY id",
            "SELECT * FROM dcv ORDER BY pid",
            // what the catalogs show
            "SELECT conname, confupdtype, confdeltype, pg_get_constraintdef(oid) AS def FROM pg_constraint"
                    + " WHERE contype = 'f' ORDER BY conname",
            "SELECT constraint_name, update_rule, delete_rule FROM information_schema.referential_constraints"
                    + " ORDER BY 1");

    @RegisterExtension
    static final ForeignKeyActionComparison PAIR = new ForeignKeyActionComparison("fk-actions-", List.of("cv", "dcv"));

    @Test
    void onDeleteActionsLikePostgres() throws SQLException {
        List<String> mismatches = PAIR.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
