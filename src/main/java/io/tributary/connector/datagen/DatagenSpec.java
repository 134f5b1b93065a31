package io.tributary.connector.datagen;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A datagen table's options, checked: one generator per column, the rate, the split count and the
 * number of rows. Immutable.
 *
 * @param fields one generator per column, in column order
 * @param rowsPerSecond rows per second over all splits
 * @param splitCount how many splits share the rows
 * @param totalRows how many rows there are: {@code datagen.rows.total} or the fewest any sequence
 *     field can produce, {@code Long.MAX_VALUE} for no end
 */
record DatagenSpec(List<FieldGenerator> fields, double rowsPerSecond, int splitCount, long totalRows) {
    static final String ROWS_PER_SECOND = "datagen.rows.per.second";
    static final String SPLIT_NUM = "datagen.split.num";
    static final String ROWS_TOTAL = "datagen.rows.total";
    static final String FIELDS = "fields.";
    static final List<String> FIELD_PROPERTIES = List.of("kind", "start", "end", "seed", "length");
    static final int MAX_SPLITS = 256;

    private static final long DEFAULT_ROWS_PER_SECOND = 10;
    private static final long DEFAULT_RANDOM_HIGH = 32767;
    private static final int DEFAULT_LENGTH = 10;
    private static final int DEFAULT_NUMERIC_SCALE = 2;
    private static final String DEFAULT_FIRST_DAY = "2024-01-01";
    private static final String DEFAULT_LAST_DAY = "2024-12-31";
    private static final String DEFAULT_LAST_SECOND = "2024-12-31 23:59:59";

