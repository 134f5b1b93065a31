package io.tributary.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.common.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ColumnsRead}: which source columns a plan reads, and "all" wherever it cannot tell. */
class ColumnsReadTest {
    private static final List<Field> ORDERS = List.of(
            new Field("id", DataType.BIGINT),
            new Field("customer_id", DataType.INTEGER),
            new Field("amount", DataType.NUMERIC),
            new Field("status", DataType.TEXT));
    private static final SourceNode SOURCE = new SourceNode(1, "orders", ORDERS, new int[] {0});

    private static ProjectNode project(StreamNode input, ScalarExpr... exprs) {
        List<Field> fields = java.util.Arrays.stream(exprs)
                .map(e -> new Field("c", e.type()))
                .toList();
        return new ProjectNode(input, List.of(exprs), fields, new int[0], Distribution.SOME);
    }

    @Test
    void anAggregateBehindAnExchangeReadsItsKeysAndArguments() {
        ExchangeNode exchange = new ExchangeNode(SOURCE, Distribution.hash(1));
        HashAggNode agg = new HashAggNode(
                exchange,
                new int[] {1},
                List.of(
                        new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT),
                        new AggCall(AggKind.MAX, 2, false, -1, DataType.NUMERIC)),
                List.of(new Field("customer_id", DataType.INTEGER)),
                null);
        assertArrayEquals(new boolean[] {false, true, true, false}, ColumnsRead.of(List.of(SOURCE, exchange, agg)));
    }

    @Test
    void aFilterAddsItsConditionsColumnsToWhatItsProjectionReads() {
        FilterNode filter = new FilterNode(SOURCE, new InputRef(3, DataType.TEXT));
        ProjectNode project = project(filter, new InputRef(0, DataType.BIGINT), new Literal(1, DataType.INTEGER));
        assertArrayEquals(new boolean[] {true, false, false, true}, ColumnsRead.of(List.of(SOURCE, filter, project)));
    }

    @Test
    void anOperatorThatMayReadAnyColumnMeansAll() {
        ScalarExpr opaque = new ScalarExpr() {
            @Override
            public Object eval(Object[] row) {
                return row[2];
            }

            @Override
            public DataType type() {
                return DataType.NUMERIC;
            }
        };
        assertNull(ColumnsRead.of(List.of(SOURCE, project(SOURCE, opaque))), "an expression of unknown inputs");
        assertNull(ColumnsRead.of(List.of(SOURCE)), "the source is the root");
        HashJoinNode join = new HashJoinNode(
                SOURCE,
                SOURCE,
                JoinKind.INNER,
                new int[] {1},
                new int[] {0},
                new boolean[] {false},
                null,
                List.of(),
                new int[0]);
        assertNull(ColumnsRead.of(List.of(SOURCE, join)), "a join stores whole rows");
    }
}
