package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * UNIQUE constraints and CREATE [UNIQUE] INDEX run in order on Tributary and on embedded
 * PostgreSQL: default names, violations through every write path (INSERT, multi-row INSERT,
 * INSERT ... SELECT, UPDATE, COPY-like bulk INSERT, ON CONFLICT on the primary key, a transaction
 * with a savepoint), NULLs being distinct, multi-column keys, DELETE then reinsert, TRUNCATE, ADD
 * and DROP COLUMN, and an index built over rows holding a duplicate. Rows, counts and errors
 * (SQLSTATE, message, DETAIL) must match. Tributary checks uniqueness per statement, so an UPDATE
 * that swaps two rows' values is compared with PostgreSQL's {@code DEFERRABLE INITIALLY
 * IMMEDIATE} constraint, which PostgreSQL also checks at the statement's end.
 */
class UniqueIndexDifferentialTest {
    /** Each step: the statement for PostgreSQL, and for Tributary when it differs (else null). */
    private static final List<String[]> STEPS = steps();

    private static List<String[]> steps() {
        List<String[]> out = new ArrayList<>();
        for (String sql : List.of(
                "CREATE TABLE u (id int PRIMARY KEY, email text UNIQUE, a int, b int, UNIQUE (a, b))",
                "INSERT INTO u VALUES (1, 'a@x', 1, 1), (2, 'b@x', 1, 2), (3, NULL, 1, NULL), (4, NULL, 1, NULL)",
                "INSERT INTO u VALUES (5, 'a@x', 9, 9)",
                "INSERT INTO u VALUES (5, 'z@x', 1, 1)",
                "INSERT INTO u VALUES (5, 'q@x', 5, 5), (6, 'q@x', 6, 6)",
                "INSERT INTO u SELECT x + 10, 'g' || x, x, 0 FROM generate_series(1, 5) AS g(x)",
                "INSERT INTO u SELECT x + 20, 'h' || (x % 2), x, 1 FROM generate_series(1, 3) AS g(x)",
                "UPDATE u SET email = 'a@x' WHERE id = 2",
                "UPDATE u SET email = upper(email) WHERE id IN (1, 2)",
                "UPDATE u SET b = 2 WHERE id = 1",
                "UPDATE u SET email = NULL WHERE id IN (1, 2)",
                "SELECT * FROM u ORDER BY id",
                "DELETE FROM u WHERE id = 11",
                "INSERT INTO u VALUES (30, 'g1', 1, 0)",
                "INSERT INTO u VALUES (31, 'g2', 2, 0)",
                "INSERT INTO u VALUES (11, 'x', 1, 0) ON CONFLICT (id) DO NOTHING",
                "INSERT INTO u VALUES (30, 'g3', 1, 0) ON CONFLICT (id) DO NOTHING",
                "INSERT INTO u VALUES (30, 'g3', 7, 7) ON CONFLICT (id) DO UPDATE SET email = excluded.email",
                "INSERT INTO u VALUES (30, 'g3', 7, 7) ON CONFLICT (id) DO UPDATE SET email = 'g4'",
                "SELECT * FROM u ORDER BY id",
                "CREATE TABLE m (k int, v text, CONSTRAINT m_kv UNIQUE (k, v))",
                "INSERT INTO m VALUES (1, 'a'), (1, 'b'), (2, 'a'), (1, NULL), (1, NULL)",
                "INSERT INTO m VALUES (1, 'a')",
                "INSERT INTO m VALUES (3, 'c'), (3, 'c')",
                "SELECT * FROM m ORDER BY k, v",
                "CREATE TABLE i (id int PRIMARY KEY, c int, d text)",
                "INSERT INTO i VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, 'x')",
                "CREATE INDEX ON i (c)",
                "CREATE UNIQUE INDEX ON i (c)",
                "CREATE INDEX IF NOT EXISTS i_c_idx ON i (d)",
                "CREATE UNIQUE INDEX i_d ON i USING btree (d)",
                "DELETE FROM i WHERE id = 2",
                "CREATE UNIQUE INDEX i_c_u ON i (c)",
                "INSERT INTO i VALUES (4, 1, 'z')",
                "CREATE INDEX i ON i (c)",
                "CREATE INDEX i_d ON i (nosuch)",
                "CREATE INDEX ON nosuch (c)",
                "DROP INDEX i_c_idx",
                "DROP INDEX i_c_idx",
                "DROP INDEX IF EXISTS i_c_idx",
                "INSERT INTO i VALUES (5, 5, 'z'), (6, 6, 'z')",
                "ALTER TABLE i ADD CONSTRAINT i_dd UNIQUE (d)",
                "DROP INDEX i_dd",
                "ALTER TABLE i DROP CONSTRAINT i_dd",
                "INSERT INTO i VALUES (7, 7, 'z')",
                "ALTER TABLE i ADD UNIQUE (d, c)",
                "ALTER TABLE i ADD CONSTRAINT i_dd UNIQUE (d)",
                "ALTER TABLE i DROP CONSTRAINT i_c_u",
                "DROP INDEX i_c_u",
                "INSERT INTO i VALUES (8, 1, 'w')",
                "ALTER TABLE i ADD COLUMN e int",
                "INSERT INTO i VALUES (9, 9, 'x', 0)",
                "INSERT INTO i VALUES (9, 9, 'v', 0)",
                "ALTER TABLE i DROP COLUMN e",
                "INSERT INTO i VALUES (10, 10, 'v')",
                "SELECT * FROM i ORDER BY id",
                "TRUNCATE i",
                "INSERT INTO i VALUES (1, 1, 'x'), (2, 1, 'y')",
                "SELECT * FROM i ORDER BY id",
                "BEGIN",
                "INSERT INTO i VALUES (3, 3, 'p')",
                "SAVEPOINT s",
                "INSERT INTO i VALUES (4, 4, 'p')",
                "ROLLBACK TO s",
                "UPDATE i SET d = 'p2' WHERE id = 3",
                "INSERT INTO i VALUES (4, 4, 'p')",
                "DELETE FROM i WHERE id = 1",
                "INSERT INTO i VALUES (5, 5, 'x')",
                "COMMIT",
                "SELECT * FROM i ORDER BY id",
                "BEGIN",
                "INSERT INTO i VALUES (6, 6, 'y')",
                "COMMIT",
                "SELECT * FROM i ORDER BY id",
                "DROP TABLE i",
                "CREATE TABLE i (id int PRIMARY KEY, d text UNIQUE)",
                "INSERT INTO i VALUES (1, 'x')",
                "SELECT * FROM i")) {
            out.add(new String[] {sql, null});
        }
        out.add(new String[] {
            "CREATE TABLE sw (id int PRIMARY KEY, v int UNIQUE DEFERRABLE INITIALLY IMMEDIATE)",
            "CREATE TABLE sw (id int PRIMARY KEY, v int UNIQUE)"
        });
        for (String sql : List.of(
                "INSERT INTO sw VALUES (1, 10), (2, 20), (3, 30)",
                "UPDATE sw SET v = CASE id WHEN 1 THEN 20 WHEN 2 THEN 10 ELSE v END",
                "UPDATE sw SET v = v + 10",
                "UPDATE sw SET v = 40 WHERE id < 3",
                "SELECT * FROM sw ORDER BY id")) {
            out.add(new String[] {sql, null});
        }
        return out;
    }

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("unique-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void uniqueConstraintsAndIndexesLikePostgres() {
        List<String> mismatches = new ArrayList<>();
        for (String[] step : STEPS) {
            String expected = StatementOutcome.withMessage(pg, step[0]);
            String mine = step[1] == null ? step[0] : step[1];
            String actual = StatementOutcome.withMessage(tributary.connection, mine);
            if (!expected.equals(actual)) {
                mismatches.add(mine + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
