package io.tributary.sql.calcite;

import io.tributary.sql.StatementPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * out-of-range number is 22003). Anything outside the subset (comments, qualified or quoted names,
 * casts, expressions, exponents, escape strings, parameters, RETURNING, ON CONFLICT, a trailing
 * semicolon) gives null, and the statement takes the general path, which gives its own result or
 * error. Stateless; any thread.
 */
final class LiteralInsertText {
    /** Whether a word is reserved in the grammar the general path parses with, so not a bare name there. */
    private static final SqlAbstractParserImpl.Metadata GRAMMAR =
            SqlParser.create("", CalciteSettings.PARSER).getMetadata();

    private LiteralInsertText() {}

    /**
     * A statement read: the table's and the columns' names (lower case, as the general path folds
     * them), the columns null when the statement lists none, and the rows' cells.
     */
    record ConstantInsert(String table, List<String> columns, List<Object[]> rows) {}

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
                cells.add(cell);
            } while (in.symbol(','));
            if (!in.symbol(')')) {
                return null;
            }
            rows.add(cells.toArray());
        } while (in.symbol(','));
        return in.atEnd() ? new ConstantInsert(table, columns, rows) : null;
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
                return string();
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
         * {@code '...'} with {@code ''} for a quote, not followed by another quoted string (which
         * SQL would join to it) nor by anything but a delimiter.
         */
        private Object string() {
            int i = pos + 1;
            StringBuilder text = null;
            int runStart = i;
            while (true) {
                int quote = sql.indexOf('\'', i);
                if (quote < 0) {
                    return NOT_CONSTANT;
                }
                if (quote + 1 < sql.length() && sql.charAt(quote + 1) == '\'') {
                    if (text == null) {
                        text = new StringBuilder();
                    }
                    text.append(sql, runStart, quote + 1);
                    i = quote + 2;
                    runStart = i;
                    continue;
                }
                String value = text == null
                        ? sql.substring(runStart, quote)
                        : text.append(sql, runStart, quote).toString();
                pos = quote + 1;
                skipSpace();
                if (pos < sql.length() && sql.charAt(pos) != ',' && sql.charAt(pos) != ')') {
                    return NOT_CONSTANT;
                }
                return value;
            }
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
