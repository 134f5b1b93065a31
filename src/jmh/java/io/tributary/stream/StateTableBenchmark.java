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
    /** Read once, so it keeps its writes in its hash map: the path before writes in key order ran. */
    private StateTable readTable;

    private Object[][] rows;
    private Object[][] keys;
    /** {@link #rows} and {@link #keys} in store-key order (vnode, then key), as a backfill reads them. */
    private Object[][] sortedRows;

    private Object[][] sortedKeys;
    /** {@link #sortedRows} as their table stores them: memcomparable primary keys and encoded values. */
    private byte[][] storedPks;

    private byte[][] storedValues;
    private final io.tributary.common.codec.RowCodec codec = new io.tributary.common.codec.RowCodec(TYPES);
    /** The key of the row {@link #decodeAndPutInKeyOrder} puts, reused as a view's operator does. */
    private final Object[] key = new Object[1];

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
        readTable = new StateTable(1001, List.of(DataType.BIGINT), null, 1, TYPES, latest);
        readTable.get(keys[0]);
        Integer[] order = new Integer[ROWS];
        for (int i = 0; i < ROWS; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order, (x, y) -> java.util.Arrays.compareUnsigned(table.storeKey(keys[x]), table.storeKey(keys[y])));
        sortedRows = new Object[ROWS][];
        sortedKeys = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            sortedRows[i] = rows[order[i]];
            sortedKeys[i] = keys[order[i]];
        }
        storedPks = new byte[ROWS][];
        storedValues = new byte[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            scratch.reset();
            io.tributary.common.codec.KeyCodec.encode(scratch, List.of(DataType.BIGINT), sortedRows[i], new int[] {0});
            storedPks[i] = scratch.toByteArray();
            storedValues[i] = codec.encode(sortedRows[i]);
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
        putAndFlush(table, keys, rows, bh);
    }

    /**
     * As {@link #putAndFlush} with the rows in store-key order, as a view's snapshot backfill
     * writes them: held as a run, handed over sorted.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void putAndFlushInKeyOrder(Blackhole bh) {
        putAndFlush(table, sortedKeys, sortedRows, bh);
    }

    /**
     * As {@link #putAndFlushInKeyOrder} with the rows given as their upstream table stores them, as
     * a {@code SELECT *} view's backfill now copies them ({@link StateTable#putStored}), against
     * decoding each stored row and encoding it again ({@link #decodeAndPutInKeyOrder}), the path
     * before.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void putStoredAndFlushInKeyOrder(Blackhole bh) {
        for (int i = 0; i < ROWS; i++) {
            table.putStored(storedPks[i], storedValues[i]);
        }
        bh.consume(table.flush(consuming(bh)));
    }

    /** The stored rows of {@link #putStoredAndFlushInKeyOrder} decoded, put and flushed. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void decodeAndPutInKeyOrder(Blackhole bh) {
        for (int i = 0; i < ROWS; i++) {
            Object[] row = codec.decode(storedValues[i]);
            key[0] = row[0];
            table.put(key, row);
        }
        bh.consume(table.flush(consuming(bh)));
    }

    private static StateWrites consuming(Blackhole bh) {
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

    /** As {@link #putAndFlushInKeyOrder} into a table that keeps its writes in its hash map. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void putAndFlushInKeyOrderThroughMap(Blackhole bh) {
        putAndFlush(readTable, sortedKeys, sortedRows, bh);
    }

    private static void putAndFlush(StateTable t, Object[][] keys, Object[][] rows, Blackhole bh) {
        for (int i = 0; i < ROWS; i++) {
            t.put(keys[i], rows[i]);
        }
        bh.consume(t.flush(new StateWrites() {
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
