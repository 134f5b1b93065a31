package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Set-returning calls in a select list ({@code SELECT generate_series(1, 3)}, {@code SELECT id,
 * unnest(string_to_array(tags, ','))}) and sorted one-column table functions, against embedded
 * PostgreSQL: rows with labels, or the SQLSTATE where PostgreSQL refuses the call's place.
 */
class SelectListSetFunctionsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE tagged (id INT PRIMARY KEY, name TEXT, tags TEXT)",
            "INSERT INTO tagged VALUES (1, 'ann', 'a,b'), (2, 'bob', NULL), (3, 'cy', 'c'), (4, 'di', '')");

    private static final List<String> QUERIES = List.of(
            "SELECT generate_series(1, 3)",
            "SELECT generate_series(1, 3) AS g ORDER BY g DESC",
            "SELECT generate_series(1, 10, 4) * 2 ORDER BY 1",
            "SELECT generate_series(5, 1, -2)",
            "SELECT generate_series(1, 0)",
            "SELECT id, generate_series(1, id) FROM tagged ORDER BY 1, 2",
            "SELECT id, generate_series(1, id) AS n FROM tagged WHERE id > 1 ORDER BY n DESC, id LIMIT 3",
            "SELECT id, unnest(string_to_array(tags, ',')) AS tag FROM tagged ORDER BY 1, 2",
            "SELECT unnest(ARRAY[3, 1, 2]) ORDER BY 1",
            "SELECT unnest(ARRAY['x', 'y']) || '!' AS shout ORDER BY 1",
            "SELECT count(*) FROM (SELECT generate_series(1, 10)) s",
            "SELECT DISTINCT generate_series(1, 3) % 2 AS parity ORDER BY 1",
            "SELECT t.name, (SELECT count(*) FROM (SELECT generate_series(1, t.id)) s) AS c FROM tagged t ORDER BY 1",
            "SELECT g FROM generate_series(1, 3) AS t(g) ORDER BY g DESC",
            "SELECT g FROM generate_series(1, 3) AS t(g) ORDER BY 1 DESC LIMIT 2",
            "SELECT * FROM generate_series(1, 10, 3) g ORDER BY 1 DESC OFFSET 1",
            "SELECT g FROM generate_series(1, 3) AS t(g) UNION SELECT 7 ORDER BY 1",
            "SELECT x FROM unnest(ARRAY[3, 1, 2]) AS u(x) ORDER BY x DESC",
            "SELECT * FROM tagged WHERE id = generate_series(1, 2)",
            "SELECT CASE WHEN id > 1 THEN generate_series(1, 2) END FROM tagged",
            "SELECT sum(generate_series(1, 3))");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("srf-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    @Test
    void answersLikePostgres() {
        assertEquals(List.of(), pair.mismatches(QUERIES));
    }
}
