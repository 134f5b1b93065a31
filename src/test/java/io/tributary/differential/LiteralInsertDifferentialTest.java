package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.differential.StepwiseComparison.Prepared;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code INSERT ... VALUES} of constants and parameters, which Tributary reads and plans without
 * Calcite ({@code LiteralInsertText}): every type the path assigns into, the coercions PostgreSQL
 * makes of an untyped constant (a string into a number, a fraction into an integer, which rounds),
 * escape strings and casts of a string to the column's type, the errors of a bad constant (22P02,
 * 22003, 22001, 23502, 23505, 22008), several rows with a bad one among them, DEFAULT and omitted
 * columns of a SERIAL and a DEFAULT column; and shapes that must take the general path (RETURNING,
 * ON CONFLICT, other casts and escapes, expressions, a quoted or qualified name). They run in order
 * on Tributary and on an embedded PostgreSQL, as text and prepared; each statement's count or
 * SQLSTATE and the tables after it must be the same.
 */
class LiteralInsertDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE ins (id BIGINT PRIMARY KEY, n INT NOT NULL, s SMALLINT, amount NUMERIC(10,2),"
                    + " name VARCHAR(5), note TEXT, flag BOOLEAN, d DATE, ts TIMESTAMP)",
            "CREATE TABLE insd (id SERIAL PRIMARY KEY, v INT DEFAULT 7, w TEXT)");

    /** Statements with their constants in the text. */
    private static final List<String> LITERAL = List.of(
            "INSERT INTO ins VALUES (1, '5', 1, 5, 'abc', 'x', 't', '2024-01-01', '2024-01-01')",
            "INSERT INTO ins (id, n) VALUES (2, 1.5)",
            "INSERT INTO ins (id, n) VALUES (3, 2.5), (4, -2.5), (5, -0.5), (6, -7)",
            "INSERT INTO ins (id, n) VALUES (7, 'abc')",
            "INSERT INTO ins (id, n) VALUES (8, 2147483648)",
            "INSERT INTO ins (id, n) VALUES (8, '2147483648')",
            "INSERT INTO ins (id, n, s) VALUES (9, 1, 40000)",
            "INSERT INTO ins (id, n, s) VALUES (9, 1, -32768)",
            "INSERT INTO ins (id, n, name) VALUES (10, 1, 'toolong')",
            "INSERT INTO ins (id, n, name) VALUES (10, 1, 'ab   ')",
            "INSERT INTO ins (id, n) VALUES (11, NULL)",
            "INSERT INTO ins (id, n, amount) VALUES (12, 1, 123.456), (13, 1, -0.005), (14, 1, '7.125')",
            "INSERT INTO ins (id, n, amount) VALUES (15, 1, 123456789.5)",
            "INSERT INTO ins (id, n, amount) VALUES (15, 1, 'x')",
            "INSERT INTO ins (id, n, flag) VALUES (16, 1, true), (17, 1, FALSE), (18, 1, 'f'), (19, 1, 'yes')",
            "INSERT INTO ins (id, n, flag) VALUES (20, 1, 'maybe')",
            "INSERT INTO ins (id, n, d, ts) VALUES (21, 1, '2024-02-29', '2024-01-01 10:11:12.5')",
            "INSERT INTO ins (id, n, d) VALUES (22, 1, '2024-02-30')",
            "INSERT INTO ins (id, n, ts) VALUES (22, 1, 'noon')",
            "INSERT INTO ins (id, n, note, name) VALUES (23, 1, E'a\\tb\\nc', E'it\\'s'), (24, 1, e'\\\\x', E'''q')",
            "INSERT INTO ins (id, n, note) VALUES (25, 1, 'back\\slash'), (26, 1, 'it''s')",
            "INSERT INTO ins (id, n, s, amount, note) VALUES (27, '5'::int, '3'::smallint, '1.255'::numeric,"
                    + " 'x'::text)",
            "INSERT INTO ins (id, n, name, flag, d, ts) VALUES (28, '6'::integer, 'abc'::varchar, 't'::boolean,"
                    + " '2024-01-01'::date, '2024-01-01 01:02:03'::timestamp)",
            "INSERT INTO ins (id, n) VALUES (29, 'abc'::int)",
            "INSERT INTO ins (id, n) VALUES (29, '1.5'::int4)",
            "INSERT INTO ins (id, n, name) VALUES (29, 1, 'abcdefg'::varchar)",
            "INSERT INTO ins (id, n) VALUES (30, -5), (31, 0), (32, 007)",
            "INSERT INTO ins (id, n) VALUES (33, 1), (34, 'x'), (35, 3)",
            "INSERT INTO ins (id, n) VALUES (36, 1), (1, 2)",
            "INSERT INTO ins (id, n) VALUES (37, 1), (37, 2)",
            "INSERT INTO ins VALUES (38, 1)",
            "INSERT INTO ins (id) VALUES (39, 1)",
            "INSERT INTO ins (id, n, note) VALUES (40, 1, 5)",
            "INSERT INTO ins (id, n) VALUES (41, true)",
            "INSERT INTO ins (id, n, flag) VALUES (42, 1, 1)",
            "INSERT INTO ins (id, n) VALUES (43, DEFAULT)",
            "INSERT INTO ins (id, n, nope) VALUES (44, 1, 2)",
            "INSERT INTO nosuch VALUES (1)",
            "INSERT INTO insd (w) VALUES ('a'), ('b')",
            "INSERT INTO insd (v, w) VALUES (DEFAULT, 'c'), (1, DEFAULT)",
            "INSERT INTO insd VALUES (DEFAULT, 2, 'd')",
            // shapes that take the general path
            "INSERT INTO ins (id, n) VALUES (50, 1) RETURNING id, n",
            "INSERT INTO ins (id, n) VALUES (50, 2) ON CONFLICT DO NOTHING",
            "INSERT INTO ins (id, n) VALUES (50, 3) ON CONFLICT (id) DO UPDATE SET n = excluded.n",
            "INSERT INTO ins (id, n) VALUES (51, 1 + 1), (52, 1e3)",
            "INSERT INTO \"ins\" (id, n) VALUES (53, 1)",
            "INSERT INTO public.ins (id, n) VALUES (54, 1);",
            "INSERT INTO ins (id, n, note) VALUES (55, '5'::int8, E'\\x41\\101')",
            "INSERT INTO ins (id, n, name) VALUES (56, 1, 'abcdefg'::varchar(3))",
            "INSERT INTO ins (id, n, amount) VALUES (57, 1, '5'::int)");

    private static final String FIVE = "INSERT INTO ins (id, n, amount, name, flag) VALUES (?, ?, ?, ?, ?)";

    /** Statements prepared with parameters, as pgjdbc binds them. */
    private static final List<Prepared> PREPARED = List.of(
            new Prepared(FIVE, List.of(100L, 5, new BigDecimal("1.005"), "abc", true)),
            new Prepared(FIVE, Arrays.asList(101L, null, null, null, null)),
            new Prepared(FIVE, Arrays.asList(102L, 3_000_000_000L, null, null, null)),
            new Prepared(FIVE, Arrays.asList(103L, 1, new BigDecimal("123456789"), null, null)),
            new Prepared(FIVE, Arrays.asList(104L, 1, null, "toolong", null)),
            new Prepared(FIVE, Arrays.asList(105L, new BigDecimal("2.5"), new BigDecimal("-0.015"), "", false)),
            new Prepared(FIVE, Arrays.asList(100L, 1, null, null, null)),
            new Prepared(
                    "INSERT INTO ins (id, n, note) VALUES (?, ?, ?), (?, ?, 'lit'), ($1 + 10, 2, ?)",
                    List.of(106L, 1, "p", 107L, 2, "q")),
            new Prepared(
                    "INSERT INTO ins (id, n, note) VALUES (?, ?, ?), (?, ?, 'lit')", List.of(108L, 1, "p", 109L, 2)),
            new Prepared(
                    "INSERT INTO ins (id, n, d, ts) VALUES (?, 1, ?, ?)",
                    List.of(
                            110L,
                            java.sql.Date.valueOf("2024-03-01"),
                            java.sql.Timestamp.valueOf("2024-03-01 04:05:06.5"))),
            new Prepared("INSERT INTO ins VALUES ($1, $2)", List.of(111L, 7)),
            new Prepared("INSERT INTO ins (id, n) VALUES ($2, $1)", List.of(8, 112L)),
            new Prepared("INSERT INTO ins (id, n, s) VALUES (?, ?, ?)", List.of(113L, 1, 70000)),
            new Prepared("INSERT INTO insd (v, w) VALUES (?, ?), (DEFAULT, ?)", List.of(5, "e", "f")),
            new Prepared("INSERT INTO ins (id, n) VALUES (?, ?) RETURNING n", List.of(114L, 3)));

    private static StepwiseComparison servers;

    @BeforeAll
    static void start() throws Exception {
        servers = StepwiseComparison.start(
                "literal-insert-diff-",
                SETUP,
                List.of("SELECT * FROM ins ORDER BY id", "SELECT * FROM insd ORDER BY id"));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(servers);
    }

    @Test
    void insertsLikePostgres() {
        assertEquals(List.of(), servers.mismatches(LITERAL, PREPARED));
    }
}
