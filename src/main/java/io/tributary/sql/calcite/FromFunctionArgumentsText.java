package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import io.tributary.sql.Lexer;
import io.tributary.sql.Token;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Puts parentheses around each argument of a function called in FROM that starts with a function
 * call: {@code FROM generate_series(array_lower(a, 1), array_upper(a, 1)) i} becomes {@code FROM
 * generate_series((array_lower(a, 1)), (array_upper(a, 1))) i}. Calcite's grammar tries such an
 * argument as a table parameter first and fails with 42601 on its parenthesis, while PostgreSQL
 * (and Grafana's table and column queries, which call it so) takes any expression there; a
 * parenthesized expression means the same. Calls whose arguments are Calcite's own table syntax
 * ({@code TABLE(...)}, {@code TUMBLE}, {@code HOP}, {@code SESSION}, {@code UNNEST}) are left
 * alone, and so is text the lexer cannot read (Calcite reports its error). Called by {@link
 * PgSyntaxText}; stateless.
 */
final class FromFunctionArgumentsText {
    /** Words that start a FROM item after them. */
    private static final Set<String> ITEM_STARTS = Set.of("from", "join", "lateral");
    /** Words that end a FROM clause at their depth. */
    private static final Set<String> CLAUSE_ENDS = Set.of(
            "where",
            "group",
            "having",
            "order",
            "limit",
            "offset",
            "fetch",
            "window",
            "union",
            "intersect",
            "except",
            "returning",
            "select",
            "values",
            "set");
    /** Words after which a comma does not start a FROM item until the condition ends: a join's condition. */
    private static final Set<String> CONDITIONS = Set.of("on", "using");
    /** Functions in FROM whose arguments are table syntax, not expressions. */
    private static final Set<String> TABLE_SYNTAX = Set.of("table", "tumble", "hop", "session", "unnest");

    private FromFunctionArgumentsText() {}

    static String rewrite(String sql) {
        if (sql.indexOf('(') < 0) {
            return sql;
        }
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (TributaryException unreadable) {
            return sql;
        }
        List<Integer> opens = new ArrayList<>();
        List<Integer> closes = new ArrayList<>();
        // per parenthesis depth: whether its tokens are in a FROM clause
        Deque<Boolean> inFrom = new ArrayDeque<>();
        inFrom.push(false);
        boolean itemStart = false;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() == Token.Kind.WORD && ITEM_STARTS.contains(t.text())) {
                if (t.text().equals("from")) {
                    inFrom.pop();
                    inFrom.push(true);
                }
                itemStart = inFrom.peek();
                continue;
            }
            if (itemStart && t.isIdentifier() && !TABLE_SYNTAX.contains(t.text())) {
                int open = callOpening(tokens, i);
                if (open >= 0) {
                    wrapArguments(tokens, open, opens, closes);
                }
            }
            itemStart = false;
            if (t.isSymbol("(")) {
                inFrom.push(false);
            } else if (t.isSymbol(")")) {
                if (inFrom.size() > 1) {
                    inFrom.pop();
                }
            } else if (t.isSymbol(",")) {
                itemStart = inFrom.peek();
            } else if (t.kind() == Token.Kind.WORD && CLAUSE_ENDS.contains(t.text())) {
                inFrom.pop();
                inFrom.push(false);
            } else if (t.kind() == Token.Kind.WORD && CONDITIONS.contains(t.text())) {
                itemStart = false;
            }
        }
        if (opens.isEmpty()) {
            return sql;
        }
        return insert(sql, opens, closes);
    }

    /** The index of the {@code (} of a call whose (possibly qualified) name starts at {@code i}, or -1. */
    private static int callOpening(List<Token> tokens, int i) {
        int j = i + 1;
        while (j + 1 < tokens.size()
                && tokens.get(j).isSymbol(".")
                && tokens.get(j + 1).isIdentifier()) {
            j += 2;
        }
        return j < tokens.size() && tokens.get(j).isSymbol("(") ? j : -1;
    }

    /**
     * Records parentheses around each argument of the call opened at {@code open} that starts with
     * a name and {@code (}; arguments that are other expressions are left as written.
     */
    private static void wrapArguments(List<Token> tokens, int open, List<Integer> opens, List<Integer> closes) {
        int depth = 0;
        int argStart = open + 1;
        for (int k = open + 1; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.END) {
                return;
            }
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if ((t.isSymbol(")") || t.isSymbol("]")) && depth > 0) {
                depth--;
            } else if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
                if (startsWithCall(tokens, argStart, k)) {
                    opens.add(tokens.get(argStart).position());
                    closes.add(t.position());
                }
                if (t.isSymbol(")")) {
                    return;
                }
                argStart = k + 1;
            }
        }
    }

    private static boolean startsWithCall(List<Token> tokens, int from, int end) {
        return from + 1 < end && tokens.get(from).isIdentifier() && callOpening(tokens, from) > 0;
    }

    private static String insert(String sql, List<Integer> opens, List<Integer> closes) {
        List<int[]> marks = new ArrayList<>();
        opens.forEach(p -> marks.add(new int[] {p, '('}));
        closes.forEach(p -> marks.add(new int[] {p, ')'}));
        marks.sort((a, b) -> Integer.compare(a[0], b[0]));
        StringBuilder out = new StringBuilder(sql.length() + marks.size());
        int at = 0;
        for (int[] m : marks) {
            out.append(sql, at, m[0]).append((char) m[1]);
            at = m[0];
        }
        return out.append(sql, at, sql.length()).toString();
    }
}
