package io.tributary.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the UPDATE and DELETE statements that change rows by a range of their key, as streaming
 * clients send them thousands of times with new constants or parameters:
 *
 * <pre>
 * UPDATE table SET column = operand | column = column (+|-) operand, ... WHERE column BETWEEN operand AND operand
 * UPDATE table SET ... WHERE column = operand
 * DELETE FROM table WHERE column BETWEEN operand AND operand
 * DELETE FROM table WHERE column = operand
 * </pre>
 *
 * where an operand is a constant (an optionally negative exact number, a plain string, NULL,
 * TRUE, FALSE) or a parameter {@code $n}. Only the text is read here; whether the names and types
 * make the statement one the key-range path can run is decided against the catalog by the
 * planner. Anything else (aliases, qualified names, casts, other operators, RETURNING, a trailing
 * semicolon, escape strings, exponents) gives null and takes the general path, which gives its
 * own result or error. Stateless; any thread.
 */
public final class KeyRangeDmlText {
    private KeyRangeDmlText() {}

    /**
     * A statement read.
     *
     * @param table the target's name, folded as PostgreSQL folds it
     * @param bareTable whether the name was written unquoted (so must not be a reserved word)
     * @param set the assignments, empty for a DELETE
     * @param keyColumn the column the WHERE clause bounds
     * @param low the lower bound, inclusive
     * @param high the upper bound, inclusive; the same operand as {@code low} for {@code =}
     */
    public record Statement(
            boolean update,
            String table,
            boolean bareTable,
            List<Assignment> set,
            String keyColumn,
            Operand low,
            Operand high) {}

    /**
     * {@code column = operand}, or with {@code base} set, {@code column = base + operand} (or
     * {@code -} when {@code subtract}).
     */
    public record Assignment(String column, String base, boolean subtract, Operand operand) {}

    /**
     * A constant (a BigDecimal, a String, a Boolean or null) or, when {@code param > 0}, the
     * parameter {@code $param}.
     */
    public record Operand(Object constant, int param) {
        public boolean isParam() {
            return param > 0;
        }
    }

    /** The statement {@code sql} reads as, or null when it is not of a shape above. */
    public static Statement read(String sql) {
        if (beginsWithAnotherWord(sql)) {
            return null;
        }
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (RuntimeException e) {
            return null;
        }
        return new Reader(sql, tokens).statement();
    }

    /**
     * Whether {@code sql}'s first word, read without the lexer, is neither UPDATE nor DELETE, so
     * that every other statement (a literal INSERT of many rows above all) is not lexed here once
     * more before its own path lexes it. Anything else first (a comment, a quote, a parenthesis) is
     * left to the lexer.
     */
    private static boolean beginsWithAnotherWord(String sql) {
        int start = 0;
        while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
            end++;
        }
        if (end == start) {
            return false;
        }
        int length = end - start;
        return !(length == 6
                && (sql.regionMatches(true, start, "update", 0, 6) || sql.regionMatches(true, start, "delete", 0, 6)));
    }

    private static final class Reader {
        private final String sql;
        private final List<Token> tokens;
        private int pos;

        Reader(String sql, List<Token> tokens) {
            this.sql = sql;
            this.tokens = tokens;
        }

        Statement statement() {
            boolean update;
            if (word("update")) {
                update = true;
            } else if (word("delete") && word("from")) {
                update = false;
            } else {
                return null;
            }
            Token table = peek();
            if (!table.isIdentifier()) {
                return null;
            }
            pos++;
            List<Assignment> set = new ArrayList<>();
            if (update) {
                if (!word("set")) {
                    return null;
                }
                do {
                    Assignment a = assignment();
                    if (a == null) {
                        return null;
                    }
                    set.add(a);
                } while (symbol(","));
            }
            if (!word("where")) {
                return null;
            }
            String key = name();
            if (key == null) {
                return null;
            }
            Operand low;
            Operand high;
            if (symbol("=")) {
                low = operand();
                high = low;
            } else if (word("between")) {
                low = operand();
                if (low == null || !word("and")) {
                    return null;
                }
                high = operand();
            } else {
                return null;
            }
            if (low == null || high == null || peek().kind() != Token.Kind.END) {
                return null;
            }
            return new Statement(
                    update, table.text(), table.kind() == Token.Kind.WORD, List.copyOf(set), key, low, high);
        }

        private Assignment assignment() {
            String column = name();
            if (column == null || !symbol("=")) {
                return null;
            }
            Token t = peek();
            if (t.kind() == Token.Kind.WORD && !isKeywordOperand(t)) {
                String base = name();
                boolean subtract;
                if (symbol("+")) {
                    subtract = false;
                } else if (symbol("-")) {
                    subtract = true;
                } else {
                    return null;
                }
                Operand operand = operand();
                return operand == null ? null : new Assignment(column, base, subtract, operand);
            }
            Operand operand = operand();
            return operand == null ? null : new Assignment(column, null, false, operand);
        }

        private static boolean isKeywordOperand(Token t) {
            return t.isWord("null") || t.isWord("true") || t.isWord("false");
        }

        /**
         * An unquoted column name, or null: whether it is a reserved word is left to the planner,
         * which knows the general path's grammar.
         */
        private String name() {
            Token t = peek();
            if (t.kind() != Token.Kind.WORD || isKeywordOperand(t)) {
                return null;
            }
            pos++;
            return t.text();
        }

        private Operand operand() {
            Token t = peek();
            if (t.kind() == Token.Kind.PARAM) {
                pos++;
                try {
                    int n = Integer.parseInt(t.text());
                    return n > 0 ? new Operand(null, n) : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            if (t.kind() == Token.Kind.STRING) {
                // a plain quoted string only: E'...' means its escapes, a second string would join it
                if (sql.charAt(t.position()) != '\'' || next().kind() == Token.Kind.STRING) {
                    return null;
                }
                pos++;
                return new Operand(t.text(), 0);
            }
            if (t.isWord("null")) {
                pos++;
                return new Operand(null, 0);
            }
            if (t.isWord("true") || t.isWord("false")) {
                pos++;
                return new Operand(t.isWord("true"), 0);
            }
            boolean negative = false;
            if (t.isSymbol("-")) {
                negative = true;
                pos++;
                t = peek();
            }
            if (t.kind() != Token.Kind.NUMBER
                    || next().kind() == Token.Kind.WORD
                            && next().position() == t.position() + t.text().length()) {
                return null; // 1e10 lexes as a number and a word right after it
            }
            pos++;
            try {
                BigDecimal value = new BigDecimal(t.text());
                return new Operand(negative ? value.negate() : value, 0);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private Token peek() {
            return tokens.get(pos);
        }

        private Token next() {
            return tokens.get(Math.min(pos + 1, tokens.size() - 1));
        }

        private boolean word(String w) {
            if (peek().isWord(w)) {
                pos++;
                return true;
            }
            return false;
        }

        private boolean symbol(String s) {
            if (peek().isSymbol(s)) {
                pos++;
                return true;
            }
            return false;
        }
    }
}
