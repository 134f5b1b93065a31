package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.Field;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.SourceNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.OrderRows;
import io.tributary.stream.Output;
import io.tributary.stream.ScratchStore;
import io.tributary.stream.StateWrites;
import java.io.IOException;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The aggregate update of {@code bench backfill}'s GROUP BY view ({@code customer_id, count(*),
 * sum(amount), max(amount)} over 50,000 customers): one invocation feeds a checkpoint's rows in
 * 1,024-row chunks and passes the checkpoint barrier (state writes consumed, not stored, so every
 * invocation starts from the same empty committed state). Figures are per input row.
 * {@link #rowsInCheckpoints} feeds four times as many rows split into {@code checkpoints}
 * checkpoints: what a backfill pays when it checkpoints by rows read (every 65,536 rows: 4) rather
 * than by the changes it holds (at most 65,536 groups: 1), each checkpoint re-emitting and
 * re-writing the 50,000 groups it touched.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HashAggBenchmark {
    private static final int ROWS = 65_536;

    private ScratchStore scratchStore;
    private ReadView latest;
    private HashAggNode node;
    private Chunk[] chunks;
    private Chunk[] moreChunks;

    /** Checkpoints over {@link #MORE_ROWS} rows. */
    @Param({"4", "1"})
    public int checkpoints;

    private static final int MORE_ROWS = 4 * ROWS;

    @Setup(Level.Trial)
    public void open() throws IOException {
        scratchStore = ScratchStore.open();
        latest = scratchStore.latest();
        List<Field> inputFields = List.of(
                new Field("id", DataType.BIGINT),
                new Field("customer_id", DataType.INTEGER),
                new Field("amount", DataType.NUMERIC),
                new Field("status", DataType.TEXT));
        SourceNode input = new SourceNode(1, "orders", inputFields, new int[] {0});
        List<AggCall> calls = List.of(
                new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT),
                new AggCall(AggKind.SUM, 2, false, -1, DataType.NUMERIC),
                new AggCall(AggKind.MAX, 2, false, -1, DataType.NUMERIC));
        List<Field> fields = List.of(
                new Field("customer_id", DataType.INTEGER),
                new Field("n", DataType.BIGINT),
                new Field("total", DataType.NUMERIC),
                new Field("biggest", DataType.NUMERIC));
        node = new HashAggNode(input, new int[] {1}, calls, fields);
        Object[][] rows = OrderRows.orders(1, ROWS, 50_000);
        chunks = OrderRows.insertChunks(rows);
        moreChunks = OrderRows.insertChunks(OrderRows.orders(1, MORE_ROWS, 50_000));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        scratchStore.close();
    }

    /** One checkpoint of a fresh operator: every chunk, then the barrier. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void checkpointOfRows(Blackhole bh) {
        HashAggOperator agg = new HashAggOperator(node, new int[] {2000, 2001}, latest);
        Output out = (op, row) -> bh.consume(row);
        for (Chunk chunk : chunks) {
            agg.onChunk(0, chunk, out);
        }
        agg.onBarrier(new Barrier(1), out, consumed(bh));
    }

    /**
     * {@link #MORE_ROWS} rows into a fresh operator in {@link #checkpoints} checkpoints. The writes
     * are consumed, not stored: a checkpoint reads the previous one's through its state tables,
     * older ones not at all, so later checkpoints cost a little less than in a real backfill.
     */
    @Benchmark
    @OperationsPerInvocation(MORE_ROWS)
    public void rowsInCheckpoints(Blackhole bh) {
        HashAggOperator agg = new HashAggOperator(node, new int[] {2000, 2001}, latest);
        Output out = (op, row) -> bh.consume(row);
        int perCheckpoint = moreChunks.length / checkpoints;
        for (int i = 0; i < moreChunks.length; i++) {
            agg.onChunk(0, moreChunks[i], out);
            if ((i + 1) % perCheckpoint == 0) {
                agg.onBarrier(new Barrier(1 + i / perCheckpoint), out, consumed(bh));
            }
        }
    }

    private static StateWrites consumed(Blackhole bh) {
        return new StateWrites() {
            @Override
            public void put(byte[] key, byte[] value) {
                bh.consume(value);
            }

            @Override
            public void delete(byte[] key) {
                bh.consume(key);
            }
        };
    }
}
