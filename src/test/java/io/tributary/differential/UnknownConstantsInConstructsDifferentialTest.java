package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A string constant (type unknown) outside a binary operator, against embedded PostgreSQL: in IN
 * lists, BETWEEN bounds, COALESCE, CASE, GREATEST, LEAST and NULLIF it takes the type of the typed
 * operands and is read by that type's input function ({@code b IN ('t', 'f')}, {@code x IN ('1')},
 * {@code coalesce(d, '2024-01-01')}); bad text is that type's input error (22P02, 22007, 22008)
 * with PostgreSQL's cursor position. Compared exactly: rows with labels and JDBC types, or
 * SQLSTATE, message, HINT and position. In queries, a materialized view's WHERE kept through
 * writes, and INSERT ... SELECT.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UnknownConstantsInConstructsDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE t (id INT PRIMARY KEY, b BOOLEAN, iv INTERVAL, d DATE, ts TIMESTAMP, n NUMERIC, x INT);"
                    + "INSERT INTO t VALUES (1, true, INTERVAL '2 hours', DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00',"
                    + " 1.5, 1),"
                    + " (2, false, INTERVAL '3 days', DATE '2024-06-01', TIMESTAMP '2024-06-01 12:00', 2, 3),"
                    + " (3, NULL, NULL, NULL, NULL, NULL, NULL),"
                    + " (4, true, INTERVAL '30 minutes', DATE '2025-02-01', TIMESTAMP '2025-02-01 00:00', -7.25, 5)";

    private static final List<String> QUERIES = List.of(
            "SELECT id FROM t WHERE b IN ('t', 'f') ORDER BY id",
            "SELECT id FROM t WHERE b IN ('yes') ORDER BY id",
            "SELECT id, b NOT IN ('off') AS c FROM t ORDER BY id",
            "SELECT id FROM t WHERE x IN ('1', '2') ORDER BY id",
            "SELECT id FROM t WHERE x NOT IN (' 3 ', '5') ORDER BY id",
            "SELECT id FROM t WHERE n IN ('1.5', '-7.25') ORDER BY id",
            "SELECT id FROM t WHERE d IN ('2024-01-01') ORDER BY id",
            "SELECT id FROM t WHERE d IN ('2024-01-01', '2024-06-01 00:00') ORDER BY id",
            "SELECT id FROM t WHERE ts NOT IN ('2024-01-01 00:00') ORDER BY id",
            "SELECT id, coalesce(b, 'f') AS c FROM t ORDER BY id",
            "SELECT id, coalesce(d, '2024-01-01') AS c FROM t ORDER BY id",
            "SELECT id, coalesce(x, '7') AS c, coalesce(n, '0.50') AS e FROM t ORDER BY id",
            "SELECT id, coalesce(ts, '2000-01-01') AS e FROM t ORDER BY id",
            "SELECT id FROM t WHERE iv BETWEEN '1 hour' AND '1 day' ORDER BY id",
            "SELECT id FROM t WHERE d BETWEEN '2024-01-01' AND '2024-12-31' ORDER BY id",
            "SELECT id FROM t WHERE x NOT BETWEEN '2' AND '4' ORDER BY id",
            "SELECT id FROM t WHERE ts BETWEEN '2024-01-01' AND '2024-06-01 12:00' ORDER BY id",
            "SELECT id, CASE WHEN id = 1 THEN d ELSE '2024-01-01' END AS c FROM t ORDER BY id",
            "SELECT id, CASE WHEN b THEN 'yes' ELSE b END AS c FROM t ORDER BY id",
            "SELECT id, greatest(x, '5') AS g, least(x, '2') AS l FROM t ORDER BY id",
            "SELECT id, greatest(d, '2024-03-01') AS g, least(ts, '2024-03-01 10:00') AS l FROM t ORDER BY id",
            "SELECT id FROM t WHERE x = '3' OR d < '2024-01-02' OR n = '2.00' ORDER BY id",
            "SELECT id, nullif(x, '3') AS c FROM t ORDER BY id",
            "SELECT id, nullif(b, 't') AS c, nullif(d, '2024-01-01') AS e FROM t ORDER BY id",
            "SELECT id, least(d, '2024-01-15', ts) AS l, greatest(d, '2024-01-15', ts) AS g FROM t ORDER BY id",
            "SELECT id, least(d, ts) AS l, greatest(ts, d, NULL) AS g FROM t ORDER BY id",
            "SELECT id, array[x, '7'] AS a, array['7', x] AS b, array[x, NULL, '8'] AS c FROM t ORDER BY id",
            "SELECT id, array[d, '2024-01-15'] AS a, array['t', b] AS c FROM t ORDER BY id",
            "SELECT array[x, 'z'] FROM t",
            "SELECT least(d, 'soon', ts) FROM t");

    /** String constants beside an interval column: read as intervals, as PostgreSQL reads them. */
    private static final List<String> INTERVALS = List.of(
            "SELECT id FROM t WHERE iv IN ('30 minutes', '2 hours') ORDER BY id",
            "SELECT id FROM t WHERE iv NOT IN ('72 hours') ORDER BY id",
            "SELECT id, coalesce(iv, '1 day') AS c FROM t ORDER BY id",
            "SELECT id, coalesce(iv, NULL, '1 mon') AS c FROM t ORDER BY id",
            "SELECT id, CASE WHEN id > 1 THEN iv ELSE '1 hour' END AS c FROM t ORDER BY id",
            "SELECT id, CASE WHEN b THEN '1 day' WHEN id = 2 THEN iv END AS c FROM t ORDER BY id",
            "SELECT id, least(iv, '1 day') AS l, greatest(iv, '3 hours', '1 hour') AS g FROM t ORDER BY id",
            "SELECT id, nullif(iv, '2 hours') AS c FROM t ORDER BY id",
            "SELECT id FROM t WHERE iv = '2 hours' OR iv > '2 days' ORDER BY id",
            "SELECT id FROM t WHERE coalesce(iv, '0') < '1 day' ORDER BY id",
            "SELECT id FROM t WHERE iv IN ('1 dya')",
            "SELECT coalesce(iv, 'x') FROM t",
            "SELECT least(iv, '1 hour', 'soon') FROM t");

    /** Text the resolved type's input function refuses. */
    private static final List<String> BAD_TEXT = List.of(
            "SELECT id FROM t WHERE b IN ('t', 'x')",
            "SELECT id FROM t WHERE x IN ('1', 'a')",
            "SELECT id FROM t WHERE x IN ('1.5')",
            "SELECT id FROM t WHERE d IN ('2024-02-30')",
            "SELECT id FROM t WHERE d IN ('2024-01-01', 'soon')",
            "SELECT id FROM t WHERE ts NOT IN ('2024-01-01 25:00')",
            "SELECT coalesce(b, 'maybe') FROM t",
            "SELECT coalesce(d, 'x') FROM t",
            "SELECT id FROM t WHERE x = 'a'",
            "SELECT id FROM t WHERE d BETWEEN 'x' AND '2024-12-31'",
            "SELECT CASE WHEN true THEN d ELSE 'zz' END FROM t",
            "SELECT greatest(x, 'a') FROM t",
            "SELECT nullif(x, 'b') FROM t");

    private static final String VIEW =
            "CREATE MATERIALIZED VIEW tv AS SELECT id, coalesce(d, '2024-01-01') AS c, coalesce(b, 'f') AS e,"
                    + " greatest(x, '2') AS g FROM t WHERE b IN ('t', 'f') OR x IN ('1', '2') OR"
                    + " d BETWEEN '2024-01-01' AND '2024-12-31'";

    private static final String WRITES = "INSERT INTO t VALUES (5, NULL, NULL, DATE '2024-07-04', NULL, NULL, 2),"
            + " (6, NULL, NULL, NULL, NULL, NULL, 9);"
            + "UPDATE t SET b = NULL, d = DATE '2023-01-01' WHERE id = 4;"
            + "UPDATE t SET b = false WHERE id = 3";

    @RegisterExtension
    static final ComparedPair BOTH =
            new ComparedPair("unknown-constructs-diff-", SETUP, new ComparedOutcomes(true, true, true));

    @Test
    void stringConstantsInListsAndConditionalsAnswerLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(QUERIES));
    }

    @Test
    void stringConstantsBesideAnIntervalAreIntervals() {
        assertEquals(List.of(), BOTH.mismatches(INTERVALS));
    }

    @Test
    void badTextIsTheResolvedTypesInputErrorAtTheConstant() {
        assertEquals(List.of(), BOTH.mismatches(BAD_TEXT));
    }

    @Test
    void aMaterializedViewAndInsertSelectReadTheConstantsAlike() throws SQLException {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        VIEW,
                        "SELECT * FROM tv ORDER BY id",
                        "CREATE MATERIALIZED VIEW tbad AS SELECT id FROM t WHERE d IN ('2024-02-30')",
                        "CREATE TABLE t2 (id INT PRIMARY KEY, d DATE, b BOOLEAN, x INT)",
                        "INSERT INTO t2 SELECT id, coalesce(d, '2024-01-01'), coalesce(b, 'f'), nullif(x, '3')"
                                + " FROM t WHERE x IN ('1', '3') OR b IN ('t')",
                        "SELECT * FROM t2 ORDER BY id",
                        "INSERT INTO t2 SELECT id + 10, coalesce(d, 'never') FROM t",
                        "INSERT INTO t2 (id, d) SELECT id + 10, d FROM t WHERE x = 'a'",
                        "INSERT INTO t2 (id, d) SELECT id + 10, nosuch FROM t")));
        BOTH.runOnBoth(WRITES);
        String query = VIEW.substring("CREATE MATERIALIZED VIEW tv AS ".length());
        assertEquals(BOTH.onPostgres(query + " ORDER BY id"), BOTH.onTributary("SELECT * FROM tv ORDER BY id"));
    }
}
