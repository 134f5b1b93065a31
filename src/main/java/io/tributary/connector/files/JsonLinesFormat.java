package io.tributary.connector.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.tributary.common.SqlState;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON Lines: one JSON object per line, its fields matched to columns by name (case-insensitively);
 * columns without a field, or with a JSON null, are NULL and fields without a column are ignored.
 * Scalars are read as PostgreSQL text input of the column's type; an object or array becomes its
 * JSON text (so it fits a text column only).
 */
final class JsonLinesFormat implements RecordFormat {
    private static final ObjectReader JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .reader();

    private final RowBuilder rows;

    JsonLinesFormat(RowBuilder rows) {
        this.rows = rows;
    }

    @Override
    public int recordEnd(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    @Override
    public boolean hasHeader() {
        return false;
    }

    @Override
    public int[] header(String record) {
        throw new IllegalStateException("JSON lines have no header");
    }

    @Override
    public Object[] row(String record, int[] layout) throws MalformedRecordException {
        JsonNode node;
        try {
            node = JSON.readTree(record);
        } catch (JsonProcessingException e) {
            throw new MalformedRecordException(
                    SqlState.INVALID_TEXT_REPRESENTATION, "invalid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new MalformedRecordException(SqlState.INVALID_TEXT_REPRESENTATION, "not a JSON object");
        }
        Object[] row = new Object[rows.width()];
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            int c = rows.columnIndex(field.getKey());
            if (c >= 0) {
                row[c] = rows.convert(c, text(field.getValue()));
            }
        }
        return rows.checked(row);
    }

    private static String text(JsonNode v) {
        if (v.isNull()) {
            return null;
        }
        if (v.isContainerNode()) {
            return v.toString();
        }
        return v.asText();
    }
}
