package io.tributary.connector.nexmark;

import io.tributary.common.SqlState;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checked options of a {@code nexmark} table.
 *
 * @param eventNum how many events (of all three tables) the generator produces, or
 *     {@link Long#MAX_VALUE} for no end
 * @param fieldOf for each declared column, the index of the generated field it takes
 */
record NexmarkOptions(
        NexmarkTable table, long eventNum, int maxChunkSize, int splitNum, int[] fieldOf, List<DataType> types) {
    static final String TABLE_TYPE = "nexmark.table.type";
    static final String EVENT_NUM = "nexmark.event.num";
    static final String MAX_CHUNK_SIZE = "nexmark.max.chunk.size";
    static final String SPLIT_NUM = "nexmark.split.num";
    static final List<String> NAMES = List.of(TABLE_TYPE, EVENT_NUM, MAX_CHUNK_SIZE, SPLIT_NUM);
    private static final int MAX_SPLITS = 1024;

    /**
     * @throws ConnectorException 42601 for an unknown or missing option, 22023 for a bad value,
     *     42703 when the declared columns are not the table type's, 42804 for a column type that
     *     cannot hold the generated values
     */
    static NexmarkOptions parse(SourceContext context) {
        Map<String, String> options = context.options();
        Set<String> unknown = new TreeSet<>(options.keySet());
        NAMES.forEach(unknown::remove);
        if (!unknown.isEmpty()) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR,
                    "unknown option " + String.join(", ", unknown) + "; the options of connector nexmark are: "
                            + String.join(", ", NAMES));
        }
        String type = options.get(TABLE_TYPE);
        if (type == null) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR,
                    "connector nexmark needs the option " + TABLE_TYPE + " (person, auction or bid); its options are: "
                            + String.join(", ", NAMES));
        }
        NexmarkTable table = switch (type.toLowerCase(Locale.ROOT)) {
            case "person" -> NexmarkTable.PERSON;
            case "auction" -> NexmarkTable.AUCTION;
            case "bid" -> NexmarkTable.BID;
            default -> throw bad(TABLE_TYPE, type, "expected person, auction or bid");
        };
        long eventNum = options.containsKey(EVENT_NUM) ? number(options, EVENT_NUM, 0, Long.MAX_VALUE) : Long.MAX_VALUE;
        int chunk = (int) (options.containsKey(MAX_CHUNK_SIZE) ? number(options, MAX_CHUNK_SIZE, 1, 1 << 20) : 1024);
        int splits = (int) (options.containsKey(SPLIT_NUM) ? number(options, SPLIT_NUM, 1, MAX_SPLITS) : 1);
        int[] fieldOf = new int[context.columns().size()];
        List<DataType> types = new ArrayList<>();
        Set<String> declared = new TreeSet<>();
        for (int i = 0; i < fieldOf.length; i++) {
            SourceColumn column = context.columns().get(i);
            fieldOf[i] = fieldIndex(table, column);
            types.add(column.type());
            declared.add(column.name().toLowerCase(Locale.ROOT));
        }
        if (declared.size() != table.columns.size()) {
            throw new ConnectorException(
                    SqlState.UNDEFINED_COLUMN,
                    "a nexmark " + table.optionValue() + " table must have the columns " + names(table) + "; missing: "
                            + missing(table, declared));
        }
        return new NexmarkOptions(table, eventNum, chunk, splits, fieldOf, List.copyOf(types));
    }

    private static int fieldIndex(NexmarkTable table, SourceColumn column) {
        for (int f = 0; f < table.columns.size(); f++) {
            SourceColumn generated = table.columns.get(f);
            if (generated.name().equalsIgnoreCase(column.name())) {
                if (!fits(generated.type(), column.type())) {
                    throw new ConnectorException(
                            SqlState.DATATYPE_MISMATCH,
                            "column " + column.name() + " of a nexmark "
                                    + table.optionValue() + " table must be " + expected(generated.type()) + ", not "
                                    + column.type().sqlName());
                }
                return f;
            }
        }
        throw new ConnectorException(
                SqlState.UNDEFINED_COLUMN,
                "a nexmark " + table.optionValue() + " table has no column " + column.name() + "; its columns are "
                        + names(table));
    }

    /** Whether every generated value converts to {@code declared} without loss or error. */
    private static boolean fits(DataType generated, DataType declared) {
        return switch (generated.kind()) {
            case BIGINT ->
                declared.kind() == TypeKind.BIGINT || declared.kind() == TypeKind.NUMERIC && declared.precision() <= 0;
            case VARCHAR ->
                declared.kind() == TypeKind.TEXT || declared.kind() == TypeKind.VARCHAR && declared.precision() <= 0;
            case TIMESTAMP -> declared.kind() == TypeKind.TIMESTAMP || declared.kind() == TypeKind.TIMESTAMPTZ;
            default -> false;
        };
    }

    private static String expected(DataType generated) {
        return switch (generated.kind()) {
            case BIGINT -> "bigint (or numeric)";
            case VARCHAR -> "varchar without a length (or text)";
            default -> "timestamp (or timestamptz)";
        };
    }

    private static String names(NexmarkTable table) {
        List<String> names = new ArrayList<>();
        table.columns.forEach(c -> names.add(c.name()));
        return String.join(", ", names);
    }

    private static String missing(NexmarkTable table, Set<String> declared) {
        List<String> names = new ArrayList<>();
        table.columns.stream().filter(c -> !declared.contains(c.name())).forEach(c -> names.add(c.name()));
        return String.join(", ", names);
    }

    private static long number(Map<String, String> options, String name, long min, long max) {
        String text = options.get(name);
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw bad(name, text, "expected a whole number");
        }
        if (v < min || v > max) {
            throw bad(name, text, "expected a number from " + min + " to " + max);
        }
        return v;
    }

    private static ConnectorException bad(String option, String value, String why) {
        return new ConnectorException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value for option " + option + ": \"" + value + "\" (" + why + ")");
    }
}
