package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Statements Tributary answered with an internal error (XX000), a wrong SQLSTATE or a wrong answer
 * where PostgreSQL 14 answers, against embedded PostgreSQL: set operations and arrays of
 * Calcite's interval constants beside interval columns, sub-queries in window function calls,
 * PREPARE with declared parameter types, temporary relations, REFRESH MATERIALIZED VIEW
 * CONCURRENTLY, the two same-named columns of a derived table or WITH query, the connection's
 * addresses and ports, psql's {@code \dd}. Compared exactly: rows with labels and
 * type names, or SQLSTATE and message.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class InternalErrorGapsDifferentialTest {
    private static final String SETUP = "CREATE TABLE t (id INT PRIMARY KEY, iv INTERVAL, v INT);"
            + "INSERT INTO t VALUES (1, INTERVAL '1 day'), (2, INTERVAL '2 hours'), (3, INTERVAL '1 day'), (4, NULL);"
            + "CREATE MATERIALIZED VIEW m AS SELECT id FROM t";

    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("gaps-diff-", SETUP, new ComparedOutcomes(false, false));

    @Test
    void setOperationsAndArraysOfIntervalsAnswer() {
        assertEquals(
                List.of(),
                BOTH.mismatches(
                        List.of(
                                "SELECT iv FROM t UNION SELECT INTERVAL '2 hours' ORDER BY 1",
                                "SELECT INTERVAL '3 mons' AS c UNION ALL SELECT iv FROM t ORDER BY 1",
                                "SELECT iv FROM t INTERSECT SELECT INTERVAL '2 hours'",
                                "SELECT iv FROM t EXCEPT SELECT INTERVAL '2 hours' ORDER BY 1",
                                "SELECT INTERVAL '1 day' UNION SELECT INTERVAL '2 hours' ORDER BY 1",
                                "SELECT DISTINCT x FROM (VALUES (INTERVAL '1 day'), (INTERVAL '24 hours'), (INTERVAL '1 year')) v(x)"
                                        + " ORDER BY 1",
                                "SELECT array_agg(x) FROM (VALUES (INTERVAL '1 day'), (INTERVAL '1 hour')) v(x)",
                                "SELECT array_agg(x) AS a FROM (VALUES (INTERVAL '1 year'), (INTERVAL '1 month'), (NULL)) v(x)",
                                "SELECT array_agg(x ORDER BY x DESC) FROM (VALUES (INTERVAL '90 minutes'), (INTERVAL '2 hours')) v(x)")));
    }

    @Test
    void subqueriesInWindowFunctionCallsAreRefusedByName() {
        // PostgreSQL answers these; Calcite cannot plan them, so Tributary says which construct
        for (String sql : List.of(
                "SELECT count(*) FILTER (WHERE id IN (SELECT 1)) OVER () FROM t",
                "SELECT sum(CASE WHEN id IN (SELECT 1) THEN 1 END) OVER () FROM t",
                "SELECT sum(id) OVER (PARTITION BY id IN (SELECT 1)) FROM t")) {
            assertEquals(
                    "ERROR 0A000 a sub-query in a window function's arguments, FILTER or window is not supported",
                    BOTH.onTributary(sql),
                    sql);
        }
        assertEquals(List.of(), BOTH.mismatches(List.of("SELECT count(*) FILTER (WHERE id IN (SELECT 1)) FROM t")));
    }

    @Test
    void preparedStatementsTypeTheirDeclaredParameters() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "PREPARE gaps_p(text) AS SELECT $1 || '-' || $1",
                        "EXECUTE gaps_p('a')",
                        "PREPARE gaps_q(text, int) AS SELECT $1 || '-', $2 + 1 AS n",
                        "EXECUTE gaps_q('b', 41)")));
    }

    @Test
    void concurrentRefreshNeedsAUniqueIndexAViewCannotHave() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "REFRESH MATERIALIZED VIEW CONCURRENTLY m",
                        "REFRESH MATERIALIZED VIEW CONCURRENTLY public.m WITH DATA",
                        "REFRESH MATERIALIZED VIEW m",
                        "REFRESH MATERIALIZED VIEW CONCURRENTLY gaps_nosuch")));
    }

    @Test
    void temporaryRelationsAreRefusedAsSuch() {
        for (String sql : List.of(
                "CREATE TEMP VIEW gaps_v AS SELECT 1",
                "CREATE TEMPORARY TABLE gaps_t (a int)",
                "CREATE OR REPLACE TEMP VIEW gaps_v AS SELECT 1")) {
            String words = sql.substring(0, sql.indexOf(" gaps_"));
            assertEquals(
                    "ERROR 0A000 " + words + " is not supported: Tributary has no temporary tables, views or sequences",
                    BOTH.onTributary(sql),
                    sql);
        }
    }

    @Test
    void sameNamedColumnsOfDerivedTablesKeepTheirNames() {
        String c = "WITH c AS (SELECT a.id, b.id FROM t a JOIN t b ON a.id = b.id) ";
        String s = " FROM (SELECT a.id, b.id FROM t a JOIN t b ON a.id = b.id) s";
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        c + "SELECT * FROM c ORDER BY 1",
                        c + "SELECT id FROM c",
                        c + "SELECT id0 FROM c",
                        c + "SELECT c.id FROM c",
                        "SELECT *" + s + " ORDER BY 1",
                        "SELECT id0" + s,
                        "SELECT 1" + s + " WHERE id = 1",
                        "SELECT count(*)" + s,
                        "SELECT v0 FROM (SELECT * FROM t a JOIN t b ON a.id = b.id) s",
                        "SELECT id0 FROM (SELECT a.id, b.id AS id0 FROM t a JOIN t b ON a.id = b.id) s ORDER BY 1")));
    }

    @Test
    void connectionFunctionsAnswerForTheConnection() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "SELECT inet_client_addr() = inet_server_addr() AS same, inet_client_port() > 0 AS c,"
                                + " inet_server_port() > 0 AS s, pg_typeof(inet_server_port())::text AS t",
                        "SELECT pg_typeof(inet_client_port())::text AS t, inet_client_addr() IS NULL AS n")));
        // PostgreSQL's type is inet, which Tributary does not have: the address is its text
        assertEquals("[[inet_server_addr:text=127.0.0.1]]", BOTH.onTributary("SELECT inet_server_addr()"));
    }

    @Test
    void psqlsObjectDescriptionsRun() {
        // the parts of psql's \dd that call the visibility functions of operator classes and families
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "SELECT o.opcname FROM pg_catalog.pg_opclass o JOIN pg_catalog.pg_namespace n"
                                + " ON n.oid = o.opcnamespace AND n.nspname <> 'pg_catalog'"
                                + " AND n.nspname <> 'information_schema' AND pg_catalog.pg_opclass_is_visible(o.oid)",
                        "SELECT opf.opfname FROM pg_catalog.pg_opfamily opf JOIN pg_catalog.pg_namespace n"
                                + " ON opf.opfnamespace = n.oid AND n.nspname <> 'pg_catalog'"
                                + " AND pg_catalog.pg_opfamily_is_visible(opf.oid)")));
    }
}
