package io.tributary.connector.files;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.connector.Source;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceContractTest;
import io.tributary.connector.SourceFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSON Lines into a table with a primary key, a checkpoint in the middle of the first file, and
 * lines appended plus a new file while the source is down.
 */
class FilesJsonContractTest extends SourceContractTest {
    @TempDir
    Path dir;

    private final List<List<Object>> expected = new ArrayList<>();
    private long nextId = 1;

    @BeforeEach
    void writeFiles() throws IOException {
        Files.writeString(dir.resolve("events-1.jsonl"), lines(1500));
        Files.writeString(dir.resolve("events-2.jsonl"), lines(400));
    }

    @Override
    protected Source open(byte[] identity) {
        List<SourceColumn> columns = List.of(
                new SourceColumn("id", DataType.BIGINT),
                new SourceColumn("name", DataType.varchar(20)),
                new SourceColumn("ts", DataType.TIMESTAMP));
        return new FilesConnector()
                .open(new SourceContext(
                        8,
                        "events",
                        columns,
                        new int[] {0},
                        Map.of("path", dir.toString()),
                        new SourceFormat("PLAIN", "JSON", Map.of()),
                        identity));
    }

    @Override
    protected List<List<Object>> expectedRows() {
        return expected;
    }

    @Override
    protected int[] primaryKey() {
        return new int[] {0};
    }

    @Override
    protected int changesBeforeCheckpoint() {
        return 700;
    }

    @Override
    protected void whileDown() throws IOException {
        Files.writeString(dir.resolve("events-2.jsonl"), lines(25), StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("events-3.jsonl"), lines(10));
    }

    /** Every third object lacks "name" and every fifth has an extra field the table lacks. */
    private String lines(int rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            long id = nextId++;
            String ts = "2024-03-01 12:00:" + String.format("%02d", id % 60);
            String name = id % 3 == 0 ? null : "n" + id;
            sb.append("{\"ID\": ").append(id);
            if (name != null) {
                sb.append(", \"name\": \"").append(name).append('"');
            }
            if (id % 5 == 0) {
                sb.append(", \"other\": {\"x\": [1, 2]}");
            }
            sb.append(", \"ts\": \"").append(ts).append("\"}\n");
            expected.add(Arrays.asList(id, name, PgTextFormat.parseTimestamp(ts, false)));
        }
        return sb.toString();
    }
}
