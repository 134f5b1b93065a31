package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The size functions GUI clients' table lists call, on Tributary and on an embedded PostgreSQL:
 * {@code pg_size_pretty} must print PostgreSQL's text for every value (units, rounding half away
 * from zero, negatives, the 10 kB and 20-of-a-unit boundaries, numeric arguments with a scale);
 * the relation and database sizes are the store's own figures, so what is compared is their type,
 * that a relation with rows has some, that a plain view has none (0) and that an unknown OID has
 * NULL, as in PostgreSQL.
 */
class SizeFunctionsDifferentialTest {
    /** Values around each boundary of each unit, both signs. */
    private static final String EDGES = "SELECT v, pg_size_pretty(v) AS p, pg_size_pretty(v::numeric) AS n FROM (VALUES"
            + " (0::bigint), (1), (-1), (1023), (1024), (10239), (10240), (-10239), (-10240), (10751), (10752),"
            + " (20479), (20480), (20991), (20992), (10485247), (10485248), (21474836479), (21474836480),"
            + " (10995116277759), (10995116277760), (1125899906842624), (-1125899906842624),"
            + " (9223372036854775807), (-9223372036854775807)) AS x(v) ORDER BY v";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE sz (id INT PRIMARY KEY, s TEXT)",
            "INSERT INTO sz SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g",
            "CREATE VIEW szv AS SELECT id FROM sz",
            EDGES,
            // a sweep over many magnitudes, of both signs
            "SELECT g, pg_size_pretty(g::bigint * g * g * g * g * 7919) AS p FROM generate_series(-400, 400) g ORDER BY g",
            "SELECT g, pg_size_pretty(g * 100000007::bigint + 513) AS p FROM generate_series(-60, 60) g ORDER BY g",
            "SELECT pg_size_pretty(1.5) AS a, pg_size_pretty(-10239.99) AS b, pg_size_pretty(10240.5) AS c,"
                    + " pg_size_pretty(123456789012345678901234567890::numeric) AS d, pg_size_pretty(NULL::bigint) AS e",
            "SELECT pg_relation_size(0) AS a, pg_table_size(0) AS b, pg_indexes_size(0) AS c,"
                    + " pg_total_relation_size(0) AS d",
            "SELECT pg_relation_size('szv') AS a, pg_table_size('szv') AS b, pg_indexes_size('szv') AS c,"
                    + " pg_total_relation_size('szv') AS d",
            "SELECT pg_relation_size('sz') > 0 AS a, pg_total_relation_size('sz'::regclass) >= pg_relation_size('sz')"
                    + " AS b, pg_database_size('dev') > 0 AS c, pg_database_size(current_database()) > 0 AS d",
            "SELECT c.relname, pg_relation_size(c.oid) > 0 AS has_rows, pg_table_size(c.oid) >= pg_relation_size(c.oid)"
                    + " AS tbl FROM pg_class c WHERE c.relname IN ('sz', 'szv') ORDER BY 1",
            "SELECT d.datname, pg_database_size(d.oid) > 0 AS a, pg_database_size(d.datname) = pg_database_size(d.oid)"
                    + " AS b FROM pg_database d WHERE d.datname = 'dev'",
            "SELECT pg_relation_size('nosuch') AS a");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("size-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void sizeFunctionsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
