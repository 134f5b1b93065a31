package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Column DEFAULTs calling volatile functions ({@code gen_random_uuid()}, {@code random()}, {@code
 * clock_timestamp()}) take a value per inserted row, as in PostgreSQL, on every INSERT path:
 * INSERT ... SELECT, constant VALUES leaving a column out or saying DEFAULT, a VALUES planned as a
 * query, ON CONFLICT and RETURNING; {@code now()} and constant defaults stay one value per
 * statement (per transaction for {@code now()}). The values are random, so their counts are
 * compared with an embedded PostgreSQL's.
 */
class VolatileDefaultsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE vd (id int PRIMARY KEY, g uuid DEFAULT gen_random_uuid(), r float8 DEFAULT random(),"
                    + " c timestamptz DEFAULT clock_timestamp(), t timestamptz DEFAULT now(), k int DEFAULT 7,"
                    + " s text DEFAULT md5(random()::text))",
            "INSERT INTO vd (id) SELECT x FROM generate_series(1, 1000) x",
            "SELECT count(DISTINCT g) AS g, count(DISTINCT r) AS r, count(DISTINCT c) > 1 AS c,"
                    + " count(DISTINCT t) AS t, count(DISTINCT k) AS k, count(DISTINCT s) AS s, count(*) AS n FROM vd",
            // constant rows, leaving the columns out or saying DEFAULT
            "INSERT INTO vd (id) VALUES (1001), (1002), (1003)",
            "INSERT INTO vd (id, g, r) VALUES (1004, DEFAULT, 0.5), (1005, DEFAULT, DEFAULT), (1006, DEFAULT, 0.5)",
            // a VALUES with expressions is planned as a query
            "INSERT INTO vd (id, g) VALUES (1007, DEFAULT), (1000 + 8, DEFAULT)",
            "SELECT count(DISTINCT g) AS g, count(DISTINCT r) AS r, count(DISTINCT t) AS t, count(*) AS n FROM vd",
            "INSERT INTO vd (id) SELECT x FROM generate_series(1001, 1012) x ON CONFLICT DO NOTHING",
            "INSERT INTO vd (id) VALUES (2001), (2002) RETURNING id, g IS NOT NULL AS has_g, k",
            "SELECT count(DISTINCT g) AS g, count(DISTINCT s) AS s, count(*) AS n FROM vd",
            // now() is the transaction's, however many statements and rows
            "CREATE TABLE vt (id int PRIMARY KEY, t timestamptz DEFAULT now(), g uuid DEFAULT gen_random_uuid())",
            "BEGIN",
            "INSERT INTO vt (id) SELECT x FROM generate_series(1, 50) x",
            "INSERT INTO vt (id) VALUES (51), (52)",
            "COMMIT",
            "SELECT count(DISTINCT t) AS t, count(DISTINCT g) AS g, count(*) AS n FROM vt",
            "INSERT INTO vt (id) SELECT x FROM generate_series(100, 99) x",
            "SELECT count(*) AS n FROM vt",
            // UPDATE ... SET c = DEFAULT takes the column's DEFAULT (NULL without one), a volatile one per row
            "CREATE TABLE ud (id int PRIMARY KEY, c int DEFAULT 7, d text DEFAULT 'x', n int,"
                    + " t timestamptz DEFAULT now(), g uuid DEFAULT gen_random_uuid())",
            "INSERT INTO ud (id, c, d, n) VALUES (1, 1, 'a', 5), (2, 2, 'b', 6), (3, 3, 'c', 7)",
            "UPDATE ud SET c = DEFAULT WHERE id = 1",
            "UPDATE ud SET c = DEFAULT, d = DEFAULT, n = DEFAULT WHERE id = 2",
            "UPDATE ud SET n = n + 1, d = DEFAULT WHERE id = 3 RETURNING id, c, d, n",
            "SELECT id, c, d, n FROM ud ORDER BY id",
            "UPDATE ud SET g = DEFAULT, t = DEFAULT",
            "SELECT count(DISTINCT g) AS g, count(DISTINCT t) AS t, count(*) AS n FROM ud",
            "BEGIN",
            "UPDATE ud SET t = DEFAULT WHERE id = 1",
            "SELECT count(*) AS n FROM ud WHERE t = now()",
            "COMMIT",
            "UPDATE ud SET c = (DEFAULT) WHERE id = 1",
            "UPDATE ud SET c = DEFAULT + 1 WHERE id = 1");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("volatile-defaults-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void volatileDefaultsTakeAValuePerRow() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