    /**
     * @throws ConnectorException 42601 for a {@code fields.*} option that names no column or
     *     property, 22023 for a bad value
     */
    static DatagenSpec parse(SourceContext context) {
        if (context.format() != null) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "connector datagen generates rows itself and takes no FORMAT ... ENCODE clause");
        }
        Map<String, Map<String, String>> byColumn = new HashMap<>();
        for (Map.Entry<String, String> e : context.options().entrySet()) {
            String name = e.getKey();
            if (!name.startsWith(FIELDS)) {
                continue;
            }
            int dot = name.lastIndexOf('.');
            String column = dot > FIELDS.length() ? name.substring(FIELDS.length(), dot) : "";
            String property = name.substring(dot + 1);
            if (column.isEmpty() || !FIELD_PROPERTIES.contains(property)) {
                throw new ConnectorException(
                        SqlState.SYNTAX_ERROR,
                        "unknown option \"" + name
                                + "\" for connector datagen; a field's options are fields.<column>."
                                + String.join(", fields.<column>.", FIELD_PROPERTIES));
            }
            if (context.columns().stream().noneMatch(c -> c.name().equals(column))) {
                throw new ConnectorException(
                        SqlState.SYNTAX_ERROR,
                        "option \"" + name + "\" names no column of table "
                                + context.tableName() + "; its columns are: "
                                + String.join(
                                        ", ",
                                        context.columns().stream()
                                                .map(SourceColumn::name)
                                                .toList()));
            }
            byColumn.computeIfAbsent(column, c -> new HashMap<>()).put(property, e.getValue());
        }
        List<FieldGenerator> fields = new ArrayList<>();
        long total = Long.MAX_VALUE;
        for (int i = 0; i < context.columns().size(); i++) {
            SourceColumn column = context.columns().get(i);
            FieldGenerator g = field(column, i, byColumn.getOrDefault(column.name(), Map.of()));
            fields.add(g);
            total = Math.min(total, g.rowLimit());
        }
        String totalOption = context.options().get(ROWS_TOTAL);
        if (totalOption != null) {
            total = Math.min(total, positiveLong(ROWS_TOTAL, totalOption, true));
        }
        long rate = context.options().containsKey(ROWS_PER_SECOND)
                ? positiveLong(ROWS_PER_SECOND, context.options().get(ROWS_PER_SECOND), false)
                : DEFAULT_ROWS_PER_SECOND;
        long splits = context.options().containsKey(SPLIT_NUM)
                ? positiveLong(SPLIT_NUM, context.options().get(SPLIT_NUM), false)
                : 1;
        if (splits > MAX_SPLITS) {
            throw bad(SPLIT_NUM, Long.toString(splits), "at most " + MAX_SPLITS);
        }
        return new DatagenSpec(List.copyOf(fields), rate, (int) splits, total);
    }

    private static FieldGenerator field(SourceColumn column, int index, Map<String, String> props) {
        String prefix = FIELDS + column.name() + ".";
        String kind = props.getOrDefault("kind", "random");
        DataType type = column.type();
        if (props.containsKey("length") && !isText(type)) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "option \"" + prefix + "length\" applies to text columns only; " + column.name() + " is "
                            + type.sqlName());
        }
        switch (kind) {
            case "sequence" -> {
                if (props.containsKey("seed") || props.containsKey("length")) {
                    throw new ConnectorException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "options seed and length of " + prefix + "* apply to kind 'random' only");
                }
                return sequence(column, prefix, props);
            }
            case "random" -> {
                return random(column, index, prefix, props);
            }
            default -> throw bad(prefix + "kind", kind, "'sequence' or 'random'");
        }
    }

    private static FieldGenerator sequence(SourceColumn column, String prefix, Map<String, String> props) {
        DataType type = column.type();
        long start = switch (type.kind()) {
            case SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, NUMERIC, TEXT, VARCHAR ->
                props.containsKey("start") ? wholeNumber(prefix + "start", props.get("start")) : 1;
            case DATE -> (int) value(type, prefix + "start", props.getOrDefault("start", DEFAULT_FIRST_DAY));
            case TIMESTAMP, TIMESTAMPTZ ->
                (long) value(type, prefix + "start", props.getOrDefault("start", DEFAULT_FIRST_DAY + " 00:00:00"));
            default ->
                throw new ConnectorException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "column " + column.name()
                                + " of type " + type.sqlName()
                                + " cannot be a sequence; sequences are numbers, text, dates "
                                + "and timestamps");
        };
        Long end = null;
        if (props.containsKey("end")) {
            end = switch (type.kind()) {
                case DATE -> (long) (int) value(type, prefix + "end", props.get("end"));
                case TIMESTAMP, TIMESTAMPTZ -> (long) value(type, prefix + "end", props.get("end"));
                default -> wholeNumber(prefix + "end", props.get("end"));
            };
        }
        if (type.kind() == TypeKind.SMALLINT || type.kind() == TypeKind.INTEGER) {
            // the values must fit the column: parse both bounds as the column's type
            value(type, prefix + "start", Long.toString(start));
            if (end != null) {
                value(type, prefix + "end", Long.toString(end));
            }
        }
        return new SequenceField(type, start, end);
    }

    private static FieldGenerator random(SourceColumn column, int index, String prefix, Map<String, String> props) {
        DataType type = column.type();
        long seed = props.containsKey("seed") ? wholeNumber(prefix + "seed", props.get("seed")) : index;
        int length = props.containsKey("length")
                ? (int) Math.min(positiveLong(prefix + "length", props.get("length"), false), 1 << 20)
                : 0;
        switch (type.kind()) {
            case BOOLEAN -> {
                rejectBounds(column, prefix, props);
                return new RandomField(type, seed, 0, 1, 0, 0, 0, 0);
            }
            case TEXT, VARCHAR -> {
                rejectBounds(column, prefix, props);
                int n = length > 0
                        ? length
                        : type.precision() > 0 ? Math.min(DEFAULT_LENGTH, type.precision()) : DEFAULT_LENGTH;
                if (type.precision() > 0 && n > type.precision()) {
                    throw bad(
                            prefix + "length",
                            Integer.toString(n),
                            "at most " + type.precision() + ", the length of " + type.sqlName());
                }
                return new RandomField(type, seed, 0, 0, 0, 0, 0, n);
            }
            case SMALLINT, INTEGER, BIGINT -> {
                long lo = ((Number) value(type, prefix + "start", props.getOrDefault("start", "0"))).longValue();
                long hi = ((Number) value(
                                type, prefix + "end", props.getOrDefault("end", Long.toString(DEFAULT_RANDOM_HIGH))))
                        .longValue();
                checkOrder(prefix, lo, hi);
                return new RandomField(type, seed, lo, hi, 0, 0, 0, 0);
            }
            case REAL, DOUBLE -> {
                double lo = ((Number) value(DataType.DOUBLE, prefix + "start", props.getOrDefault("start", "0")))
                        .doubleValue();
                double hi = ((Number) value(
                                DataType.DOUBLE,
                                prefix + "end",
                                props.getOrDefault("end", Long.toString(DEFAULT_RANDOM_HIGH))))
                        .doubleValue();
                checkOrder(prefix, lo, hi);
                return new RandomField(type, seed, 0, 0, lo, hi, 0, 0);
            }
            case NUMERIC -> {
                int scale = type.precision() > 0 ? Math.max(type.scale(), 0) : DEFAULT_NUMERIC_SCALE;
                BigDecimal lo = (BigDecimal) value(type, prefix + "start", props.getOrDefault("start", "0"));
                BigDecimal hi = (BigDecimal)
                        value(type, prefix + "end", props.getOrDefault("end", Long.toString(DEFAULT_RANDOM_HIGH)));
                checkOrder(prefix, lo.doubleValue(), hi.doubleValue());
                long unscaledLo;
                long unscaledHi;
                try {
                    unscaledLo = lo.setScale(scale, RoundingMode.CEILING)
                            .unscaledValue()
                            .longValueExact();
                    unscaledHi = hi.setScale(scale, RoundingMode.FLOOR)
                            .unscaledValue()
                            .longValueExact();
                } catch (ArithmeticException e) {
                    throw bad(prefix + "end", hi.toPlainString(), "bounds of at most 18 digits");
                }
                return new RandomField(type, seed, unscaledLo, unscaledHi, 0, 0, scale, 0);
            }
            case DATE -> {
                int lo = (int) value(type, prefix + "start", props.getOrDefault("start", DEFAULT_FIRST_DAY));
                int hi = (int) value(type, prefix + "end", props.getOrDefault("end", DEFAULT_LAST_DAY));
                checkOrder(prefix, lo, hi);
                return new RandomField(type, seed, lo, hi, 0, 0, 0, 0);
            }
            case TIMESTAMP, TIMESTAMPTZ -> {
                long lo = (long)
                        value(type, prefix + "start", props.getOrDefault("start", DEFAULT_FIRST_DAY + " 00:00:00"));
                long hi = (long) value(type, prefix + "end", props.getOrDefault("end", DEFAULT_LAST_SECOND));
                checkOrder(prefix, lo, hi);
                return new RandomField(
                        type, seed, Math.floorDiv(lo + 999_999, 1_000_000L), Math.floorDiv(hi, 1_000_000L), 0, 0, 0, 0);
            }
            default ->
                throw new ConnectorException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "connector datagen cannot "
                                + "generate column " + column.name() + " of type " + type.sqlName() + "; its types are "
                                + "boolean, smallint, integer, bigint, real, double precision, numeric, text, varchar, date, "
                                + "timestamp and timestamptz");
        }
    }

    private static boolean isText(DataType type) {
        return type.kind() == TypeKind.TEXT || type.kind() == TypeKind.VARCHAR;
    }

    private static void rejectBounds(SourceColumn column, String prefix, Map<String, String> props) {
        if (props.containsKey("start") || props.containsKey("end")) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "options " + prefix + "start and " + prefix + "end do not apply to random values of type "
                            + column.type().sqlName());
        }
    }

    private static void checkOrder(String prefix, double lo, double hi) {
        if (lo > hi) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "option \"" + prefix + "start\" must not be greater than \"" + prefix + "end\"");
        }
    }

    /** The option's text as a value of {@code type}, or 22023 naming the option. */
    private static Object value(DataType type, String option, String text) {
        try {
            return PgTextFormat.parse(type, text);
        } catch (TributaryException e) {
            throw bad(option, text, "a value of type " + type.sqlName() + " (" + e.getMessage() + ")");
        }
    }

    private static long wholeNumber(String option, String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw bad(option, text, "a whole number");
        }
    }

    private static long positiveLong(String option, String text, boolean zeroAllowed) {
        long v = wholeNumber(option, text);
        if (v < (zeroAllowed ? 0 : 1)) {
            throw bad(option, text, zeroAllowed ? "a whole number of 0 or more" : "a whole number of 1 or more");
        }
        return v;
    }

    private static ConnectorException bad(String option, String value, String expected) {
        return new ConnectorException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value '" + value + "' for option \"" + option + "\": expected " + expected);
    }
}
