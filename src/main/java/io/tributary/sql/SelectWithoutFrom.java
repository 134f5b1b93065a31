package io.tributary.sql;

import java.util.List;

/**
 * PostgreSQL's {@code SELECT expressions WHERE condition} without a FROM clause, which Calcite's
 * grammar rejects: a one-row FROM is added before the WHERE. Called by the Calcite front end, on
 * the session's thread, only after Calcite failed to parse the statement; stateless.
 */
public final class SelectWithoutFrom {
    private SelectWithoutFrom() {}

    /**
     * The statement with {@code FROM (VALUES (0)) AS "$one"} before its WHERE, or null when it is
     * not a SELECT whose top level has WHERE (or GROUP BY / HAVING) and no FROM.
     */
    public static String addFrom(String sql) {
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (io.tributary.common.TributaryException e) {
            return null; // Calcite's error about the statement is the one to report
        }
        if (!tokens.get(0).isWord("select")) {
            return null;
        }
        int depth = 0;
        for (Token t : tokens) {
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0) {
                if (t.isWord("from")
                        || t.isWord("union")
                        || t.isWord("intersect")
                        || t.isWord("except")
                        || t.isWord("order")
                        || t.isWord("limit")
                        || t.isSymbol(";")) {
                    return null;
                }
                if (t.isWord("where") || t.isWord("group") || t.isWord("having")) {
                    return sql.substring(0, t.position()) + "FROM (VALUES (0)) AS \"$one\" "
                            + sql.substring(t.position());
                }
            }
        }
        return null;
    }
}
