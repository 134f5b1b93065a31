package io.tributary.common.codec;

import io.tributary.common.types.DataType;
import io.tributary.storage.TableKeys;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Storage keys and rows of a table as {@code TableWriter} builds them for each staged row: the
 * memcomparable primary key after room for the prefix, the prefix (table id, vnode) filled in, and
 * the row's value encoding. Rows are those of {@code bench load} ({@code BIGINT, INT, DOUBLE}) and
 * a two-column key ({@code BIGINT, TEXT}). Figures are per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyEncodingBenchmark {
    private static final int ROWS = 1024;
    private static final List<DataType> LOAD_TYPES = List.of(DataType.BIGINT, DataType.INTEGER, DataType.DOUBLE);
    private static final List<DataType> BIGINT_KEY = List.of(DataType.BIGINT);
    private static final List<DataType> COMPOSITE_KEY = List.of(DataType.BIGINT, DataType.TEXT);
    private static final int[] FIRST = {0};
    private static final int[] FIRST_TWO = {0, 1};

    private final Object[][] loadRows = new Object[ROWS][];
    private final Object[][] textRows = new Object[ROWS][];
    private final ByteWriter keyWriter = new ByteWriter(64);
    private final ByteWriter rowWriter = new ByteWriter(64);
    private RowCodec rowCodec;

    @Setup
    public void setUp() {
        rowCodec = new RowCodec(LOAD_TYPES);
        for (int i = 0; i < ROWS; i++) {
            long x = 1_000_003L * i;
            loadRows[i] = new Object[] {x, (int) (x % 1000), x * 0.5};
            textRows[i] = new Object[] {x, "customer-" + i};
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void bigintKey(Blackhole bh) {
        for (Object[] row : loadRows) {
            bh.consume(key(BIGINT_KEY, row, FIRST));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void bigintTextKey(Blackhole bh) {
        for (Object[] row : textRows) {
            bh.consume(key(COMPOSITE_KEY, row, FIRST_TWO));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void loadRowValue(Blackhole bh) {
        for (Object[] row : loadRows) {
            bh.consume(rowCodec.encode(row, rowWriter));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void loadRowKeyAndValue(Blackhole bh) {
        for (Object[] row : loadRows) {
            bh.consume(key(BIGINT_KEY, row, FIRST));
            bh.consume(rowCodec.encode(row, rowWriter));
        }
    }

    private byte[] key(List<DataType> types, Object[] row, int[] columns) {
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, types, row, columns);
        return TableKeys.fillPrefix(42, keyWriter.toByteArray());
    }
}
