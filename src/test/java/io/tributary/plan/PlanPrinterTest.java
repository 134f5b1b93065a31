package io.tributary.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanPrinterTest {
    private static final Field ID = new Field("id", DataType.BIGINT);
    private static final Field K = new Field("k", DataType.INTEGER);

    private static SourceNode source(int id, String name) {
        return new SourceNode(id, name, List.of(ID, K), new int[] {0});
    }

    /**
     * count(*) and min(id) per k of a join of a and b on k: the join's sides and the aggregate's
     * input are exchanged, the aggregate keeps two state tables, the join two.
     */
    private static MaterializeNode plan() {
        StreamNode a = new ExchangeNode(source(1, "a"), Distribution.hash(1));
        StreamNode b = new ExchangeNode(source(2, "b"), Distribution.hash(1));
        HashJoinNode join = new HashJoinNode(
                a,
                b,
                JoinKind.INNER,
                new int[] {1},
                new int[] {1},
                new boolean[] {false},
                null,
                List.of(ID, K, ID, K),
                new int[] {0, 2});
        HashAggNode agg = new HashAggNode(
                new ExchangeNode(join, Distribution.hash(1)),
                new int[] {1},
                List.of(
                        new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT),
                        new AggCall(AggKind.MIN, 0, false, -1, DataType.BIGINT)),
                List.of(K, new Field("c", DataType.BIGINT), new Field("lo", DataType.BIGINT)));
        return new MaterializeNode(agg, 9, "m");
    }

    @Test
    void fragmentsAreCutAtExchangesAndNumberedInPreOrder() {
        assertEquals(
                List.of(
                        "Fragment 0",
                        "StreamMaterialize { relation: m, columns: [k, c, lo], stream key: [$0], dist: hash[$0] }",
                        "└─StreamHashAgg { group: [$1], aggs: [count(*), min($0)], stream key: [$0], dist: hash[$0],"
                                + " state tables: [#0, #1] }",
                        "  └─StreamExchange { dist: hash[$1] } from fragment 1",
                        "Fragment 1",
                        "StreamHashJoin { type: inner, on: [$1 = $3], stream key: [$0, $2], dist: hash[$1],"
                                + " state tables: [#2, #3] }",
                        "├─StreamExchange { dist: hash[$1] } from fragment 2",
                        "└─StreamExchange { dist: hash[$1] } from fragment 3",
                        "Fragment 2",
                        "StreamSource { relation: a, columns: [id, k], stream key: [$0], dist: hash[$0] }",
                        "Fragment 3",
                        "StreamSource { relation: b, columns: [id, k], stream key: [$0], dist: hash[$0] }"),
                PlanPrinter.explain(plan(), null));
    }

    @Test
    void allocatedStateTableIdsAreGivenOutInPreOrder() {
        List<String> lines = PlanPrinter.explain(plan(), new int[] {40, 41, 50, 51});
        assertTrue(lines.get(2).endsWith("state tables: [40, 41] }"), lines.get(2));
        assertTrue(lines.get(5).endsWith("state tables: [50, 51] }"), lines.get(5));
        assertThrows(IllegalArgumentException.class, () -> PlanPrinter.explain(plan(), new int[] {1}));
    }

    @Test
    void preOrderVisitsANodeBeforeItsInputsInOrder() {
        MaterializeNode root = plan();
        List<StreamNode> nodes = StatePlan.preOrder(root);
        assertEquals(8, nodes.size());
        assertSame(root, nodes.get(0));
        assertTrue(nodes.get(3) instanceof HashJoinNode);
        assertEquals(1, ((SourceNode) nodes.get(5)).relationId());
        assertEquals(2, ((SourceNode) nodes.get(7)).relationId());
        assertEquals(4, StatePlan.stateTableCount(root));
    }

    @Test
    void someDistributionSatisfiesNothing() {
        assertFalse(Distribution.SOME.satisfies(Distribution.SOME));
        assertFalse(Distribution.SOME.satisfies(Distribution.SINGLE));
        assertTrue(Distribution.hash(1, 0).satisfies(Distribution.hash(1, 0)));
        assertFalse(Distribution.hash(1, 0).satisfies(Distribution.hash(0, 1)));
    }

    @Test
    void outerJoinOutputIsPlacedByTheSideThatIsNeverPadded() {
        for (JoinKind kind : JoinKind.values()) {
            HashJoinNode join = new HashJoinNode(
                    source(1, "a"),
                    source(2, "b"),
                    kind,
                    new int[] {1},
                    new int[] {1},
                    new boolean[] {false},
                    null,
                    List.of(ID, K, ID, K),
                    new int[] {0, 2});
            Distribution expected = switch (kind) {
                case INNER, LEFT -> Distribution.hash(1);
                case RIGHT -> Distribution.hash(3);
                case FULL -> Distribution.SOME;
            };
            assertEquals(expected, join.distribution(), kind.name());
        }
    }
}
