package io.tributary.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.nio.charset.StandardCharsets;

/**
 * Serializes catalog records for the store's catalog keyspace. JSON keeps the records readable
 * and lets later versions add fields. Thread-safe.
 */
public final class CatalogCodec {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE_PREFIX = "table/";
    private static final String VIEW_PREFIX = "view/";
    private static final String SINK_PREFIX = "sink/";
    private static final String SCHEMA_PREFIX = "schema/";
    private static final String SEQUENCE_PREFIX = "seqdef/";

    private CatalogCodec() {}

    public static byte[] tableKey(int tableId) {
        return (TABLE_PREFIX + tableId).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] tablePrefixStart() {
        return TABLE_PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] tablePrefixEnd() {
        return "table0".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] viewKey(String name) {
        return (VIEW_PREFIX + name).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] viewPrefixStart() {
        return VIEW_PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] viewPrefixEnd() {
        return "view0".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] encode(ViewDef view) {
        try {
            return JSON.writeValueAsBytes(view);
        } catch (JsonProcessingException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode catalog record", e);
        }
    }

    public static byte[] schemaKey(String name) {
        return (SCHEMA_PREFIX + name).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] schemaPrefixStart() {
        return SCHEMA_PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] schemaPrefixEnd() {
        return "schema0".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] encode(SchemaDef schema) {
        try {
            return JSON.writeValueAsBytes(schema);
        } catch (JsonProcessingException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode catalog record", e);
        }
    }

    public static SchemaDef decodeSchema(byte[] bytes) {
        try {
            return JSON.readValue(bytes, SchemaDef.class);
        } catch (java.io.IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt catalog record", e);
        }
    }

    public static byte[] sinkKey(int sinkId) {
        return (SINK_PREFIX + sinkId).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] sinkPrefixStart() {
        return SINK_PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] sinkPrefixEnd() {
        return "sink0".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] encode(SinkDef sink) {
        try {
            return JSON.writeValueAsBytes(sink);
        } catch (JsonProcessingException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode catalog record", e);
        }
    }

    public static ViewDef decodeView(byte[] bytes) {
        try {
            return JSON.readValue(bytes, ViewDef.class);
        } catch (java.io.IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt catalog record", e);
        }
    }

    public static SinkDef decodeSink(byte[] bytes) {
        try {
            return JSON.readValue(bytes, SinkDef.class);
        } catch (java.io.IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt catalog record", e);
        }
    }

    public static byte[] encode(TableDef table) {
        try {
            return JSON.writeValueAsBytes(table);
        } catch (JsonProcessingException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode catalog record", e);
        }
    }

    public static TableDef decodeTable(byte[] bytes) {
        try {
            return JSON.readValue(bytes, TableDef.class);
        } catch (java.io.IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt catalog record", e);
        }
    }

    public static byte[] sequenceKey(String name) {
        return (SEQUENCE_PREFIX + name).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] sequencePrefixStart() {
        return SEQUENCE_PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] sequencePrefixEnd() {
        return "seqdef0".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] encode(SequenceDef sequence) {
        try {
            return JSON.writeValueAsBytes(sequence);
        } catch (JsonProcessingException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode catalog record", e);
        }
    }

    public static SequenceDef decodeSequence(byte[] bytes) {
        try {
            return JSON.readValue(bytes, SequenceDef.class);
        } catch (java.io.IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt catalog record", e);
        }
    }
}
