package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CHECK constraints run in order on Tributary and on embedded PostgreSQL: the statements that
 * create them (default names, refusals), every write path that must enforce them (INSERT of
 * values, INSERT ... SELECT, UPDATE, ON CONFLICT DO UPDATE, a failing multi-row statement leaving
 * nothing behind), and what the catalogs show (pg_constraint with both forms of
 * pg_get_constraintdef, psql's {@code \d} query, pg_class.relchecks, information_schema). Rows,
 * update counts and errors (SQLSTATE, message and a violation's DETAIL) must match.
 */
class CheckConstraintDifferentialTest {
    /** Conditions whose deparsed text ({@code pg_get_constraintdef}) is compared. */
    private static final List<String> CONDITIONS = List.of(
            "v > 0",
            "v > -1",
            "v >= 0 AND v < 10",
            "v > 0 AND w > 0 AND v < w",
            "v > 0 OR w IS NULL",
            "(v > 0 OR w > 0) AND v < 100",
            "NOT v > 0",
            "v + 1 > w * 2",
            "v BETWEEN 1 AND 5",
            "v IN (1, 2, 3)",
            "v <> 5",
            "v != 5",
            "s <> ''",
            "length(s) > 2",
            "vc <> 'x'",
            "n > 0",
            "n > 1.5",
            "n >= 0.00",
            "b8 > 5000000000",
            "b8 > 0",
            "sm > 0",
            "v > 0 AND NOT (w > 0)",
            "s IS NOT NULL",
            "v % 2 = 0",
            "v - (w - 1) > 0",
            "(v - w) - 1 > 0",
            "d > '2020-01-01'",
            "bo",
            "bo = true",
            "s LIKE 'a%'",
            "upper(s) = s",
            "v > 0.5",
            "f > 0",
            "vc IS NULL OR length(vc) < 3");

    private static final String CONSTRAINTS_OF =
            "SELECT conname, contype, convalidated, conkey, pg_get_constraintdef(oid) AS def,"
                    + " pg_get_constraintdef(oid, true) AS pretty FROM pg_constraint WHERE conrelid = '%s'::regclass"
                    + " ORDER BY conname";

    private static final List<String> STATEMENTS = statements();

    private static List<String> statements() {
        List<String> out = new ArrayList<>(List.of(
                "CREATE TABLE t (id int PRIMARY KEY, v int CHECK (v > 0), w int, s text,"
                        + " CHECK (w > v), CONSTRAINT s_short CHECK (length(s) < 5))",
                "INSERT INTO t VALUES (1, 5, 6, 'abc')",
                "INSERT INTO t VALUES (2, 0, 6, 'abc')",
                "INSERT INTO t VALUES (3, 5, 1, 'abc')",
                "INSERT INTO t VALUES (4, 5, 6, 'abcdef')",
                "INSERT INTO t VALUES (5, NULL, NULL, NULL)",
                "INSERT INTO t VALUES (6, 1, 2, 'x'), (7, -1, 2, 'y'), (8, 3, 4, 'z')",
                // NOT NULL before the checks, with PostgreSQL's "Failing row contains" DETAIL
                "CREATE TABLE nn (id int PRIMARY KEY, v int NOT NULL CHECK (v > 0), s text NOT NULL, d date)",
                "INSERT INTO nn VALUES (1, NULL, 'a', DATE '2024-01-02')",
                "INSERT INTO nn (id, v) VALUES (2, -1)",
                "INSERT INTO nn VALUES (3, 1, 'x', NULL)",
                "UPDATE nn SET s = NULL WHERE id = 3",
                "INSERT INTO nn SELECT 4, 2, NULL, NULL",
                "INSERT INTO t SELECT x + 10, x - 2, x, 'q' FROM generate_series(1, 5) AS g(x)",
                "INSERT INTO t SELECT x + 10, x, x + 1, 'q' FROM generate_series(1, 3) AS g(x)",
                "UPDATE t SET v = v - 1 WHERE id = 1",
                "UPDATE t SET v = 0 WHERE id = 1",
                "UPDATE t SET w = 0 WHERE id = 11",
                "UPDATE t SET w = w + 1 WHERE id > 10",
                "INSERT INTO t VALUES (1, 9, 10, 'a') ON CONFLICT (id) DO UPDATE SET w = 0",
                "INSERT INTO t VALUES (1, 9, 10, 'a') ON CONFLICT (id) DO UPDATE SET s = 'up'",
                "INSERT INTO t VALUES (1, -9, 10, 'a') ON CONFLICT (id) DO NOTHING",
                "SELECT * FROM t ORDER BY id",
                CONSTRAINTS_OF.formatted("t"),
                "SELECT relchecks FROM pg_class WHERE oid = 't'::regclass",
                // psql's \d t
                "SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true) FROM pg_catalog.pg_constraint r"
                        + " WHERE r.conrelid = 't'::regclass AND r.contype = 'c' ORDER BY 1",
                "SELECT constraint_name, constraint_type FROM information_schema.table_constraints"
                        + " WHERE table_name = 't' AND constraint_name NOT LIKE '%not_null' ORDER BY 1",
                "SELECT constraint_name, check_clause FROM information_schema.check_constraints"
                        + " WHERE constraint_schema = 'public' AND constraint_name NOT LIKE '%not_null' ORDER BY 1",
                "CREATE TABLE n1 (v int CHECK (v > 0), w int CHECK (w > 0) CHECK (w < 9), CHECK (v > w),"
                        + " CHECK (v > 1), CONSTRAINT n1_v_check9 CHECK (v < 1000))",
                "CREATE TABLE n2 (v int CONSTRAINT n2_v_check CHECK (v > 0), CHECK (v > 1))",
                "CREATE TABLE n3 (v int, CHECK (v + v > 0), CHECK (v > 0 AND v > 1))",
                "CREATE TABLE n4 (v int CHECK (v > 0), CONSTRAINT n4_v_check1 CHECK (v > 1), CHECK (v > 2))",
                "SELECT conrelid::regclass AS rel, conname FROM pg_constraint WHERE contype = 'c'"
                        + " AND conrelid::regclass::text IN ('n1', 'n2', 'n3', 'n4') ORDER BY 1, 2",
                "CREATE TABLE x1 (v int CHECK (v))",
                "CREATE TABLE x2 (v int CHECK (sum(v) > 0))",
                "CREATE TABLE x3 (v int CHECK (v > (SELECT 1)))",
                "CREATE TABLE x4 (v int CHECK (row_number() over () > 0))",
                "CREATE TABLE x6 (v int CHECK (nosuch > 0))",
                "CREATE TABLE x7 (v int, CONSTRAINT c CHECK (v > 0), CONSTRAINT c CHECK (v > 1))",
                "SELECT count(*) FROM pg_class WHERE relname LIKE 'x_'",
                // ALTER TABLE ... ADD CHECK validates the stored rows; DROP CONSTRAINT
                "CREATE TABLE a (id int PRIMARY KEY, v int, w int)",
                "INSERT INTO a VALUES (1, 5, 6), (2, -1, 3), (3, NULL, 1)",
                "ALTER TABLE a ADD CHECK (v > 0)",
                "ALTER TABLE a ADD CONSTRAINT w_pos CHECK (w > 0)",
                "ALTER TABLE a ADD CHECK (w < v)",
                "DELETE FROM a WHERE id = 2",
                "ALTER TABLE ONLY a ADD CHECK (v > 0)",
                "ALTER TABLE a ADD CONSTRAINT w_pos CHECK (w > 1)",
                "INSERT INTO a VALUES (4, 0, 1)",
                "INSERT INTO a VALUES (5, 2, 0)",
                CONSTRAINTS_OF.formatted("a"),
                "ALTER TABLE a DROP CONSTRAINT w_pos",
                "INSERT INTO a VALUES (5, 2, 0)",
                "ALTER TABLE a DROP CONSTRAINT w_pos",
                "ALTER TABLE a DROP CONSTRAINT IF EXISTS w_pos",
                "ALTER TABLE a DROP CONSTRAINT a_v_check RESTRICT",
                "INSERT INTO a VALUES (6, -3, 1)",
                "ALTER TABLE a ADD CONSTRAINT a_w_check CHECK (w >= 0)",
                "ALTER TABLE a ADD CHECK (w < 100)",
                "ALTER TABLE a ADD CHECK (nosuch > 0)",
                "ALTER TABLE nosuch ADD CHECK (v > 0)",
                "INSERT INTO a VALUES (7, 1, 100)",
                CONSTRAINTS_OF.formatted("a"),
                "SELECT relchecks FROM pg_class WHERE oid = 'a'::regclass",
                "SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true) FROM pg_catalog.pg_constraint r"
                        + " WHERE r.conrelid = 'a'::regclass AND r.contype = 'c' ORDER BY 1",
                "SELECT * FROM a ORDER BY id"));
        StringBuilder deparsed = new StringBuilder("CREATE TABLE dp (v int, w int, s text, vc varchar(10),"
                + " n numeric(10,2), b8 bigint, sm smallint, d date, bo boolean, f float8");
        for (int i = 0; i < CONDITIONS.size(); i++) {
            deparsed.append(", CONSTRAINT c")
                    .append(i < 10 ? "0" : "")
                    .append(i)
                    .append(" CHECK (")
                    .append(CONDITIONS.get(i))
                    .append(")");
        }
        out.add(deparsed.append(")").toString());
        out.add(CONSTRAINTS_OF.formatted("dp"));
        out.add("INSERT INTO dp (v, w, s, vc, n, b8, sm, d, bo, f)"
                + " VALUES (2, 3, 'abc', 'y', 2.00, 6000000000, 1, '2021-01-01', true, 1)");
        out.add("INSERT INTO dp (v, w, s, vc, n, b8, sm, d, bo, f)"
                + " VALUES (2, 3, 'abc', 'y', 2.00, 6000000000, 1, '2021-01-01', false, 1)");
        out.add("SELECT * FROM dp");
        return out;
    }

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("check-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void checkConstraintsLikePostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS, StatementOutcome::withMessage);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Date, timestamp and interval arithmetic and interval comparisons in CHECK conditions and
     * DEFAULTs (planned per row, as a view's are): accepted, enforced with PostgreSQL's messages, and
     * the same in a materialized view's WHERE.
     */
    @Test
    void intervalExpressionsInChecksAndDefaultsLikePostgres() {
        List<String> statements = List.of(
                "CREATE TABLE ci (id int PRIMARY KEY, a timestamp, b timestamp, d date, i interval,"
                        + " e timestamp DEFAULT DATE '2024-01-01' + INTERVAL '1 day',"
                        + " f timestamp DEFAULT TIMESTAMP '2024-01-01 10:00' - INTERVAL '90 minutes',"
                        + " g interval DEFAULT INTERVAL '1 hour' * 2,"
                        + " CHECK (age(b, a) > INTERVAL '1 day'), CHECK (a + INTERVAL '1 day' > a),"
                        + " CONSTRAINT span CHECK (b - a < INTERVAL '30 days'), CHECK (i < INTERVAL '1 day'),"
                        + " CONSTRAINT dated CHECK (d + INTERVAL '1 hour' > a), CHECK (d - 1 < b))",
                "INSERT INTO ci (id, a, b, d, i) VALUES (1, '2024-01-01', '2024-01-03', '2024-01-01', '2 hours')",
                "INSERT INTO ci (id, a, b, d, i) VALUES (2, '2024-01-01', '2024-01-01 12:00', '2024-01-01', '2 hours')",
                "INSERT INTO ci (id, a, b, d, i) VALUES (3, '2024-01-01', '2024-03-01', '2024-01-01', '2 hours')",
                "INSERT INTO ci (id, a, b, d, i) VALUES (4, '2024-01-01', '2024-01-03', '2024-01-01', '2 days')",
                "INSERT INTO ci (id, a, b, d, i) VALUES (5, '2024-01-01', '2024-01-03', '2023-12-30', '1 hour')",
                "INSERT INTO ci (id, a, b, d, i) VALUES (6, '2024-02-01', '2024-02-05', '2024-02-03', NULL)",
                "UPDATE ci SET b = b + INTERVAL '60 days' WHERE id = 1",
                "UPDATE ci SET i = i * 10 WHERE id = 1",
                "ALTER TABLE ci ADD CHECK (b > a - INTERVAL '1 hour')",
                "ALTER TABLE ci ADD CONSTRAINT late CHECK (b - INTERVAL '3 days' > a)",
                "INSERT INTO ci (id, a, b, d, i) VALUES (7, '2024-01-01', '2024-01-03', '2024-01-01', '1 hour')",
                "SELECT * FROM ci ORDER BY id",
                // age of one argument reads today's date, which both servers share
                "CREATE TABLE ca (a timestamp, CHECK (age(a) > INTERVAL '1 day'))",
                "INSERT INTO ca VALUES ('2000-01-01')",
                "INSERT INTO ca VALUES ('2999-01-01')",
                "SELECT * FROM ca",
                "SELECT conname FROM pg_constraint WHERE conrelid = 'ci'::regclass AND contype = 'c' ORDER BY 1",
                "CREATE MATERIALIZED VIEW ci_m AS SELECT id, b - a AS span FROM ci"
                        + " WHERE a > b - INTERVAL '3 days' AND age(b, a) < INTERVAL '1 week'",
                "SELECT * FROM ci_m ORDER BY id");
        List<String> mismatches =
                StatementOutcome.mismatches(pg, tributary.connection, statements, StatementOutcome::withMessage);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * {@code extract} and {@code date_part} in CHECK conditions and DEFAULTs typed as in queries
     * (numeric, double precision, with fractions): CHECKs comparing a fraction of a second, one dividing,
     * one added by ALTER TABLE over the rows there, DEFAULTs into numeric, text and integer columns,
     * the last set by ON DELETE SET DEFAULT (planned per row), and a materialized view over the table
     * maintained as rows arrive (PostgreSQL's refreshed before it is read).
     */
    @Test
    void extractInChecksAndDefaultsLikePostgres() throws Exception {
        List<String> mismatches = new ArrayList<>();
        compare(
                List.of(
                        "CREATE TABLE cx (id int PRIMARY KEY, d date, ts timestamp,"
                                + " y numeric DEFAULT extract(year FROM now()),"
                                + " w text DEFAULT extract(dow FROM DATE '2024-03-03')::text,"
                                + " s text DEFAULT extract(second FROM TIMESTAMP '2024-01-01 00:00:01.5')::text,"
                                + " q text DEFAULT (extract(dow FROM DATE '2024-03-05') / 4)::text,"
                                + " p double precision DEFAULT date_part('dow', DATE '2024-03-05') / 4,"
                                + " CHECK (extract(dow FROM d) > 2.5),"
                                + " CONSTRAINT quarter CHECK (extract(dow FROM d) / 4 > 0.4),"
                                + " CONSTRAINT frac CHECK (extract(second FROM ts) * 10 >= 25),"
                                + " CONSTRAINT part CHECK (date_part('second', ts) < 2.9))",
                        "CREATE MATERIALIZED VIEW cx_m AS SELECT id, extract(dow FROM d) / 4 AS q,"
                                + " date_part('second', ts) AS s FROM cx WHERE extract(second FROM ts) * 10 >= 25",
                        "INSERT INTO cx (id, d, ts) VALUES (1, '2024-03-06', '2024-01-01 00:00:02.7')",
                        "INSERT INTO cx (id, d, ts) VALUES (2, '2024-03-05', '2024-01-01 00:00:02.7')",
                        "INSERT INTO cx (id, d, ts) VALUES (3, '2024-03-08', '2024-01-01 00:00:02.4')",
                        "INSERT INTO cx (id, d, ts) VALUES (4, '2024-03-08', '2024-01-01 00:00:02.6')",
                        "INSERT INTO cx (id, d, ts) VALUES (5, '2024-03-08', '2024-01-01 00:00:02.95')",
                        "SELECT id, d, ts, y = extract(year FROM now()) AS this_year, w, s, q, p FROM cx ORDER BY id",
                        "ALTER TABLE cx ADD CONSTRAINT half CHECK (extract(dow FROM d) / 2 <> 1.5)",
                        "ALTER TABLE cx ADD CONSTRAINT whole CHECK (date_part('dow', d) / 2 <> 1)",
                        "UPDATE cx SET ts = '2024-01-01 00:00:02.55' WHERE id = 4",
                        "UPDATE cx SET ts = '2024-01-01 00:00:02.45' WHERE id = 4"),
                mismatches);
        InProcessTributary.execScript(pg, "REFRESH MATERIALIZED VIEW cx_m");
        compare(
                List.of(
                        "SELECT * FROM cx_m ORDER BY id",
                        "CREATE TABLE cxp (k int PRIMARY KEY)",
                        "INSERT INTO cxp VALUES (2), (7)",
                        "CREATE TABLE cxc (id int PRIMARY KEY, p int"
                                + " DEFAULT extract(dow FROM DATE '2024-03-05') / 4 * 4 REFERENCES cxp ON DELETE SET DEFAULT)",
                        "INSERT INTO cxc VALUES (1, 7)",
                        "DELETE FROM cxp WHERE k = 7",
                        "SELECT * FROM cxc"),
                mismatches);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Runs each of {@code statements} on both, adding to {@code mismatches} each whose outcomes differ. */
    private static void compare(List<String> statements, List<String> mismatches) {
        mismatches.addAll(
                StatementOutcome.mismatches(pg, tributary.connection, statements, StatementOutcome::withMessage));
    }
}
