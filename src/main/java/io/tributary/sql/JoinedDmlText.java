package io.tributary.sql;

import java.util.List;
import java.util.regex.Pattern;

/**
 * PostgreSQL's UPDATE and DELETE that join other relations, {@code UPDATE t SET ... FROM r ...} and
 * {@code DELETE FROM t USING r ...}, cut in two for Calcite, whose grammar lacks the clause: the
 * statement without it, and a query over the joined list alone. Both keep every character of the
 * client's text at its position (the cut parts become blanks), so errors point into the statement
 * as written. Called by the Calcite front end on the session's thread; stateless.
 *
 * @param target the statement with the FROM or USING clause blanked out
 * @param fromQuery {@code SELECT * FROM list}, the list at its place in the statement
 */
public record JoinedDmlText(String target, String fromQuery) {
    /** Statements that may be one of them; the others are not tokenized. */
    private static final Pattern CANDIDATE = Pattern.compile("(?is)^\\s*(update\\b.*\\bfrom|delete\\b.*\\busing)\\b.*");

    private static final String SELECT = "SELECT *";

    /**
     * The two parts of {@code sql} (an UPDATE or DELETE without RETURNING, which may end with a
     * semicolon), or null when it has no FROM (UPDATE) or USING (DELETE) clause.
     */
    public static JoinedDmlText split(String sql) {
        if (!CANDIDATE.matcher(sql).matches()) {
            return null;
        }
        List<Token> tokens = Lexer.tokenize(sql);
        boolean update = tokens.get(0).isWord("update");
        String clause = update ? "from" : "using";
        boolean afterSet = false;
        int depth = 0;
        Token previous = null;
        int start = -1;
        for (Token t : tokens) {
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0) {
                afterSet |= t.isWord("set");
                // IS [NOT] DISTINCT FROM in a SET value is no FROM clause
                boolean distinctFrom = previous != null && previous.isWord("distinct");
                if (start < 0 && t.isWord(clause) && (afterSet || !update) && !distinctFrom) {
                    start = t.position();
                } else if (t.isWord("where") || t.isWord("returning") || t.isSymbol(";")) {
                    return start < 0 ? null : cut(sql, start, t.position(), update);
                }
            }
            previous = t;
        }
        return start < 0 ? null : cut(sql, start, sql.length(), update);
    }

    /** Cuts the clause {@code [start, end)} out of {@code sql}; USING reads as FROM in the query. */
    private static JoinedDmlText cut(String sql, int start, int end, boolean update) {
        String target = sql.substring(0, start) + blank(sql.substring(start, end)) + sql.substring(end);
        // the leading SELECT * must fit before the clause; UPDATE x SET y = z is always longer
        String list = update ? sql.substring(start, end) : "FROM " + sql.substring(start + "using".length(), end);
        String query = SELECT + " ".repeat(Math.max(1, start - SELECT.length())) + list;
        return new JoinedDmlText(target, query);
    }

    /** {@code text} with every character but line breaks made a blank, so lines stay where they were. */
    private static String blank(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c == '\n' || c == '\r' ? c : ' ');
        }
        return out.toString();
    }
}
