package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.KeyRangeDmlText;
import io.tributary.sql.ReadContext;
import io.tributary.sql.StatementPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Plans a statement {@link KeyRangeDmlText} read into an UPDATE or DELETE whose rows come from a
 * {@link KeyRangeQuery}: a range read of the table's store and assignments evaluated without
 * Calcite, at planning or at execution. Only statements whose meaning in PostgreSQL is certain
 * from the catalog alone are planned (see {@link #plan}); for any other, null, and the general
 * path plans it. Stateless; the session's thread.
 */
final class KeyRangeDml {
    /** Whether a word is reserved in the grammar the general path parses with, so not a bare name there. */
    private static final SqlAbstractParserImpl.Metadata GRAMMAR =
            SqlParser.create("", CalciteSettings.PARSER).getMetadata();

    private KeyRangeDml() {}

    /** Whether a name {@code read} gives unquoted is a reserved word, which the general path refuses. */
    static boolean namesReserved(KeyRangeDmlText.Statement read) {
        if (read.bareTable() && reserved(read.table()) || reserved(read.keyColumn())) {
            return true;
        }
        for (KeyRangeDmlText.Assignment a : read.set()) {
            if (reserved(a.column()) || a.base() != null && reserved(a.base())) {
                return true;
            }
        }
        return false;
    }

    private static boolean reserved(String word) {
        return GRAMMAR.isReservedWord(word.toUpperCase(Locale.ROOT));
    }

    /**
     * The plan of {@code read} on {@code table}, or null when the statement is outside what this
     * path runs exactly as PostgreSQL does:
     *
     * <ul>
     *   <li>the key is the first primary-key column, of type smallint, integer or bigint, bounded by
     *       integer constants within its type or by parameters (typed as the column);
     *   <li>no assignment targets a primary-key, hidden or {@code GENERATED ALWAYS} column, or a
     *       column twice;
     *   <li>{@code column = constant} assigns as INSERT does (a number into a numeric column, a
     *       string into any, NULL into any, a boolean into a boolean); {@code column = $n} types
     *       {@code $n} as the column;
     *   <li>{@code column = column ± operand} only on integer, bigint and numeric columns, with an
     *       integer constant (on integer and bigint), a numeric constant (on numeric) or a
     *       parameter typed as the column;
     *   <li>parameters are {@code $1..$n}, each used, each of one type.
     * </ul>
     */
    static StatementPlan plan(KeyRangeDmlText.Statement read, TableDef table, ReadContext context) {
        if (table.hasRowId() || table.primaryKey().length == 0) {
            return null;
        }
        int keyIndex = table.primaryKey()[0];
        ColumnDef keyColumn = table.columns().get(keyIndex);
        if (!keyColumn.name().equals(read.keyColumn())
                || !isIntegral(keyColumn.type().kind())) {
            return null;
        }
        List<DataType> params = new ArrayList<>();
        if (!bound(read.low(), keyColumn.type(), params) || !bound(read.high(), keyColumn.type(), params)) {
            return null;
        }
        int[] targets = new int[read.set().size()];
        List<KeyRangeQuery.Assignment> assignments = new ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            KeyRangeDmlText.Assignment a = read.set().get(i);
            int column = visibleColumn(table, a.column());
            if (column < 0 || isKeyColumn(table, column) || contains(targets, i, column)) {
                return null;
            }
            ColumnDef def = table.columns().get(column);
            if (def.identity() == ColumnDef.Identity.ALWAYS || def.generated() != null) {
                return null;
            }
            targets[i] = column;
            KeyRangeQuery.Assignment planned = a.base() == null
                    ? plainAssignment(a.operand(), def.type(), params)
                    : arithmetic(a, column, def, params);
            if (planned == null) {
                return null;
            }
            assignments.add(planned);
        }
        for (DataType p : params) {
            if (p == null) {
                return null; // a parameter number left out
            }
        }
        KeyRangeQuery query =
                new KeyRangeQuery(table, context, read.low(), read.high(), assignments, List.copyOf(params), targets);
        return read.update()
                ? new StatementPlan.Update(table, targets, query, null)
                : new StatementPlan.Delete(table, query, null);
    }

    private static KeyRangeQuery.Assignment plainAssignment(
            KeyRangeDmlText.Operand operand, DataType target, List<DataType> params) {
        if (operand.isParam()) {
            return param(operand.param(), target, params) ? KeyRangeQuery.Assignment.constant(operand) : null;
        }
        Object c = operand.constant();
        boolean fits = c == null
                || c instanceof String
                || c instanceof BigDecimal && target.kind().isNumeric()
                || c instanceof Boolean && target.kind() == TypeKind.BOOLEAN;
        return fits ? KeyRangeQuery.Assignment.constant(operand) : null;
    }

    private static KeyRangeQuery.Assignment arithmetic(
            KeyRangeDmlText.Assignment a, int column, ColumnDef def, List<DataType> params) {
        TypeKind kind = def.type().kind();
        if (!a.base().equals(a.column())
                || kind != TypeKind.INTEGER && kind != TypeKind.BIGINT && kind != TypeKind.NUMERIC) {
            return null;
        }
        KeyRangeDmlText.Operand operand = a.operand();
        if (operand.isParam()) {
            if (!param(operand.param(), def.type(), params)) {
                return null;
            }
        } else if (!(operand.constant() instanceof BigDecimal number)
                || kind != TypeKind.NUMERIC && integral(number) == null) {
            return null;
        }
        return KeyRangeQuery.Assignment.arithmetic(column, a.subtract(), operand);
    }

    /** Whether {@code operand} bounds a key of {@code type}: a parameter, or an integer constant within the type. */
    private static boolean bound(KeyRangeDmlText.Operand operand, DataType type, List<DataType> params) {
        if (operand.isParam()) {
            return param(operand.param(), type, params);
        }
        if (operand.constant() == null) {
            return true; // BETWEEN NULL AND ... matches nothing
        }
        if (!(operand.constant() instanceof BigDecimal number)) {
            return false;
        }
        Long value = integral(number);
        return value != null && value >= min(type.kind()) && value <= max(type.kind());
    }

    /**
     * Records {@code $n} as of the type of a column of {@code column}'s type; false when it
     * already has another type. As in PostgreSQL, a parameter takes the type without its length or
     * scale, which applies when the value is assigned to a row (so a long string bound for an
     * UPDATE that matches nothing is no error, and {@code amount + $1} adds before it rounds).
     */
    private static boolean param(int n, DataType column, List<DataType> params) {
        DataType type = DataType.of(column.kind());
        while (params.size() < n) {
            params.add(null);
        }
        DataType had = params.get(n - 1);
        if (had != null && !had.equals(type)) {
            return false;
        }
        params.set(n - 1, type);
        return true;
    }

    /** The value of an integer-valued number within bigint, else null. */
    static Long integral(BigDecimal number) {
        try {
            return number.stripTrailingZeros().scale() > 0 ? null : number.longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static boolean isIntegral(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }

    private static long min(TypeKind kind) {
        return switch (kind) {
            case SMALLINT -> Short.MIN_VALUE;
            case INTEGER -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
    }

    private static long max(TypeKind kind) {
        return switch (kind) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }

    private static int visibleColumn(TableDef table, String name) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).hidden() && columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isKeyColumn(TableDef table, int column) {
        return Arrays.stream(table.primaryKey()).anyMatch(k -> k == column);
    }

    private static boolean contains(int[] values, int length, int value) {
        for (int i = 0; i < length; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }
}
