package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.PlanPrinter;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.SourceNode;
import io.tributary.plan.StatePlan;
import io.tributary.plan.StreamNode;
import io.tributary.plan.ViewPlan;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Stream plans of view queries: their shape, keys, distribution, columns and what they refuse. */
class CalciteViewPlannerTest {
    private static final String SOURCE_T =
            "StreamSource { relation: t, columns: [id, v, s, n, ts, b, sm, re, db, d, tm,"
                    + " iv, bt, tz, vc, un], stream key: [$0], dist: hash[$0] }";
    private static final String SOURCE_U =
            "StreamSource { relation: u, columns: [id, tid, w], stream key: [$0]," + " dist: hash[$0] }";

    private final CalciteViewPlanner planner = new CalciteViewPlanner(ViewCatalog.create());

    private ViewPlan plan(String query) {
        return planner.plan(query, 100, "m");
    }

    private List<String> explain(String query) {
        return PlanPrinter.explain(plan(query).root(), null);
    }

    private static ColumnDef visible(String name, DataType type) {
        return new ColumnDef(name, type, false, false);
    }

    private static ColumnDef hidden(String name, DataType type) {
        return new ColumnDef(name, type, false, true);
    }

    @Test
    void filterAndProjectKeepTheTableKeySoNothingIsExchanged() {
        ViewPlan plan = plan("SELECT v + 1 AS w, s FROM t WHERE v > 3");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [w, s, _key0], stream key: [$2], dist: hash[$2] }",
                        "└─StreamProject { exprs: [+($1, 1), $2, $0], stream key: [$2], dist: hash[$2] }",
                        "  └─StreamFilter { condition: >($1, 3), stream key: [$0], dist: hash[$0] }",
                        "    └─" + SOURCE_T),
                PlanPrinter.explain(plan.root(), null));
        assertEquals(
                List.of(visible("w", DataType.INTEGER), visible("s", DataType.TEXT), hidden("_key0", DataType.BIGINT)),
                plan.columns());
        assertArrayEquals(new int[] {2}, plan.primaryKey());
        assertArrayEquals(new int[] {ViewCatalog.T}, plan.dependsOn());
        assertEquals(100, plan.root().relationId());
    }

    @Test
    void sourcesReadEveryColumnAndKeepTheHiddenRowIdAsKey() {
        ViewPlan plan = plan("SELECT a FROM r");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [a, _key0], stream key: [$1], dist: hash[$1] }",
                        "└─StreamProject { exprs: [$0, $2], stream key: [$1], dist: hash[$1] }",
                        "  └─StreamSource { relation: r, columns: [a, x, _row_id], stream key: [$2], dist: hash[$2] }"),
                PlanPrinter.explain(plan.root(), null));
        assertEquals(List.of(visible("a", DataType.INTEGER), hidden("_key0", DataType.BIGINT)), plan.columns());
        assertArrayEquals(new int[] {1}, plan.primaryKey());
    }

    @Test
    void hiddenKeyNamesAvoidTheQuerysNames() {
        ViewPlan plan = plan("SELECT a AS _key0 FROM r");
        assertEquals(List.of(visible("_key0", DataType.INTEGER), hidden("_key1", DataType.BIGINT)), plan.columns());
    }

    @Test
    void groupByExchangesByTheGroupKey() {
        ViewPlan plan = plan("SELECT v, count(*) AS c, sum(id) AS total FROM t GROUP BY v");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [v, c, total], stream key: [$0], dist: hash[$0] }",
                        "└─StreamHashAgg { group: [$1], aggs: [count(*), sum($0)], stream key: [$0], dist: hash[$0],"
                                + " state tables: [#0] }",
                        "  └─StreamExchange { dist: hash[$1] } from fragment 1",
                        "Fragment 1",
                        SOURCE_T),
                PlanPrinter.explain(plan.root(), null));
        assertEquals(
                List.of(
                        visible("v", DataType.INTEGER),
                        visible("c", DataType.BIGINT),
                        // sum of a bigint is numeric, as PostgreSQL's
                        visible("total", DataType.NUMERIC)),
                plan.columns());
        assertArrayEquals(new int[] {0}, plan.primaryKey());
    }

    @Test
    void aGlobalAggregateRunsOnOneActorAndHasAnEmptyKey() {
        ViewPlan plan = plan("SELECT count(*) FROM t");
        HashAggNode agg = (HashAggNode) plan.root().input().inputs().get(0);
        assertEquals(0, agg.groupKeys().length);
        assertEquals(io.tributary.plan.Distribution.SINGLE, ((ExchangeNode) agg.input()).distribution());
        assertEquals(List.of(visible("count", DataType.BIGINT)), plan.columns());
        assertArrayEquals(new int[0], plan.primaryKey());
    }

    @Test
    void avgIsMaintainedAsSumAndCount() {
        ViewPlan plan = plan("SELECT v, avg(n) AS a FROM t GROUP BY v");
        ProjectNode project = (ProjectNode) plan.root().input();
        HashAggNode agg = (HashAggNode) project.input();
        assertEquals(
                List.of(
                        new AggCall(AggKind.SUM, 1, false, -1, DataType.numeric(38, 2)),
                        new AggCall(AggKind.COUNT, 2, false, -1, DataType.BIGINT)),
                agg.calls());
        Object[] group = {7, new BigDecimal("5.00"), 2L};
        // PostgreSQL's numeric / numeric scale: 16 significant digits
        assertEquals(
                new BigDecimal("2.5000000000000000"), project.exprs().get(1).eval(group));
        assertEquals(null, project.exprs().get(1).eval(new Object[] {7, null, 0L}));
    }

    @Test
    void aggregatesMapToTheStreamingKinds() {
        ViewPlan plan = plan("SELECT v, count(DISTINCT s) AS c, bool_and(b) AS a, every(b) AS e, bool_or(b) AS o,"
                + " min(s) AS lo, max(n) AS hi, count(*) FILTER (WHERE v > 2) AS f FROM t GROUP BY v");
        HashAggNode agg = (HashAggNode) plan.root().input();
        assertEquals(
                List.of(
                        new AggCall(AggKind.COUNT, 1, true, -1, DataType.BIGINT),
                        new AggCall(AggKind.BOOL_AND, 2, false, -1, DataType.BOOLEAN),
                        new AggCall(AggKind.BOOL_AND, 2, false, -1, DataType.BOOLEAN),
                        new AggCall(AggKind.BOOL_OR, 2, false, -1, DataType.BOOLEAN),
                        new AggCall(AggKind.MIN, 1, false, -1, DataType.TEXT),
                        new AggCall(AggKind.MAX, 3, false, -1, DataType.numeric(10, 2)),
                        new AggCall(AggKind.COUNT, -1, false, 4, DataType.BIGINT)),
                agg.calls());
        assertEquals(4, agg.stateTableCount(), "the group table, then count distinct, min and max keep values");
    }

    @Test
    void havingFiltersGroupsAndDropsTheHelperAggregate() {
        ViewPlan plan = plan("SELECT v, sum(v) FILTER (WHERE b) FROM t GROUP BY v HAVING count(*) > 1");
        assertEquals(List.of(visible("v", DataType.INTEGER), visible("sum", DataType.BIGINT)), plan.columns());
        assertEquals("[$0, $1]", ((ProjectNode) plan.root().input()).exprs().toString());
    }

    @Test
    void joinsExchangeEachSideByItsKeyAndTheResultByTheViewKey() {
        ViewPlan plan = plan("SELECT t.s, u.w FROM t JOIN u ON t.id = u.tid");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [s, w, _key0, _key1], stream key: [$2, $3],"
                                + " dist: hash[$2, $3] }",
                        "└─StreamExchange { dist: hash[$2, $3] } from fragment 1",
                        "Fragment 1",
                        "StreamProject { exprs: [$2, $18, $0, $16], stream key: [$2, $3], dist: hash[$2] }",
                        "└─StreamHashJoin { type: inner, on: [$0 = $17], stream key: [$0, $16], dist: hash[$0],"
                                + " state tables: [#0, #1] }",
                        "  ├─" + SOURCE_T,
                        "  └─StreamExchange { dist: hash[$1] } from fragment 2",
                        "Fragment 2",
                        SOURCE_U),
                PlanPrinter.explain(plan.root(), null));
        assertArrayEquals(new int[] {ViewCatalog.T, ViewCatalog.U}, plan.dependsOn());
        assertArrayEquals(new int[] {2, 3}, plan.primaryKey());
    }

    @Test
    void aJoinOnTheRightSidesPrimaryKeyBroadcastsThatSideAndKeysTheViewByTheLeftRows() {
        for (String type : new String[] {"JOIN", "LEFT JOIN"}) {
            ViewPlan plan = plan("SELECT u.w, t.s FROM u " + type + " t ON u.tid = t.id");
            // the view's key is u.id alone, and u's rows reach it where they were read
            assertArrayEquals(new int[] {2}, plan.primaryKey());
            ProjectNode layout = (ProjectNode) plan.root().input();
            HashJoinNode join = (HashJoinNode) layout.input();
            assertTrue(join.broadcastsRight(), type);
            assertTrue(join.left() instanceof SourceNode, type);
            assertEquals(io.tributary.plan.Distribution.BROADCAST, ((ExchangeNode) join.right()).distribution());
            assertEquals(io.tributary.plan.Distribution.hash(0), join.distribution());
            assertArrayEquals(new int[] {0}, join.streamKey());
        }
        // t.id covers t's key: t is the one side, and a join from it keeps the hash join
        HashJoinNode fromDimension = (HashJoinNode) ((ProjectNode) plan("SELECT t.s, u.w FROM t JOIN u ON t.id = u.tid")
                        .root()
                        .input()
                        .inputs()
                        .get(0))
                .input();
        assertFalse(fromDimension.broadcastsRight());
    }

    @Test
    void outerJoinsReportWhereTheirNullPaddedRowsAre() {
        HashJoinNode right = (HashJoinNode) plan("SELECT t.v, u.w FROM t RIGHT JOIN u ON t.id = u.tid")
                .root()
                .input()
                .inputs()
                .get(0)
                .inputs()
                .get(0);
        // t's 16 columns, its presence column (a RIGHT join pads t), then u: u.tid is $18
        assertEquals(io.tributary.plan.Distribution.hash(18), right.distribution());
        HashJoinNode full = (HashJoinNode) plan("SELECT t.v, u.w FROM t FULL JOIN u ON t.id = u.tid AND u.w > t.v")
                .root()
                .input()
                .inputs()
                .get(0)
                .inputs()
                .get(0);
        assertEquals(io.tributary.plan.Distribution.SOME, full.distribution());
        // t's 16 columns and presence column, then u (id, tid, w): u.w is $19
        assertEquals(">($19, $1)", full.condition().toString());
        assertEquals(false, full.condition().eval(joined(5, 3)));
        assertEquals(true, full.condition().eval(joined(5, 6)));
    }

    /** A row of t joined with a row of u: t.v = tv, u.w = uw. */
    private static Object[] joined(int tv, int uw) {
        Object[] row = new Object[21];
        row[1] = tv;
        row[19] = uw;
        return row;
    }

    @Test
    void nullSafeEqualityIsAJoinKey() {
        HashJoinNode join =
                (HashJoinNode) plan("SELECT t.id AS a, u.w FROM t JOIN u ON t.id IS NOT DISTINCT FROM u.tid")
                        .root()
                        .input()
                        .inputs()
                        .get(0)
                        .inputs()
                        .get(0);
        assertArrayEquals(new boolean[] {true}, join.nullSafe());
        assertEquals(null, join.condition());
    }

    @Test
    void joinKeysOfDifferentTypesAreCastToOneType() {
        HashJoinNode join = (HashJoinNode) plan("SELECT t.v FROM t JOIN u ON t.v = u.tid")
                .root()
                .input()
                .inputs()
                .get(0)
                .inputs()
                .get(0);
        ProjectNode left = (ProjectNode) join.left().inputs().get(0);
        assertEquals(DataType.BIGINT, left.fields().get(join.leftKeys()[0]).type());
        assertEquals(41L, left.exprs().get(join.leftKeys()[0]).eval(new Object[] {1L, 41}));
    }

    @Test
    void threeWayJoinsChainHashJoins() {
        ViewPlan plan = plan("SELECT t.v, u.w, r.x FROM t JOIN u ON t.id = u.tid LEFT JOIN r ON r.a = u.w");
        List<StreamNode> joins = StatePlan.preOrder(plan.root()).stream()
                .filter(n -> n instanceof HashJoinNode)
                .toList();
        assertEquals(2, joins.size());
        assertEquals(io.tributary.plan.JoinKind.LEFT, ((HashJoinNode) joins.get(0)).kind());
        // t.id, u.id, r._row_id, u.w (the second join routes by it) and r's presence column
        assertEquals(5, plan.primaryKey().length);
        assertArrayEquals(new int[] {ViewCatalog.T, ViewCatalog.U, ViewCatalog.R}, plan.dependsOn());
    }

    @Test
    void unionAllGivesEveryBranchItsOwnKeySlots() {
        ViewPlan plan = plan("SELECT v FROM t UNION ALL SELECT a FROM r");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [v, _key0, _key1, _key2], stream key: [$1, $2, $3],"
                                + " dist: hash[$1, $2, $3] }",
                        "└─StreamUnion { inputs: 2, stream key: [$1, $2, $3], dist: hash[$1, $2, $3] }",
                        "  ├─StreamExchange { dist: hash[$1, $2, $3] } from fragment 1",
                        "  └─StreamExchange { dist: hash[$1, $2, $3] } from fragment 2",
                        "Fragment 1",
                        "StreamProject { exprs: [$1, 0:integer, $0, null:bigint], stream key: [$2], dist: hash[$2] }",
                        "└─" + SOURCE_T,
                        "Fragment 2",
                        "StreamProject { exprs: [$0, 1:integer, null:bigint, $2], stream key: [$3], dist: hash[$3] }",
                        "└─StreamSource { relation: r, columns: [a, x, _row_id], stream key: [$2], dist: hash[$2] }"),
                PlanPrinter.explain(plan.root(), null));
        assertEquals(
                List.of(
                        visible("v", DataType.INTEGER),
                        hidden("_key0", DataType.INTEGER),
                        hidden("_key1", DataType.BIGINT),
                        hidden("_key2", DataType.BIGINT)),
                plan.columns());
    }

    @Test
    void unionIsADistinctOverUnionAll() {
        ViewPlan plan = plan("SELECT v FROM t UNION SELECT w FROM u");
        HashAggNode distinct = (HashAggNode) plan.root().input();
        assertArrayEquals(new int[] {0}, distinct.groupKeys());
        assertTrue(distinct.calls().isEmpty());
        assertArrayEquals(new int[] {0}, plan.primaryKey());
    }

    @Test
    void orderByLimitIsATopNOnOneActor() {
        ViewPlan plan = plan("SELECT id, v FROM t ORDER BY v DESC, id LIMIT 10 OFFSET 5");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [id, v], stream key: [$0], dist: hash[$0] }",
                        "└─StreamExchange { dist: hash[$0] } from fragment 1",
                        "Fragment 1",
                        "StreamTopN { order: [$1 desc nulls first, $0 nulls last], limit: 10, offset: 5, stream key: [$0],"
                                + " dist: single, state tables: [#0] }",
                        "└─StreamExchange { dist: single } from fragment 2",
                        "Fragment 2",
                        "StreamProject { exprs: [$0, $1], stream key: [$0], dist: hash[$0] }",
                        "└─" + SOURCE_T),
                PlanPrinter.explain(plan.root(), null));
    }

    @Test
    void aTopNInASubqueryFeedsTheOuterQuery() {
        List<String> lines = explain("SELECT v, count(*) AS c FROM (SELECT v FROM t ORDER BY v LIMIT 3) s GROUP BY v");
        assertTrue(
                lines.contains("StreamTopN { order: [$0 nulls last], limit: 3, stream key: [$1], dist: single,"
                        + " state tables: [#1] }"),
                lines.toString());
    }

    @Test
    void orderByWithoutLimitIsDropped() {
        assertEquals(explain("SELECT v FROM t"), explain("SELECT v FROM t ORDER BY v"));
    }

    @Test
    void viewsReadOtherViewsWithTheirHiddenKey() {
        ViewPlan plan = plan("SELECT x, total FROM m1 WHERE total > 10");
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [x, total, _key0], stream key: [$2, $0],"
                                + " dist: hash[$2, $0] }",
                        "└─StreamFilter { condition: >($1, 10), stream key: [$2, $0], dist: hash[$2, $0] }",
                        "  └─StreamSource { relation: m1, columns: [x, total, _key0], stream key: [$2, $0],"
                                + " dist: hash[$2, $0] }"),
                PlanPrinter.explain(plan.root(), null));
        assertArrayEquals(new int[] {ViewCatalog.M1}, plan.dependsOn());
        assertArrayEquals(new int[] {2, 0}, plan.primaryKey());
    }

    @Test
    void uncorrelatedInIsAJoinWithTheDistinctValues() {
        ViewPlan plan = plan("SELECT id, v FROM t WHERE id IN (SELECT tid FROM u)");
        HashJoinNode join = (HashJoinNode) StatePlan.preOrder(plan.root()).stream()
                .filter(n -> n instanceof HashJoinNode)
                .findFirst()
                .orElseThrow();
        assertTrue(join.right() instanceof HashAggNode, "the subquery's values, each once");
        assertEquals(io.tributary.plan.JoinKind.INNER, join.kind());
    }

    @Test
    void columnsAreNamedAsPostgresLabelsThem() {
        ViewPlan plan = plan("SELECT count(*), sum(v), v::bigint, CASE WHEN b THEN 1 END, v + 1 FROM t GROUP BY v, b");
        assertEquals(
                List.of("count", "sum", "v", "case", "?column?"),
                plan.columns().stream()
                        .filter(c -> !c.hidden())
                        .map(ColumnDef::name)
                        .toList());
    }

    @Test
    void aColumnNamedTwiceIs42701() {
        TributaryException e = assertThrows(TributaryException.class, () -> plan("SELECT v, s AS v FROM t"));
        assertEquals(SqlState.DUPLICATE_COLUMN, e.sqlState());
        assertEquals("column \"v\" specified more than once", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SELECT v, ntile(3) OVER (ORDER BY v) FROM t | the window function ntile is not supported",
                "SELECT v, sum(v) OVER (ORDER BY v RANGE 3 PRECEDING) FROM t | RANGE frames with an offset are not supported",
                "SELECT v, now() FROM t | now other than in a temporal filter",
                "SELECT random() FROM t | non-deterministic function random is not supported",
                // current_timestamp is now(), as in PostgreSQL
                "SELECT current_timestamp AS c, v FROM t | now other than in a temporal filter",
                "SELECT v FROM t INTERSECT SELECT w FROM u | INTERSECT is not supported",
                "SELECT v FROM t EXCEPT SELECT w FROM u | EXCEPT is not supported",
                "VALUES (1) | VALUES, SELECT without FROM",
                "SELECT 1 | VALUES, SELECT without FROM",
                "SELECT v FROM t LIMIT 3 | LIMIT without ORDER BY is not supported",
                "SELECT v FROM t ORDER BY v OFFSET 3 | OFFSET without LIMIT is not supported",
                "SELECT v, count(*) FROM t GROUP BY ROLLUP(v) | GROUPING SETS, ROLLUP and CUBE are not supported",
                "SELECT v FROM t GROUP BY CUBE(v, s) | GROUPING SETS, ROLLUP and CUBE are not supported",
                "SELECT v FROM t GROUP BY GROUPING SETS ((v), ()) | GROUPING SETS, ROLLUP and CUBE are not supported",
                "SELECT string_agg(s, ',') FROM t | the aggregate function string_agg is not supported",
                "SELECT array_agg(v) FROM t | the aggregate function array_agg is not supported",
                "SELECT stddev(DISTINCT v) FROM t | the aggregate function stddev is not supported",
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FROM t | the aggregate function percentile_cont is not",
                "SELECT v FROM t t1 WHERE EXISTS (SELECT 1 FROM u WHERE u.tid = t1.id) | correlated subqueries are not supported",
                "SELECT id FROM t t1 WHERE v > (SELECT avg(w) FROM u WHERE u.tid = t1.id) | correlated subqueries are not",
                "SELECT v FROM t WHERE id NOT IN (SELECT tid FROM u) | joins without an equality condition are not supported",
                "SELECT v FROM t, u | joins without an equality condition are not supported",
                "SELECT v FROM t JOIN u ON t.v < u.w | joins without an equality condition are not supported",
                "SELECT * FROM generate_series(1, 3) | table functions are not supported",
            })
    void whatAViewCannotMaintainIs0A000(String query, String message) {
        TributaryException e = assertThrows(TributaryException.class, () -> plan(query));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertTrue(e.getMessage().endsWith("in materialized views"), e.getMessage());
    }

    @Test
    void subqueryRefusalsSayTheyBecameJoins() {
        TributaryException e =
                assertThrows(TributaryException.class, () -> plan("SELECT v FROM t WHERE EXISTS (SELECT 1 FROM u)"));
        assertEquals("Subqueries in WHERE and SELECT are planned as joins.", e.hint());
    }

    @Test
    void mistakesInTheQueryKeepTheirOwnErrors() {
        assertEquals(
                SqlState.UNDEFINED_TABLE,
                assertThrows(TributaryException.class, () -> plan("SELECT * FROM nope"))
                        .sqlState());
        assertEquals(
                SqlState.UNDEFINED_COLUMN,
                assertThrows(TributaryException.class, () -> plan("SELECT nope FROM t"))
                        .sqlState());
        assertEquals(
                SqlState.SYNTAX_ERROR,
                assertThrows(TributaryException.class, () -> plan("SELECT FROM WHERE"))
                        .sqlState());
    }

    @Test
    void planningTwiceGivesTheSamePlan() {
        String query = "SELECT t.v, count(*) AS c, sum(u.w) AS total FROM t JOIN u ON t.id = u.tid"
                + " WHERE t.s LIKE 'a%' GROUP BY t.v UNION ALL SELECT a, 1, 2 FROM r";
        ViewPlan first = plan(query);
        ViewPlan second = new CalciteViewPlanner(ViewCatalog.create()).plan(query, 100, "m");
        assertEquals(PlanPrinter.explain(first.root(), null), PlanPrinter.explain(second.root(), null));
        assertEquals(first.columns(), second.columns());
        assertArrayEquals(first.primaryKey(), second.primaryKey());
        assertArrayEquals(first.dependsOn(), second.dependsOn());
    }

    @Test
    void sourcesAreTheRelationsAsCataloged() {
        ViewPlan plan = plan("SELECT * FROM t");
        SourceNode source = (SourceNode) plan.root().input();
        assertEquals(16, source.fields().size());
        assertFalse(StatePlan.preOrder(plan.root()).stream().anyMatch(n -> n instanceof ExchangeNode));
    }
}
