package io.tributary.sql;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * PostgreSQL's {@code SELECT expressions WHERE condition} without a FROM clause, which Calcite's
 * grammar rejects: a one-row FROM is added before the WHERE (or GROUP BY / HAVING), at the top
 * level and in every sub-query ({@code SELECT EXISTS (SELECT 1 WHERE false)}). Called by the
 * Calcite front end, on the session's thread, only after Calcite failed to parse the statement;
 * stateless.
 */
public final class SelectWithoutFrom {
    private static final String ONE_ROW = "FROM (VALUES (0)) AS \"$one\" ";

    private SelectWithoutFrom() {}

    /**
     * The statement with {@code FROM (VALUES (0)) AS "$one"} before the WHERE (GROUP BY, HAVING) of
     * each SELECT that has one and no FROM, or null when there is no such SELECT. Each parenthesis
     * level is tracked apart, so a FROM inside a call ({@code extract(year FROM d)}) or a WHERE
     * inside {@code FILTER (...)} belongs to no SELECT.
     */
    public static String addFrom(String sql) {
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (io.tributary.common.TributaryException e) {
            return null; // Calcite's error about the statement is the one to report
        }
        if (tokens.isEmpty()
                || !tokens.get(0).isWord("select") && !tokens.get(0).isWord("with")) {
            return null;
        }
        // per parenthesis depth: whether a SELECT there still lacks its FROM
        Deque<Boolean> lacksFrom = new ArrayDeque<>();
        lacksFrom.push(false);
        StringBuilder out = new StringBuilder(sql.length() + ONE_ROW.length());
        int copied = 0;
        Token previous = null;
        for (Token t : tokens) {
            if (t.isSymbol("(")) {
                lacksFrom.push(false);
            } else if (t.isSymbol(")")) {
                if (lacksFrom.size() > 1) {
                    lacksFrom.pop();
                }
            } else if (t.isWord("select")) {
                replaceTop(lacksFrom, true);
            } else if (t.isWord("from")
                    || t.isWord("union")
                    || t.isWord("intersect")
                    || t.isWord("except")
                    || t.isWord("order")
                    || t.isWord("limit")
                    || t.isSymbol(";")) {
                replaceTop(lacksFrom, false);
            } else if (lacksFrom.peek()
                    && (t.isWord("where") || t.isWord("having") || t.isWord("group") && !isWithin(previous))) {
                out.append(sql, copied, t.position()).append(ONE_ROW);
                copied = t.position();
                replaceTop(lacksFrom, false);
            }
            previous = t;
        }
        return copied == 0 ? null : out.append(sql.substring(copied)).toString();
    }

    private static void replaceTop(Deque<Boolean> lacksFrom, boolean value) {
        lacksFrom.pop();
        lacksFrom.push(value);
    }

    /** {@code WITHIN GROUP}: that GROUP is no clause. */
    private static boolean isWithin(Token previous) {
        return previous != null && previous.isWord("within");
    }
}
