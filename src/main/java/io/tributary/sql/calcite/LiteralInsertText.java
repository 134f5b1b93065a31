package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.PgTypeNames;
import io.tributary.sql.StatementPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Reads {@code INSERT INTO table [(column, ...)] VALUES (constant, ...), ...} without Calcite's
 * parser, as clients that send their constants in the text (psql, ORMs, bulk loaders) send it
 * thousands of rows at a time: Babel's parser was most of such a statement's cost. Only a strict
 * subset is read, and every cell comes out as the object {@link InsertSources#literalRows} makes of
 * the same constant (an exact number as BigDecimal, a string as its text, NULL, TRUE, FALSE,
 * DEFAULT), so the statement then means what the parsed one means: the target column's type
 * decides, at execution, what a constant becomes ({@code '5'} into an int column is 5, an
 * out-of-range number is 22003). Parameters {@code $n} come out as {@link StatementPlan.ParamRef},
 * as the general path makes them. Two forms the general path would plan with Calcite are read too,
 * where their meaning in PostgreSQL is that of a plain constant: an escape string {@code E'...'}
 * with only the escapes {@code \\ \' \n \t \r \b \f} (its text is the constant), and a string cast
 * to a type without modifiers ({@code '5'::int}), kept as a {@link TypedString} that {@link
 * #resolveCasts} turns into the plain string when the cast's type is the target column's own
 * (then casting and assigning the text is assigning it) and refuses otherwise. Anything else
 * (comments, qualified or quoted names, other casts, expressions, exponents, other escapes,
 * RETURNING, ON CONFLICT, a trailing semicolon) gives null, and the statement takes the general
 * path, which gives its own result or error. Stateless; any thread.
 */
final class LiteralInsertText {
    /** Whether a word is reserved in the grammar the general path parses with, so not a bare name there. */
    private static final SqlAbstractParserImpl.Metadata GRAMMAR =
            SqlParser.create("", CalciteSettings.PARSER).getMetadata();

    private LiteralInsertText() {}

    /**
     * A statement read: the table's and the columns' names (lower case, as the general path folds
     * them), the columns null when the statement lists none, the rows' cells, and the largest
     * {@code n} of a parameter {@code $n} (0 without parameters).
     */
    record ConstantInsert(String table, List<String> columns, List<Object[]> rows, int parameterCount) {}

    /** A cell {@code 'text'::type}: the string and the kind of the type named. */
    record TypedString(String text, TypeKind kind) {}

    /**
     * The type names a string may be cast to here: PostgreSQL's own names of the types whose
     * input a plain string into a column of the type reads the same way, without modifiers.
     */
    private static final Set<String> CAST_NAMES = Set.of(
            "boolean",
            "bool",
            "smallint",
            "int2",
            "int",
            "integer",
            "int4",
            "bigint",
            "int8",
            "numeric",
            "decimal",
            "text",
            "varchar",
            "date",
            "timestamp");

    /**
     * Replaces each {@link TypedString} of {@code read} by its text when the type it is cast to is
     * that of its target column, the {@code i}-th of {@code targets}: PostgreSQL then reads the text
     * as the column's type and assigns it, as for the plain string. Called by the planner, which
     * knows the targets; false when a cast is to another type (or has no target), and the
     * statement must take the general path.
     */
    static boolean resolveCasts(ConstantInsert read, TableDef table, int[] targets) {
        for (Object[] row : read.rows()) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] instanceof TypedString typed) {
                    if (i >= targets.length
                            || table.columns().get(targets[i]).type().kind() != typed.kind()) {
                        return false;
                    }
                    row[i] = typed.text();
                }
            }
        }
        return true;
    }

    /** The statement {@code sql} reads as, or null when it is not in the subset. */
    static ConstantInsert read(String sql) {
        Reader in = new Reader(sql);
        if (!in.keyword("insert") || !in.keyword("into")) {
            return null;
        }
        String table = in.name();
        if (table == null) {
            return null;
        }
        List<String> columns = null;
        if (in.symbol('(')) {
            columns = new ArrayList<>();
            do {
                String column = in.name();
                if (column == null) {
                    return null;
                }
                columns.add(column);
            } while (in.symbol(','));
            if (!in.symbol(')')) {
                return null;
            }
        }
        if (!in.keyword("values")) {
            return null;
        }
        List<Object[]> rows = new ArrayList<>();
        List<Object> cells = new ArrayList<>();
        int parameterCount = 0;
        do {
            if (!in.symbol('(')) {
                return null;
            }
            cells.clear();
            do {
                Object cell = in.constant();
                if (cell == NOT_CONSTANT) {
                    return null;
                }
                if (cell instanceof StatementPlan.ParamRef p) {
                    parameterCount = Math.max(parameterCount, p.index());
                }
                cells.add(cell);
            } while (in.symbol(','));
            if (!in.symbol(')')) {
                return null;
            }
            rows.add(cells.toArray());
        } while (in.symbol(','));
        return in.atEnd() ? new ConstantInsert(table, columns, rows, parameterCount) : null;
    }

    private static final Object NOT_CONSTANT = new Object();

    /** A cursor over the text; each method either consumes what it recognises or nothing. */
    private static final class Reader {
        private final String sql;
        private int pos;

        Reader(String sql) {
            this.sql = sql;
        }

        private void skipSpace() {
            while (pos < sql.length() && Character.isWhitespace(sql.charAt(pos))) {
                pos++;
            }
        }

        boolean atEnd() {
            skipSpace();
            return pos == sql.length();
        }

        boolean symbol(char c) {
            skipSpace();
            if (pos < sql.length() && sql.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        /** The bare word at the cursor, consumed, or null (the cursor unmoved). */
        private String word() {
            skipSpace();
            int start = pos;
            int end = start;
            while (end < sql.length() && isWordChar(sql.charAt(end), end == start)) {
                end++;
            }
            if (end == start || end < sql.length() && isAfterWordRefused(sql.charAt(end))) {
                return null;
            }
            pos = end;
            return sql.substring(start, end);
        }

        boolean keyword(String lowerCase) {
            int start = pos;
            String w = word();
            if (w != null && w.equalsIgnoreCase(lowerCase)) {
                return true;
            }
            pos = start;
            return false;
        }

        /** An unqualified, unquoted, unreserved name, folded to lower case; null otherwise. */
        String name() {
            String w = word();
            if (w == null || GRAMMAR.isReservedWord(w.toUpperCase(Locale.ROOT))) {
                return null;
            }
            return w.toLowerCase(Locale.ROOT);
        }

        /** A cell: see {@link LiteralInsertText}; {@link #NOT_CONSTANT} for anything else. */
        Object constant() {
            skipSpace();
            if (pos >= sql.length()) {
                return NOT_CONSTANT;
            }
            char c = sql.charAt(pos);
            if (c == '\'') {
                return string(false);
            }
            if ((c == 'E' || c == 'e') && pos + 1 < sql.length() && sql.charAt(pos + 1) == '\'') {
                pos++;
                return string(true);
            }
            if (c == '$') {
                return parameter();
            }
            if (c == '-' || c >= '0' && c <= '9') {
                return number();
            }
            String w = word();
            if (w == null) {
                return NOT_CONSTANT;
            }
            return switch (w.toLowerCase(Locale.ROOT)) {
                case "null" -> null;
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                case "default" -> StatementPlan.DEFAULT;
                default -> NOT_CONSTANT;
            };
        }

        /** {@code $n} with n from 1, followed by neither a letter, a digit, nor a dot. */
        private Object parameter() {
            int i = pos + 1;
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            if (i == pos + 1
                    || i - pos > 6
                    || sql.charAt(pos + 1) == '0'
                    || i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                return NOT_CONSTANT;
            }
            int n = Integer.parseInt(sql, pos + 1, i, 10);
            pos = i;
            return new StatementPlan.ParamRef(n);
        }

        /** {@code [-]digits[.digits]}, followed by neither a letter, a digit, nor a dot. */
        private Object number() {
            int start = pos;
            int i = pos;
            if (sql.charAt(i) == '-') {
                i++;
            }
            int digits = i;
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            if (i == digits) {
                return NOT_CONSTANT;
            }
            if (i < sql.length() && sql.charAt(i) == '.') {
                int fraction = ++i;
                while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                if (i == fraction) {
                    return NOT_CONSTANT;
                }
            }
            if (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                return NOT_CONSTANT;
            }
            pos = i;
            return new BigDecimal(sql.substring(start, i));
        }

        /**
         * {@code '...'} with {@code ''} for a quote (and, when {@code escapes}, the backslash
         * escapes the class comment names), not followed by another quoted string (which SQL would
         * join to it) nor by anything but a delimiter or a cast {@code ::type}.
         */
        private Object string(boolean escapes) {
            StringBuilder text = null; // only for a string with a doubled quote or an escape
            int runStart = pos + 1;
            int i = runStart;
            while (true) {
                if (i >= sql.length()) {
                    return NOT_CONSTANT;
                }
                char c = sql.charAt(i);
                if (c != '\'' && (c != '\\' || !escapes)) {
                    i++;
                    continue;
                }
                if (c == '\'' && (i + 1 >= sql.length() || sql.charAt(i + 1) != '\'')) {
                    break;
                }
                char decoded = c == '\'' ? '\'' : escaped(i + 1 < sql.length() ? sql.charAt(i + 1) : 0);
                if (decoded == 0) {
                    return NOT_CONSTANT; // octal, hex and Unicode escapes are left to the general path
                }
                if (text == null) {
                    text = new StringBuilder();
                }
                text.append(sql, runStart, i).append(decoded);
                i += 2;
                runStart = i;
            }
            String value = text == null
                    ? sql.substring(runStart, i)
                    : text.append(sql, runStart, i).toString();
            pos = i + 1;
            skipSpace();
            if (sql.startsWith("::", pos)) {
                pos += 2;
                String type = word();
                if (type == null || !CAST_NAMES.contains(type.toLowerCase(Locale.ROOT))) {
                    return NOT_CONSTANT;
                }
                DataType cast = PgTypeNames.lookup(type.toLowerCase(Locale.ROOT));
                skipSpace();
                if (pos < sql.length() && sql.charAt(pos) != ',' && sql.charAt(pos) != ')') {
                    return NOT_CONSTANT; // a modifier, an array, a second cast
                }
                return new TypedString(value, cast.kind());
            }
            if (pos < sql.length() && sql.charAt(pos) != ',' && sql.charAt(pos) != ')') {
                return NOT_CONSTANT;
            }
            return value;
        }

        /** What the backslash escape {@code \\e} of an escape string stands for; 0 for one not read here. */
        private static char escaped(char e) {
            return switch (e) {
                case '\\', '\'' -> e;
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'b' -> '\b';
                case 'f' -> '\f';
                default -> 0;
            };
        }

        private static boolean isWordChar(char c, boolean first) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || !first && c >= '0' && c <= '9';
        }

        /** A word running into a character the subset does not read: {@code $}, a quote, a dot. */
        private static boolean isAfterWordRefused(char c) {
            return c == '$' || c == '\'' || c == '"' || c == '.' || c > 127;
        }
    }
}
