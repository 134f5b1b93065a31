package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Answers that differed from PostgreSQL's (issue 12, README "Known limits"), compared with
 * embedded PostgreSQL: GREATEST and LEAST skip NULL arguments and can be ordered by position or
 * alias, and over numbers of different scales keep each value's own, as a VALUES list of them
 * does; {@code concat()} adds a boolean as {@code t}/{@code f}; text that is no number cast to an
 * integer type names that type (22P02); a variance or deviation of an interval is 42883; a boolean as text is
 * {@code true}/{@code false}; a cast to {@code varchar(n)} is typed {@code varchar}. Each statement's outcome is
 * compared exactly: rows with labels and type names, or SQLSTATE and message. In queries, and in
 * materialized views (maintained by Tributary's own operators) read back after a write.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PostgresAnswersDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE t (id INT PRIMARY KEY, i INT, n NUMERIC(10, 2), u NUMERIC, b BOOLEAN, tx TEXT,"
                    + " iv INTERVAL);"
                    + "INSERT INTO t VALUES (1, 5, 3.50, 4.75, true, 'a', INTERVAL '1 day'),"
                    + " (2, NULL, 1.25, 2, false, 'b', INTERVAL '2 hours'), (3, 7, NULL, NULL, NULL, NULL, NULL)";

    private static final List<String> QUERIES = List.of(
            "SELECT greatest(i, id) FROM t ORDER BY 1",
            "SELECT least(i, id) AS l FROM t ORDER BY l DESC",
            "SELECT id, greatest(i, NULL) AS g, least(NULL, i, 6) AS l, greatest(1, NULL) AS c FROM t ORDER BY id",
            "SELECT greatest(tx, 'a0') AS g FROM t ORDER BY g",
            "SELECT id, least(i, '6', id) AS l FROM t ORDER BY 2, 1",
            "SELECT greatest(i, tx) FROM t",
            "SELECT greatest(NULL, NULL)",
            "SELECT id, concat(b, i, NULL, tx, b IS NULL, n) AS c FROM t ORDER BY id",
            "SELECT concat(true, NULL::boolean, 'x', 1 < 2)",
            "SELECT id, greatest(i, n, 1.5) AS g, least(u, i, 0.125) AS l FROM t ORDER BY id",
            "SELECT * FROM (VALUES (2.5), (1e10)) AS v(x)",
            "VALUES (1, 2.50), (2.125, 3), (NULL, 4)",
            "SELECT * FROM (VALUES (1), (2.5), (0.125)) AS v(x) ORDER BY x",
            "SELECT id, coalesce(n, '5') AS c, CASE WHEN b THEN u ELSE '7.0' END AS d, greatest(n, '2') AS g"
                    + " FROM t ORDER BY id",
            "VALUES (1.5), ('2'), (NULL)",
            "SELECT 1 UNION SELECT 'x'",
            "SELECT 'x'::int",
            "SELECT 'y'::bigint",
            "SELECT 'z'::smallint",
            "SELECT 'w'::numeric",
            "SELECT tx::int FROM t WHERE id = 1",
            "SELECT stddev(iv) FROM t",
            "SELECT id, variance(iv) FROM t GROUP BY id",
            "SELECT avg(i), var_pop(iv) FROM t",
            "SELECT stddev_samp(iv), stddev_pop(iv), var_samp(iv) FROM t",
            "SELECT stddev(i) AS s, variance(n) AS v FROM t",
            "SELECT id, b::text AS t, CAST(b AS text) AS v, b || 'x' AS x, upper(b::text) AS u FROM t ORDER BY id",
            "SELECT CAST(tx AS varchar(3)) AS a, 'abcdef'::varchar(2) AS b, CAST(id AS varchar(4)) AS c FROM t ORDER BY id",
            "SELECT (i > 4)::text AS gt, CAST(b AND i > 4 AS text) AS a FROM t ORDER BY id");

    private static final List<String> VIEWS = List.of(
            "CREATE MATERIALIZED VIEW v_greatest AS SELECT id, greatest(i, id, NULL) AS g, least(i, 6) AS l FROM t",
            "CREATE MATERIALIZED VIEW v_concat AS SELECT id, concat(b, '-', i, '-', b IS NULL) AS c FROM t",
            "CREATE MATERIALIZED VIEW v_scales AS SELECT id, greatest(i, n) AS g, least(u, 1) AS l,"
                    + " coalesce(n, '5') AS c FROM t",
            "CREATE MATERIALIZED VIEW v_bool_text AS SELECT id, b::text AS t, b || '!' AS x FROM t");

    private static final List<String> VIEW_READS = List.of(
            "SELECT * FROM v_greatest ORDER BY id",
            "SELECT * FROM v_concat ORDER BY id",
            "SELECT * FROM v_scales ORDER BY id",
            "SELECT * FROM v_bool_text ORDER BY id");

    /** PostgreSQL and Tributary, outcomes compared with types by name, errors without their hint. */
    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("pg-answers-diff-", SETUP, new ComparedOutcomes(false, false));

    @Test
    void queriesAnswerAsPostgres() {
        assertEquals(List.of(), BOTH.mismatches(QUERIES));
    }

    /**
     * Each view, kept by Tributary through an insert, an update and a delete, equals its query run
     * by PostgreSQL afterwards (PostgreSQL's materialized view is a snapshot; its query is the
     * oracle).
     */
    @Test
    void materializedViewsAnswerAsPostgres() throws SQLException {
        for (String view : VIEWS) {
            BOTH.runOnTributary(view);
        }
        String writes = "INSERT INTO t VALUES (4, 2, 9.99, 0.125, true, 'd', NULL); UPDATE t SET i = NULL, b = NULL"
                + " WHERE id = 1; DELETE FROM t WHERE id = 2";
        BOTH.runOnBoth(writes);
        List<String> mismatches = new ArrayList<>();
        for (int v = 0; v < VIEWS.size(); v++) {
            String query = VIEWS.get(v).substring(VIEWS.get(v).indexOf(" AS ") + 4) + " ORDER BY id";
            String expected = BOTH.onPostgres(query);
            String actual = BOTH.onTributary(VIEW_READS.get(v));
            if (!expected.equals(actual)) {
                mismatches.add(VIEWS.get(v) + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }
}
