package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.plan.PlanPrinter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stream plans of window functions in views: one over-window per window, group top-N, and what is refused. */
class WindowPlansTest {
    private final CalciteViewPlanner planner = new CalciteViewPlanner(ViewCatalog.create());

    private List<String> explain(String query) {
        return PlanPrinter.explain(planner.plan(query, 100, "m").root(), null);
    }

    private TributaryException refused(String query) {
        TributaryException e = assertThrows(TributaryException.class, () -> planner.plan(query, 100, "m"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState(), e.getMessage());
        return e;
    }

    @Test
    void eachWindowIsAnOverWindowDistributedByItsPartition() {
        List<String> lines = explain("SELECT id, rank() OVER (PARTITION BY s ORDER BY v DESC) AS r,"
                + " sum(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS running FROM t");
        String text = String.join("\n", lines);
        assertTrue(text.contains("StreamOverWindow { partition: [$2], order: [$1 desc nulls first]"), text);
        assertTrue(text.contains("frame: rows 1 preceding and current row"), text);
        assertTrue(text.contains("StreamOverWindow { partition: [], order: [$0 nulls last]"), text);
        assertTrue(text.contains("dist: single"), text);
    }

    @Test
    void aRankFilterOverARankedSubqueryIsAGroupTopN() {
        String text = String.join(
                "\n",
                explain("SELECT id, v FROM (SELECT id, v, s, row_number() OVER (PARTITION BY s ORDER BY v DESC) AS rn"
                        + " FROM t) x WHERE rn <= 3"));
        assertTrue(text.contains("calls: [row_number()], rank limit: 3"), text);
        assertTrue(!text.contains("StreamFilter"), text);
        String strict = String.join(
                "\n",
                explain("SELECT id FROM (SELECT id, rank() OVER (PARTITION BY s ORDER BY v) AS r FROM t) x"
                        + " WHERE r < 3 AND id > 10"));
        assertTrue(strict.contains("rank limit: 2"), strict);
        assertTrue(strict.contains("StreamFilter"), strict);
    }

    @Test
    void functionsAndFramesItCannotMaintainAreRefusedWithTheirPosition() {
        String ntile = "SELECT id, ntile(4) OVER (ORDER BY v) AS n FROM t";
        TributaryException e = refused(ntile);
        assertEquals("the window function ntile is not supported in materialized views", e.getMessage());
        assertEquals(ntile.indexOf("ntile") + 1, e.position());
        String range = "SELECT id, sum(v) OVER (ORDER BY v RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM t";
        e = refused(range);
        assertEquals("RANGE frames with an offset are not supported in materialized views", e.getMessage());
        assertEquals(range.indexOf("2 PRECEDING") + 1, e.position());
        e = refused("SELECT id, count(DISTINCT v) OVER (PARTITION BY s) AS c FROM t");
        assertTrue(e.getMessage().contains("DISTINCT"), e.getMessage());
    }
}
