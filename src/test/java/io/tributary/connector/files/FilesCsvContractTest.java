package io.tributary.connector.files;

import io.tributary.common.types.DataType;
import io.tributary.connector.Source;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceContractTest;
import io.tributary.connector.SourceFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV files with a header, read across a checkpoint in the middle of a file. While the source is
 * down, lines are appended to the newest file, a file with a greater name arrives and one with a
 * smaller name than every finished file arrives too: all of them are read, nothing twice.
 */
class FilesCsvContractTest extends SourceContractTest {
    @TempDir
    Path dir;

    private final List<List<Object>> expected = new ArrayList<>();
    private int nextId = 1;

    @BeforeEach
    void writeFiles() throws IOException {
        write("b-001.csv", 900, true);
        write("b-002.csv", 900, true);
        write("b-003.csv", 700, false);
    }

    @Override
    protected Source open(byte[] identity) {
        List<SourceColumn> columns = List.of(
                new SourceColumn("id", DataType.INTEGER),
                new SourceColumn("name", DataType.TEXT),
                new SourceColumn("amount", DataType.numeric(10, 2)));
        return new FilesConnector()
                .open(new SourceContext(
                        7,
                        "orders",
                        columns,
                        new int[0],
                        Map.of("path", dir.toString(), "match_pattern", "*.csv"),
                        new SourceFormat("PLAIN", "CSV", Map.of()),
                        identity));
    }

    @Override
    protected List<List<Object>> expectedRows() {
        return expected;
    }

    @Override
    protected int[] primaryKey() {
        return new int[0];
    }

    @Override
    protected int changesBeforeCheckpoint() {
        return 1000;
    }

    @Override
    protected void whileDown() throws IOException {
        Files.writeString(dir.resolve("b-003.csv"), lines(50), StandardOpenOption.APPEND);
        write("b-004.csv", 30, false);
        write("a-000.csv", 20, true);
        Files.writeString(dir.resolve("ignored.txt"), "not,a,match\n");
    }

    private void write(String name, int rows, boolean old) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "id,amount,name\r\n" + lines(rows), StandardCharsets.UTF_8);
        if (old) {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        }
    }

    /** Rows in the header's column order (id, amount, name), names quoted when they need it. */
    private String lines(int rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            int id = nextId++;
            String name = switch (id % 4) {
                case 0 -> "plain " + id;
                case 1 -> "comma, " + id;
                case 2 -> "quote \"" + id + "\"";
                default -> "two\nlines " + id;
            };
            BigDecimal amount = new BigDecimal(id).movePointLeft(2);
            boolean quote = id % 4 != 0;
            sb.append(id)
                    .append(',')
                    .append(amount.toPlainString())
                    .append(',')
                    .append(quote ? '"' + name.replace("\"", "\"\"") + '"' : name)
                    .append('\n');
            expected.add(Arrays.asList(id, name, amount.setScale(2)));
        }
        return sb.toString();
    }
}
