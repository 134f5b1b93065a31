package io.tributary.stream;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.storage.ReadView;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The per-row kernels every backfilled view runs: a state table's put (key and value encoding
 * into its pending writes) and flush at a checkpoint, as a materialized view writes its rows, and
 * the vnode routing of rows between actors. Each invocation is one checkpoint's worth of rows;
 * figures are per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StateTableBenchmark {
    private static final int ROWS = 65_536;
    private static final List<DataType> TYPES =
            List.of(DataType.BIGINT, DataType.INTEGER, DataType.NUMERIC, DataType.TEXT);

    private ScratchStore scratchStore;
    private ReadView latest;
    private StateTable table;
    private Object[][] rows;
    private Object[][] keys;
    private final ByteWriter scratch = new ByteWriter(32);
    private final int[] customerColumn = {1};
    private final List<DataType> customerType = List.of(DataType.INTEGER);

    @Setup(Level.Trial)
    public void open() throws IOException {
        scratchStore = ScratchStore.open();
        latest = scratchStore.latest();
        table = new StateTable(1000, List.of(DataType.BIGINT), null, 1, TYPES, latest);
        rows = OrderRows.orders(1, ROWS, 50_000);
        keys = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            keys[i] = new Object[] {rows[i][0]};
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        scratchStore.close();
    }

    /** Puts one checkpoint's rows into a view's state table and flushes them. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void putAndFlush(Blackhole bh) {
        for (int i = 0; i < ROWS; i++) {
            table.put(keys[i], rows[i]);
        }
        bh.consume(table.flush(new StateWrites() {
            @Override
            public void put(byte[] key, byte[] value) {
                bh.consume(value);
            }

            @Override
            public void delete(byte[] key) {
                bh.consume(key);
            }
        }));
    }

    /** The vnode of each row's distribution key, as an exchange routes rows to actors. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void vnodeOfRow(Blackhole bh) {
        for (int i = 0; i < ROWS; i++) {
            bh.consume(Vnodes.of(customerType, rows[i], customerColumn, scratch));
        }
    }
}
