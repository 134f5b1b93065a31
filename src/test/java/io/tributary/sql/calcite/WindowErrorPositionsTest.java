package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Positions of the errors of time windows and window functions in a view's query: each points at
 * the argument at fault, counted in the query as the client wrote it (before Tributary's text and
 * tree rewrites).
 */
class WindowErrorPositionsTest {
    private final CalciteViewPlanner planner = new CalciteViewPlanner(ViewCatalog.create());

    /** Calcite's spelling of SESSION with a DESCRIPTOR of partition columns is not mistaken for a bad gap. */
    @org.junit.jupiter.api.Test
    void calciteSessionWithPartitionsPlans() {
        planner.plan(
                "SELECT * FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(s), INTERVAL '1' SECOND))", 100, "m");
    }

    /** Plans {@code query}, which must fail with {@code state} pointing at the first {@code at} in it. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SELECT * FROM TUMBLE(t, ts, INTERVAL '0' SECOND)|22023|INTERVAL '0'",
                "SELECT * FROM TUMBLE(t, ts, INTERVAL '10 seconds', v)|22023|v)",
                "SELECT * FROM HOP(t, ts, INTERVAL '3 seconds', INTERVAL '10' SECOND)|22023|INTERVAL '10'",
                "SELECT * FROM TUMBLE(t, v, INTERVAL '10' SECOND)|42804|v,",
                "SELECT * FROM TUMBLE(t, nosuch, INTERVAL '10' SECOND)|42703|nosuch",
                "SELECT * FROM TUMBLE(t, d, INTERVAL '10' SECOND)|42804|d,",
                "SELECT * FROM HOP(t, ts, INTERVAL '1' SECOND, INTERVAL '65' SECOND)|0A000|INTERVAL '65'",
                "SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(v), INTERVAL '1' SECOND))|42804|v)",
                "SELECT * FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND, -INTERVAL '1' SECOND))|22023|-INTERVAL",
                "SELECT * FROM SESSION(t PARTITION BY s, ts, INTERVAL '0' SECOND)|22023|INTERVAL '0'",
                "SELECT * FROM SESSION(t PARTITION BY nosuch, ts, INTERVAL '1' SECOND)|42703|nosuch",
                "SELECT s, count(*) FROM t GROUP BY s, SESSION(v, INTERVAL '1' SECOND)|42804|v,",
                "SELECT s, count(*) FROM t GROUP BY s, SESSION(ts, INTERVAL '-1' SECOND)|22023|INTERVAL '-1'",
                "SELECT s, count(*) FROM t GROUP BY s, TUMBLE(ts, INTERVAL '1' SECOND)|0A000|TUMBLE(ts",
                "SELECT id, sum(v) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t|0A000|TIES",
                "SELECT id, count(DISTINCT v) OVER (PARTITION BY s) FROM t|0A000|count",
                "SELECT id, lag(v) IGNORE NULLS OVER (ORDER BY ts) FROM t|0A000|lag",
                "SELECT id, INTERVAL '2 hours' AS h, ntile(2) OVER (ORDER BY ts) FROM t|0A000|ntile",
                "SELECT id, now() AS t0 FROM t|0A000|now()",
                "SELECT id FROM t WHERE ts > now() OR id = 1|0A000|now()",
                "SELECT id FROM t WHERE ts > now() - INTERVAL '1' MONTH|0A000|INTERVAL '1' MONTH",
                "SELECT id FROM t WHERE ts > now() - INTERVAL '1 month'|0A000|INTERVAL '1 month'",
            })
    void pointsAtTheArgument(String query, String state, String at) {
        TributaryException e = assertThrows(TributaryException.class, () -> planner.plan(query, 100, "m"));
        assertEquals(state, e.sqlState(), e.getMessage());
        assertEquals(query.indexOf(at) + 1, e.position(), e.getMessage());
    }
}
