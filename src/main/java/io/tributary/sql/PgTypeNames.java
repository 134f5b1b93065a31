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

    /** PostgreSQL's types Tributary does not have: naming one is "not supported", not "does not exist". */
    private static final Set<String> UNSUPPORTED_TYPES = Set.of("money", "inet", "point", "xml", "bit", "timetz");

    /** PostgreSQL's column type names without a type of their own that Tributary does not read here. */
    private static final Set<String> UNSUPPORTED_COLUMN_TYPES = Set.of("serial", "bigserial");

    private PgTypeNames() {}

    /** The type a lower-case name stands for, without modifiers; null when Tributary has no such name. */
    public static DataType lookup(String name) {
        return TYPES.get(name);
    }

    /**
     * The type a type name text names as PostgreSQL's type input reads it ({@code integer},
     * {@code character varying(3)}, {@code int[]}), for a constant cast to {@code regtype}; null
     * when the text is no name of a type Tributary has.
     */
    public static DataType parse(String text) {
        try {
            TokenCursor in = new TokenCursor(text);
            DataType type = ColumnTypeParser.type(in);
            return in.peek().kind() == Token.Kind.END ? type : null;
        } catch (io.tributary.common.TributaryException notAType) {
            return null; // left to pg_type's names, as other catalog types are
        }
    }

    /** Every name with its type. */
    public static Map<String, DataType> all() {
        return TYPES;
    }

    /** True for a PostgreSQL column type name Tributary knows of but cannot store. */
    static boolean isUnsupported(String name) {
        return UNSUPPORTED_TYPES.contains(name) || UNSUPPORTED_COLUMN_TYPES.contains(name);
    }

    /**
     * True for a PostgreSQL type (a lower-case name) that Tributary has no values of, which a cast
     * names ({@code '1.5'::money}); not {@code serial}, which names no type outside a column
     * definition.
     */
    public static boolean isUnsupportedType(String name) {
        return UNSUPPORTED_TYPES.contains(name);
    }
}
