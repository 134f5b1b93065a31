package io.tributary.sql;

import static java.util.Map.entry;

import io.tributary.common.types.DataType;
import java.util.Map;
import java.util.Set;

/**
 * The one table of PostgreSQL type names Tributary understands, with the type each stands for.
 * CREATE TABLE reads it for column types ({@link ColumnTypeParser}, which adds the modifiers such
 * as {@code numeric(10, 2)} or {@code timestamp with time zone}); the Calcite front end reads it
 * for casts ({@code x::int8}) and for the labels of cast columns. Names are lower case; a name
 * that takes modifiers maps to its type without them. Immutable, thread-safe.
 */
public final class PgTypeNames {
    private static final Map<String, DataType> TYPES = Map.ofEntries(
            entry("boolean", DataType.BOOLEAN),
            entry("bool", DataType.BOOLEAN),
            entry("smallint", DataType.SMALLINT),
            entry("int2", DataType.SMALLINT),
            entry("int", DataType.INTEGER),
            entry("integer", DataType.INTEGER),
            entry("int4", DataType.INTEGER),
            entry("bigint", DataType.BIGINT),
            entry("int8", DataType.BIGINT),
            entry("real", DataType.REAL),
            entry("float4", DataType.REAL),
            entry("float8", DataType.DOUBLE),
            entry("float", DataType.DOUBLE),
            entry("double", DataType.DOUBLE),
            entry("numeric", DataType.NUMERIC),
            entry("decimal", DataType.NUMERIC),
            entry("varchar", DataType.VARCHAR),
            entry("text", DataType.TEXT),
            entry("string", DataType.TEXT),
            entry("date", DataType.DATE),
            entry("time", DataType.TIME),
            entry("timestamp", DataType.TIMESTAMP),
            entry("timestamptz", DataType.TIMESTAMPTZ),
            entry("interval", DataType.INTERVAL),
            entry("bytea", DataType.BYTEA),
            entry("uuid", DataType.UUID),
            entry("json", DataType.JSON),
            entry("jsonb", DataType.JSONB));

    /** PostgreSQL types Tributary does not have: naming one is "not supported", not "does not exist". */
    private static final Set<String> UNSUPPORTED =
            Set.of("serial", "bigserial", "money", "inet", "point", "xml", "bit", "timetz");

    private PgTypeNames() {}

    /** The type a lower-case name stands for, without modifiers; null when Tributary has no such name. */
    public static DataType lookup(String name) {
        return TYPES.get(name);
    }

    /** Every name with its type. */
    public static Map<String, DataType> all() {
        return TYPES;
    }

    /** True for a PostgreSQL type Tributary knows of but cannot store. */
    static boolean isUnsupported(String name) {
        return UNSUPPORTED.contains(name);
    }
}
