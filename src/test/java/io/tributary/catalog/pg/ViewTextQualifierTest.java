package io.tributary.catalog.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which names of a view's text get the schema: relations in FROM lists and joins, nothing else. */
class ViewTextQualifierTest {
    private static final Set<String> RELATIONS = Set.of("t", "u", "v", "w");

    private static String qualify(String query) {
        return ViewTextQualifier.qualify(query, "public", RELATIONS::contains);
    }

    @Test
    void qualifiesFromListsAndJoins() {
        assertEquals(
                "SELECT t.a FROM public.t JOIN public.u ON t.a = u.a, public.v x WHERE t.a > 0",
                qualify("SELECT t.a FROM t JOIN u ON t.a = u.a, v x WHERE t.a > 0"));
        assertEquals(
                "SELECT a FROM (SELECT a FROM public.t) s WHERE a IN (SELECT a FROM public.u)",
                qualify("SELECT a FROM (SELECT a FROM t) s WHERE a IN (SELECT a FROM u)"));
    }

    @Test
    void leavesOtherNamesAlone() {
        // a WITH query, a qualified name, a function in FROM, FROM inside extract, literals, comments
        assertEquals(
                "WITH w AS (SELECT * FROM public.t) SELECT extract(year FROM t) FROM w, public.u,"
                        + " other.t, generate_series(1, 2) g WHERE 'FROM t' <> '' -- FROM t",
                qualify("WITH w AS (SELECT * FROM t) SELECT extract(year FROM t) FROM w, u,"
                        + " other.t, generate_series(1, 2) g WHERE 'FROM t' <> '' -- FROM t"));
        assertEquals("SELECT 1 FROM public.t GROUP BY x, t", qualify("SELECT 1 FROM t GROUP BY x, t"));
    }
}
