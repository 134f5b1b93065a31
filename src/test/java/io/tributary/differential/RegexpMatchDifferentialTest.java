package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code regexp_match} and subscripts of its {@code text[]}, in queries and in a materialized view,
 * run in order on Tributary and on an embedded PostgreSQL: each statement's rows (labels and JDBC
 * types) or SQLSTATE must match. The patterns cover what PostgreSQL's AREs and Java's regexes write
 * differently ({@code \y}, {@code \m}, {@code [[:digit:]]}, a leading {@code ]}, {@code $} before a
 * final newline, newline-sensitive flags) and the errors (bad pattern 2201B, bad flag 22023).
 */
class RegexpMatchDifferentialTest {
    private static final String CHANNEL = "'(&|^)channel_id=([^&]*)'";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE rx (id INT PRIMARY KEY, s TEXT, p TEXT, f TEXT)",
            "INSERT INTO rx VALUES (1, 'a=1&channel_id=42&x=1', '(&|^)channel_id=([^&]*)', 'c'),"
                    + " (2, 'channel_id=7', '(&|^)channel_id=([^&]*)', 'c'),"
                    + " (3, 'https://x.com/a/item.htm?channel_id=9', '(&|^)channel_id=([^&]*)', 'c'),"
                    + " (4, NULL, '(a)', 'c'), (5, 'foobarbequebaz', '(bar)(beque)', 'c'),"
                    + " (6, 'abc', 'b', 'c'), (7, 'abc', '(x)?b', 'c'), (8, 'Hello World', '(w\\w+)', 'i'),"
                    + " (9, E'one\\ntwo', '^(t\\w+)$', 'n'), (10, E'ab\\n', 'b$', 'c'), (11, E'a\\nb', 'a.b', 'c'),"
                    + " (12, E'a\\nb', 'a.b', 'n'), (13, E'a\\nb', 'a[^x]b', 'p'), (14, 'ABC', 'b', 'ic'),"
                    + " (15, 'x]y', '[]x]+', 'c'), (16, 'tel 555-1234', '([[:digit:]]+)-([[:digit:]]+)', 'c'),"
                    + " (17, 'the cat sat', '\\y(c\\w+)\\y', 'c'), (18, 'the cat sat', '\\m(s\\w*)\\M', 'c'),"
                    + " (19, 'a+b', 'a\\+b', 'c'), (20, 'xxaaa', 'a{2,}', 'c'), (21, 'aaa', '(a+)(a*)', 'c'),"
                    + " (22, 'a&b', '[&]', 'c'), (23, 'a[b', '[[]', 'c'), (24, 'a.b', 'a.b', 'q'),"
                    + " (25, 'abc', '(?:a)(b)(?=c)', 'c'), (26, 'abc', 'z', 'c'), (27, '', '^$', 'c'),"
                    + " (28, 'ééab', '(é+)a', 'c'), (29, 'a b', 'a[ ]b', 'x'), (30, 'a b c', 'a \\s b', 'x')",
            "SELECT id, (regexp_match(s, p))[1] AS m1, (regexp_match(s, p))[2] AS m2, (regexp_match(s, p))[3] AS m3,"
                    + " (regexp_match(s, p))[0] AS m0, (regexp_match(s, p))[-1] AS mneg FROM rx ORDER BY id",
            "SELECT id, (regexp_match(s, p, f))[1] AS m1, (regexp_match(s, p, f))[2] AS m2 FROM rx ORDER BY id",
            "SELECT id, regexp_match(s, p) IS NULL AS none FROM rx ORDER BY id",
            "SELECT id, (regexp_match(s, " + CHANNEL + "))[2] AS ch FROM rx" + " WHERE (regexp_match(s, " + CHANNEL
                    + "))[2] IS NOT NULL ORDER BY id",
            "SELECT id, CASE WHEN lower(s) = 'abc' THEN '0' ELSE (regexp_match(s, " + CHANNEL + "))[2] END AS c"
                    + " FROM rx ORDER BY id",
            "SELECT id, (regexp_match(s, '(\\w)(\\w)?$'))[2] AS last FROM rx ORDER BY id",
            "SELECT (regexp_match('foobarbequebaz', 'bar.*que'))[1] AS a, (regexp_match('abc', NULL))[1] AS b",
            "SELECT (regexp_match(NULL, 'a'))[1] AS a, (regexp_match('abc', 'B', 'i'))[1] AS b",
            // a materialized view keeps the element, a text column
            "CREATE MATERIALIZED VIEW rxv AS SELECT id, (regexp_match(s, p))[1] AS m1," + " (regexp_match(s, " + CHANNEL
                    + "))[2] AS ch FROM rx",
            "SELECT * FROM rxv ORDER BY id",
            // errors: a bad pattern, a bad flag, the global flag, Java-only syntax
            "SELECT (regexp_match(s, '(a'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, 'a[b'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, 'a', 'z'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, 'a', 'g'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, 'a*+'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, '\\Qa\\E'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, '\\p{Alpha}'))[1] AS a FROM rx",
            "SELECT (regexp_match(s, '[[:foo:]]'))[1] AS a FROM rx",
            "SELECT (regexp_match('a', '('))[1] AS a",
            "SELECT (regexp_match('a', 'a', 'g'))[1] AS a",
            // regexp_split_to_array and regexp_split_to_table: PostgreSQL's pieces, empty matches included
            "SELECT id, array_to_string(regexp_split_to_array(s, p), '|', '~') AS pieces,"
                    + " array_length(regexp_split_to_array(s, p, f), 1) AS n FROM rx WHERE f <> 'q' ORDER BY id",
            "SELECT array_to_string(regexp_split_to_array('a b  c', '\\s+'), '|') AS a,"
                    + " array_to_string(regexp_split_to_array('abc', ''), '|') AS b,"
                    + " array_to_string(regexp_split_to_array(',a,b,', ','), '|') AS c,"
                    + " array_to_string(regexp_split_to_array('a1b22c', '\\d*'), '|') AS d,"
                    + " array_length(regexp_split_to_array('', ','), 1) AS e,"
                    + " (regexp_split_to_array('aXbxc', 'x', 'i'))[2] AS f, regexp_split_to_array(NULL, 'x') IS NULL AS g",
            "SELECT regexp_split_to_array('abc', 'b', 'g') IS NULL AS a",
            "SELECT regexp_split_to_table('the quick  brown', '\\s+')",
            "SELECT regexp_split_to_table('x,,y', ',') AS w, 1 AS n",
            "SELECT id, regexp_split_to_table(s, ' ') AS word FROM rx WHERE id IN (4, 8, 17, 30) ORDER BY id, word",
            "SELECT * FROM regexp_split_to_table('the quick  brown', '\\s+')",
            "SELECT w FROM regexp_split_to_table('x,,y', ',') AS w",
            "SELECT t.x FROM regexp_split_to_table('aXbxc', 'x', 'i') AS t(x)",
            "SELECT rx.id, w FROM rx, regexp_split_to_table(rx.s, ' ') w WHERE rx.id IN (4, 8, 17, 30) ORDER BY 1, 2",
            "SELECT rx.id, w.piece FROM rx CROSS JOIN LATERAL regexp_split_to_table(rx.s, ' ') AS w(piece)"
                    + " WHERE rx.id IN (4, 8) ORDER BY 1, 2");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("regexp-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void regexpMatchAnswersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Rows written after the materialized view exists reach it through its operators (not the
     * backfill): its rows must be what PostgreSQL's query gives over the same table (a PostgreSQL
     * materialized view would need a REFRESH).
     */
    @Test
    void viewFollowsWritesAsPostgresQueries() {
        for (String sql : List.of(
                "CREATE TABLE rxl (id INT PRIMARY KEY, s TEXT, p TEXT)",
                "CREATE MATERIALIZED VIEW rxl_v AS SELECT id, (regexp_match(s, p))[1] AS m1," + " (regexp_match(s, "
                        + CHANNEL + "))[2] AS ch FROM rxl")) {
            pair.both(sql);
        }
        pair.both("INSERT INTO rxl VALUES (1, 'channel_id=8&z', '(z)'), (2, 'x&channel_id=', '(x)(y)?'),"
                + " (3, NULL, 'a'), (4, 'abc', '(?:b)(c)')");
        pair.both("UPDATE rxl SET s = 'q&channel_id=5' WHERE id = 4");
        String query = "SELECT id, (regexp_match(s, p))[1] AS m1, (regexp_match(s, " + CHANNEL + "))[2] AS ch"
                + " FROM rxl ORDER BY id";
        assertEquals(
                StatementOutcome.of(pair.pg, query, true),
                StatementOutcome.of(pair.tributary.connection, "SELECT * FROM rxl_v ORDER BY id", true));
    }

    /**
     * A bare {@code regexp_match} result is a {@code text[]} column, printed as PostgreSQL prints it
     * (NULL elements, quoting), in queries and in a materialized view kept through writes.
     */
    @Test
    void textArrayResultsAnswerAsPostgres() {
        List<String> mismatches = new java.util.ArrayList<>(pair.mismatches(List.of(
                "CREATE TABLE rxr (id INT PRIMARY KEY, s TEXT)",
                "INSERT INTO rxr VALUES (1, 'a1-22'), (2, 'none'), (3, NULL), (4, 'x\"y 7-'), (5, 'q,r 1-')",
                "SELECT regexp_match('abc', '(b)') AS m, regexp_match('abc', '(x)?b') AS n",
                "SELECT id, regexp_match(s, '(\\d)-(\\d+)?') AS m, regexp_match(s, '(.)(.) ') FROM rxr ORDER BY id")));
        mismatches.addAll(pair.viewMismatches(
                List.of(new PostgresPair.FollowedView(
                        "rxr_v", "SELECT id, regexp_match(s, '(\\d)-(\\d+)?') AS m FROM rxr", "id")),
                List.of(
                        "INSERT INTO rxr VALUES (6, '9-10')",
                        "UPDATE rxr SET s = 'b 3-4' WHERE id = 2",
                        "DELETE FROM rxr WHERE id = 1")));
        assertEquals(List.of(), mismatches);
    }
}
