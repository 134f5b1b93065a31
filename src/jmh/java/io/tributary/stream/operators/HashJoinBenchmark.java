package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.JoinKind;
import io.tributary.plan.SourceNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.OrderRows;
import io.tributary.stream.Output;
import io.tributary.stream.ScratchStore;
import io.tributary.stream.StateWrites;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The join probe of {@code bench backfill}'s join view ({@code orders o JOIN customers c ON
 * o.customer_id = c.id}): the operator holds 50,000 customers (all in its bucket cache, as in the
 * backfill once the dimension table is read); one invocation feeds a checkpoint's orders in
 * 1,024-row chunks, each probing the customers and being stored on its own side, then passes the
 * checkpoint barrier (state writes consumed, not stored). Figures are per order row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HashJoinBenchmark {
    private static final int ROWS = 65_536;
    private static final int CUSTOMERS = 50_000;

    private ScratchStore scratchStore;
    private ReadView latest;
    private HashJoinOperator join;
    private Chunk[] chunks;

    @Setup(Level.Trial)
    public void open() throws IOException {
        scratchStore = ScratchStore.open();
        latest = scratchStore.latest();
        List<Field> orderFields = List.of(
                new Field("id", DataType.BIGINT),
                new Field("customer_id", DataType.INTEGER),
                new Field("amount", DataType.NUMERIC),
                new Field("status", DataType.TEXT));
        List<Field> customerFields = List.of(
                new Field("id", DataType.INTEGER),
                new Field("name", DataType.TEXT),
                new Field("region", DataType.TEXT));
        List<Field> out = new ArrayList<>(orderFields);
        out.addAll(customerFields);
        HashJoinNode node = new HashJoinNode(
                new SourceNode(1, "orders", orderFields, new int[] {0}),
                new SourceNode(2, "customers", customerFields, new int[] {0}),
                JoinKind.INNER,
                new int[] {1},
                new int[] {0},
                new boolean[] {false},
                null,
                out,
                new int[] {0, 4});
        join = new HashJoinOperator(node, new int[] {3000, 3001}, latest);
        Output none = (op, row) -> {};
        Chunk.Builder customers = new Chunk.Builder();
        for (int c = 1; c <= CUSTOMERS; c++) {
            customers.add(Op.INSERT, new Object[] {c, "customer " + c, "region " + (c % 10)});
            if (customers.isFull() || c == CUSTOMERS) {
                join.onChunk(1, customers.build(), none);
                customers = new Chunk.Builder();
            }
        }
        Object[][] rows = OrderRows.orders(1, ROWS, CUSTOMERS);
        chunks = OrderRows.insertChunks(rows);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        scratchStore.close();
    }

    /** One checkpoint of orders probing the held customers, then the barrier. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void checkpointOfProbes(Blackhole bh) {
        Output out = (op, row) -> bh.consume(row);
        for (Chunk chunk : chunks) {
            join.onChunk(0, chunk, out);
        }
        join.onBarrier(new Barrier(1), out, new StateWrites() {
            @Override
            public void put(byte[] key, byte[] value) {
                bh.consume(value);
            }

            @Override
            public void delete(byte[] key) {
                bh.consume(key);
            }
        });
    }
}
