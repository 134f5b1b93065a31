package io.tributary.connector.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceFormat;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesOptionsTest {
    @TempDir
    Path dir;

    private ConnectorException fails(Map<String, String> options, SourceFormat format) {
        Map<String, String> all = new HashMap<>(options);
        all.putIfAbsent("path", dir.toString());
        return assertThrows(
                ConnectorException.class,
                () -> new FilesConnector()
                        .open(new SourceContext(
                                1,
                                "t",
                                List.of(new SourceColumn("a", DataType.INTEGER)),
                                new int[0],
                                all,
                                format,
                                null)));
    }

    private static final SourceFormat CSV = new SourceFormat("PLAIN", "CSV", Map.of());

    @Test
    void unknownOrMissingOptionsName42601AndTheValidOnes() {
        ConnectorException unknown = fails(Map.of("paht", "/x"), CSV);
        assertEquals("42601", unknown.sqlState());
        assertTrue(
                unknown.getMessage().contains("paht") && unknown.getMessage().contains("path, match_pattern, on_error"),
                unknown.getMessage());
        ConnectorException noFormat = fails(Map.of(), null);
        assertEquals("42601", noFormat.sqlState());
        assertTrue(noFormat.getMessage().contains("FORMAT PLAIN ENCODE CSV"));
        ConnectorException csvOption = fails(Map.of(), new SourceFormat("PLAIN", "CSV", Map.of("header", "true")));
        assertEquals("42601", csvOption.sqlState());
        assertTrue(csvOption.getMessage().contains("without_header, delimiter"));
    }

    @Test
    void badValuesAre22023() {
        assertEquals("22023", fails(Map.of("on_error", "ignore"), CSV).sqlState());
        assertEquals(
                "22023",
                fails(Map.of("path", dir.resolve("missing").toString()), CSV).sqlState());
        assertEquals("22023", fails(Map.of("match_pattern", "[a"), CSV).sqlState());
        assertEquals(
                "22023",
                fails(Map.of(), new SourceFormat("PLAIN", "CSV", Map.of("delimiter", ";;")))
                        .sqlState());
        assertEquals(
                "22023",
                fails(Map.of(), new SourceFormat("PLAIN", "CSV", Map.of("without_header", "yes")))
                        .sqlState());
        assertEquals(
                "22023",
                fails(Map.of(), new SourceFormat("PLAIN", "AVRO", Map.of())).sqlState());
        assertEquals(
                "22023",
                fails(Map.of(), new SourceFormat("UPSERT", "JSON", Map.of())).sqlState());
    }
}
