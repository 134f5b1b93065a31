package io.tributary.common.codec;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import java.nio.charset.StandardCharsets;
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
 * COPY FROM STDIN's text-format work per line, as {@code CopyFromStdin} does it: find the line
 * end, split it into fields ({@link CopyTextTokenizer}) and parse each field into its column's
 * canonical value ({@link PgTextFormat#parse(DataType, byte[], int, int)}). The lines are those
 * of {@code bench load} ({@code x, x % 1000, x * 0.5}) and a wider line with text and a NULL.
 * Figures are per line.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CopyParsingBenchmark {
    private static final int LINES = 1024;
    private static final DataType[] LOAD_TYPES = {DataType.BIGINT, DataType.INTEGER, DataType.DOUBLE};
    private static final DataType[] WIDE_TYPES = {
        DataType.BIGINT, DataType.TEXT, DataType.INTEGER, DataType.TEXT, DataType.DOUBLE, DataType.BOOLEAN
    };

    private byte[] loadLines;
    private byte[] wideLines;
    private final CopyTextTokenizer tokenizer = new CopyTextTokenizer('\t', "\\N");

    @Setup
    public void setUp() {
        StringBuilder load = new StringBuilder();
        StringBuilder wide = new StringBuilder();
        for (long x = 1_000_000; x < 1_000_000 + LINES; x++) {
            load.append(x)
                    .append('\t')
                    .append(x % 1000)
                    .append('\t')
                    .append(x * 0.5)
                    .append('\n');
            wide.append(x)
                    .append("\tname ")
                    .append(x)
                    .append("\\twith a tab\t")
                    .append(x % 97)
                    .append("\t\\N\t")
                    .append(x / 3.0)
                    .append('\t')
                    .append(x % 2 == 0 ? 't' : 'f')
                    .append('\n');
        }
        loadLines = load.toString().getBytes(StandardCharsets.UTF_8);
        wideLines = wide.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public void loadLine(Blackhole bh) {
        parseAll(loadLines, LOAD_TYPES, bh);
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public void wideLine(Blackhole bh) {
        parseAll(wideLines, WIDE_TYPES, bh);
    }

    private void parseAll(byte[] data, DataType[] types, Blackhole bh) {
        int start = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '\n') {
                int fields = tokenizer.split(data, start, i);
                byte[] bytes = tokenizer.bytes();
                for (int f = 0; f < fields; f++) {
                    bh.consume(
                            tokenizer.isNull(f)
                                    ? null
                                    : PgTextFormat.parse(types[f], bytes, tokenizer.start(f), tokenizer.length(f)));
                }
                start = i + 1;
            }
        }
    }
}
