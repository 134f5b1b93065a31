package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.plan.PlanPrinter;
import io.tributary.plan.StatePlan;
import io.tributary.plan.StreamNode;
import io.tributary.plan.TemporalFilterNode;
import io.tributary.plan.TimeBound;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Temporal filters in view plans: which conditions become one, its bounds, and what is refused. */
class TemporalFilterPlanTest {
    private static final long SECOND = 1_000_000L;

    private final CalciteViewPlanner planner = new CalciteViewPlanner(ViewCatalog.create());

    private TemporalFilterNode temporalFilter(String query) {
        return StatePlan.preOrder(planner.plan(query, 100, "m").root()).stream()
                .filter(TemporalFilterNode.class::isInstance)
                .map(TemporalFilterNode.class::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no temporal filter in the plan of " + query));
    }

    @Test
    void aLowerBoundRunsOnOneActorAfterTheOtherConditions() {
        List<String> plan = PlanPrinter.explain(
                planner.plan("SELECT id, ts FROM t WHERE ts > now() - INTERVAL '1' HOUR AND v > 3", 100, "m")
                        .root(),
                null);
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [id, ts], stream key: [$0], dist: hash[$0] }",
                        "└─StreamExchange { dist: hash[$0] } from fragment 1",
                        "Fragment 1",
                        "StreamProject { exprs: [$0, $4], stream key: [$0], dist: single }",
                        "└─StreamTemporalFilter { time: $4, bounds: [$time > now() - 3600000000us], stream key: [$0],"
                                + " dist: single, state tables: [#0, #1] }",
                        "  └─StreamExchange { dist: single } from fragment 2",
                        "Fragment 2",
                        "StreamFilter { condition: >($1, 3), stream key: [$0], dist: hash[$0] }",
                        "└─StreamSource { relation: t, columns: [id, v, s, n, ts, b, sm, re, db, d, tm, iv, bt, tz, vc,"
                                + " un], stream key: [$0], dist: hash[$0] }"),
                plan);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ts >= now() - INTERVAL '10' SECOND | false | true | -10",
                "ts < now() + INTERVAL '5' SECOND | true | false | 5",
                "now() - INTERVAL '1' MINUTE < ts | false | false | -60",
                "now() >= ts | true | true | 0",
                "ts <= current_timestamp | true | true | 0",
                "ts > localtimestamp - INTERVAL '2' SECOND + INTERVAL '1' SECOND | false | false | -1",
                "tz > now() - INTERVAL '1' DAY | false | false | -86400",
            })
    void eachComparisonIsOneBound(String condition, boolean upper, boolean inclusive, long seconds) {
        TemporalFilterNode node = temporalFilter("SELECT id FROM t WHERE " + condition);
        assertEquals(List.of(new TimeBound(upper, inclusive, seconds * SECOND)), node.bounds());
    }

    @Test
    void theRowSideMayBeAnyTimestampExpression() {
        assertEquals(
                // Calcite adds the interval in milliseconds; the row's own microseconds are kept
                "pg_timestamp_keep_micros(+(pg_timestamp_to_millis($4), 1000:INTERVAL SECOND), $4)",
                temporalFilter("SELECT id FROM t WHERE ts + INTERVAL '1' SECOND > now()")
                        .time()
                        .toString());
    }

    @Test
    void betweenIsALowerAndAnUpperBound() {
        TemporalFilterNode node = temporalFilter(
                "SELECT id FROM t WHERE ts BETWEEN now() - INTERVAL '10' MINUTE AND now() + INTERVAL '1' SECOND");
        assertEquals(
                List.of(new TimeBound(false, true, -600 * SECOND), new TimeBound(true, true, SECOND)), node.bounds());
    }

    @Test
    void aggregatesAndJoinsMayReadAFilteredInput() {
        StreamNode root = planner.plan(
                        "SELECT v, count(*) AS c FROM t WHERE ts > now() - INTERVAL '1' HOUR GROUP BY v", 100, "m")
                .root();
        assertTrue(StatePlan.preOrder(root).stream().anyMatch(TemporalFilterNode.class::isInstance));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SELECT id FROM t WHERE ts > now() - INTERVAL '1' MONTH | temporal filters with intervals of months",
                "SELECT id FROM t WHERE ts > now() AND tz < now() | temporal filters on more than one time expression",
                "SELECT id FROM t WHERE ts = now() | now other than in a temporal filter",
                "SELECT id FROM t WHERE ts > now() OR v > 3 | now other than in a temporal filter",
                "SELECT id, now() AS n FROM t WHERE ts > now() | now other than in a temporal filter",
            })
    void otherUsesOfTheCurrentTimeAre0A000(String query, String message) {
        TributaryException e = assertThrows(TributaryException.class, () -> planner.plan(query, 100, "m"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
