package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ON UPDATE CASCADE, SET NULL and SET DEFAULT run in order on Tributary and on embedded PostgreSQL:
 * an UPDATE of a referenced primary key or UNIQUE column carries the new key to the referencing
 * rows (CASCADE) or sets their columns NULL or to their DEFAULT; chains (a cascaded key that a third
 * table references), self references, two-column keys, an UPDATE of several keys at once, INSERT
 * ... ON CONFLICT DO UPDATE of a referenced UNIQUE column, keys
 * swapped (PostgreSQL's row-by-row unique check refuses that: 23505), a new key the referencing
 * column's type cannot hold (22003 even when no row references the old key: PostgreSQL's cascaded
 * UPDATE casts its parameter when it plans), a NOT NULL or missing referenced row the action leaves (the whole
 * statement rolls back), a materialized view over a referencing table, and transaction blocks with
 * ROLLBACK and ROLLBACK TO. Every table's rows are compared after every statement that changes
 * rows, with the errors (SQLSTATE, message, DETAIL, object fields).
 */
class ForeignKeyOnUpdateDifferentialTest {
    private static final String ROWS = "SELECT 'p' AS t, id || ':' || code AS r FROM p"
            + " UNION ALL SELECT 'c', id || ':' || coalesce(pid::text, '-') || ':' || coalesce(pcode, '-') FROM c"
            + " UNION ALL SELECT 'g', id || ':' || coalesce(cpcode, '-') FROM g"
            + " UNION ALL SELECT 'n', id || ':' || coalesce(pid::text, '-') || ':' || coalesce(pcode, '-') FROM n"
            + " ORDER BY 1, 2";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE p (id int PRIMARY KEY, code text NOT NULL UNIQUE)",
            "CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p ON UPDATE CASCADE,"
                    + " pcode text UNIQUE REFERENCES p (code) ON UPDATE CASCADE)",
            "CREATE TABLE g (id int PRIMARY KEY, cpcode text REFERENCES c (pcode) ON UPDATE CASCADE)",
            "CREATE TABLE n (id int PRIMARY KEY, pid int REFERENCES p ON UPDATE SET NULL,"
                    + " pcode text DEFAULT 'a' REFERENCES p (code) ON UPDATE SET DEFAULT)",
            "INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')",
            "INSERT INTO c VALUES (10, 1, 'b'), (11, 1, NULL), (20, 2, 'c'), (30, 3, 'd'), (40, NULL, 'e')",
            "INSERT INTO g VALUES (100, 'b'), (101, 'c'), (102, NULL), (103, 'e')",
            "INSERT INTO n VALUES (1, 1, 'b'), (2, 2, 'c'), (3, NULL, 'a')",
            "CREATE MATERIALIZED VIEW cv AS SELECT pid, count(*) AS n FROM c GROUP BY pid",
            "SELECT * FROM cv ORDER BY pid",
            // a primary key: CASCADE to c, SET NULL in n
            "UPDATE p SET id = 7 WHERE id = 1",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            // a UNIQUE column: CASCADE to c, and on from c's cascaded key to g; SET DEFAULT in n
            "UPDATE p SET code = 'B' WHERE code = 'b'",
            ROWS,
            // an update that leaves the key as it was changes nothing
            "UPDATE p SET code = code, id = id",
            ROWS,
            // several keys at once, both columns of a row at once
            "UPDATE p SET id = id + 100",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            "UPDATE p SET id = id - 100, code = upper(code) WHERE id IN (102, 103)",
            ROWS,
            // INSERT ... ON CONFLICT DO UPDATE of a referenced UNIQUE column
            "INSERT INTO p VALUES (3, 'x') ON CONFLICT (id) DO UPDATE SET code = 'CC'",
            ROWS,
            "INSERT INTO p VALUES (3, 'x') ON CONFLICT (id) DO UPDATE SET code = 'C'",
            // keys swapped: PostgreSQL's unique check, row by row, finds the other row's key still there
            "CREATE TABLE sp (id int PRIMARY KEY, code text UNIQUE)",
            "CREATE TABLE sc (id int PRIMARY KEY, pid int REFERENCES sp ON UPDATE CASCADE,"
                    + " pcode text REFERENCES sp (code) ON UPDATE SET NULL)",
            "INSERT INTO sp VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')",
            "INSERT INTO sc VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')",
            "UPDATE sp SET id = 3 - id WHERE id IN (1, 2)",
            "UPDATE sp SET id = CASE id WHEN 4 THEN 2 ELSE id + 1 END WHERE id > 1",
            "UPDATE sp SET code = CASE code WHEN 'a' THEN 'b' ELSE 'a' END WHERE code IN ('a', 'b')",
            "SELECT * FROM sc ORDER BY id",
            // keys moved along a chain whose order PostgreSQL's row-by-row check lets through
            "UPDATE sp SET id = id - 1",
            "SELECT * FROM sp ORDER BY id",
            "SELECT * FROM sc ORDER BY id",
            // SET DEFAULT without a referenced row for the default, and SET NULL of a NOT NULL column
            "UPDATE p SET code = 'z' WHERE code = 'a'",
            ROWS,
            "CREATE TABLE k (id int PRIMARY KEY, pid int NOT NULL REFERENCES p ON UPDATE SET NULL)",
            "INSERT INTO k VALUES (1, 2)",
            "UPDATE p SET id = 9 WHERE id = 2",
            ROWS,
            "DROP TABLE k",
            // a new key the referencing column cannot hold
            "CREATE TABLE sm (id int PRIMARY KEY, pid smallint REFERENCES p ON UPDATE CASCADE)",
            "INSERT INTO sm VALUES (1, 2)",
            "UPDATE p SET id = 100000 WHERE id = 2",
            "UPDATE p SET id = 100000 WHERE id = 105",
            "UPDATE p SET id = 32000 WHERE id = 2",
            "SELECT * FROM sm ORDER BY id",
            "DROP TABLE sm",
            // a RESTRICT beside the CASCADE refuses the whole statement
            "CREATE TABLE r (id int PRIMARY KEY, pid int REFERENCES p ON UPDATE RESTRICT)",
            "INSERT INTO r VALUES (1, 3)",
            "UPDATE p SET id = 8 WHERE id = 3",
            ROWS,
            "DROP TABLE r",
            // self references
            "CREATE TABLE tree (id int PRIMARY KEY, parent int REFERENCES tree ON UPDATE CASCADE)",
            "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 1), (5, NULL)",
            "UPDATE tree SET id = 10 WHERE id = 1",
            "SELECT * FROM tree ORDER BY id",
            "UPDATE tree SET id = id + 100",
            "SELECT * FROM tree ORDER BY id",
            // two columns
            "CREATE TABLE mp (a int, b text, PRIMARY KEY (a, b))",
            "CREATE TABLE mc (id int PRIMARY KEY, a int, b text, FOREIGN KEY (a, b) REFERENCES mp ON UPDATE CASCADE)",
            "CREATE TABLE mn (id int PRIMARY KEY, a int, b text, FOREIGN KEY (a, b) REFERENCES mp ON UPDATE SET NULL)",
            "INSERT INTO mp VALUES (1, 'x'), (2, 'y')",
            "INSERT INTO mc VALUES (1, 1, 'x'), (2, 2, 'y'), (3, 1, NULL)",
            "INSERT INTO mn VALUES (1, 1, 'x'), (2, 2, 'y')",
            "UPDATE mp SET b = 'xx' WHERE a = 1",
            "SELECT * FROM mc ORDER BY id",
            "SELECT * FROM mn ORDER BY id",
            "UPDATE mp SET a = a * 10, b = b || '!'",
            "SELECT * FROM mc ORDER BY id",
            "SELECT * FROM mn ORDER BY id",
            // transaction blocks: the cascade is part of the block, and goes with ROLLBACK
            "BEGIN",
            "UPDATE p SET id = 50 WHERE id = 104",
            ROWS,
            "ROLLBACK",
            ROWS,
            "BEGIN",
            "SAVEPOINT s1",
            "UPDATE p SET code = 'q' WHERE code = 'C'",
            ROWS,
            "ROLLBACK TO SAVEPOINT s1",
            ROWS,
            "UPDATE p SET id = 60 WHERE id = 104",
            "UPDATE p SET id = 61 WHERE id = 60",
            ROWS,
            "COMMIT",
            ROWS,
            "SELECT * FROM cv ORDER BY pid",
            // a referenced key that changes only its form (1.5 to 1.50) is no cycle: the referencing rows
            // take the new form
            "CREATE TABLE np (id int PRIMARY KEY, code numeric UNIQUE)",
            "CREATE TABLE nc (id int PRIMARY KEY, pc numeric REFERENCES np (code) ON UPDATE CASCADE)",
            "INSERT INTO np VALUES (1, 1.5), (2, 2.5)",
            "INSERT INTO nc VALUES (1, 1.5)",
            "UPDATE np SET code = round(code, 2)",
            "SELECT * FROM np ORDER BY id",
            "SELECT * FROM nc ORDER BY id",
            // what the catalogs show
            "SELECT conname, confupdtype, confdeltype, pg_get_constraintdef(oid) AS def FROM pg_constraint"
                    + " WHERE contype = 'f' ORDER BY conname",
            "SELECT constraint_name, update_rule, delete_rule FROM information_schema.referential_constraints"
                    + " ORDER BY 1");

    @RegisterExtension
    static final ForeignKeyActionComparison PAIR = new ForeignKeyActionComparison("fk-on-update-", List.of("cv"));

    @Test
    void onUpdateActionsLikePostgres() throws SQLException {
        List<String> mismatches = PAIR.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
