package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import io.tributary.sql.Lexer;
import io.tributary.sql.Token;
import java.util.List;

/**
 * Makes PostgreSQL's {@code SELECT DISTINCT ON (a, b) ...}, which Calcite's grammar lacks, parse:
 * {@code DISTINCT ON (a, b)} becomes a first select item {@code pg_distinct_on(a, b) AS
 * "?distinct on"} that {@link DistinctOnSelects} takes out again after parsing, turning it into the
 * query's meaning. Quoted text and comments are left alone, and so is text the lexer cannot read
 * (Calcite reports its error). Called by {@link PgSyntaxText#rewrite}; stateless.
 */
final class DistinctOnText {
    /** The marker call's name; no function of that name exists, so a marker left over fails validation. */
    static final String MARKER = "pg_distinct_on";
    /** The marker item's alias. */
    static final String ALIAS = "?distinct on";

    private DistinctOnText() {}

    static String rewrite(String sql) {
        if (!containsDistinct(sql)) {
            return sql;
        }
        List<Token> tokens = tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        for (int i = 1; i + 2 < tokens.size(); i++) {
            if (!tokens.get(i).isWord("distinct")
                    || !tokens.get(i - 1).isWord("select")
                    || !tokens.get(i + 1).isWord("on")
                    || !tokens.get(i + 2).isSymbol("(")) {
                continue;
            }
            int close = closing(tokens, i + 2);
            if (close < 0) {
                return sql; // unbalanced: Calcite reports it
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 32);
            }
            int open = tokens.get(i + 2).position();
            out.append(sql, copied, tokens.get(i).position())
                    .append(MARKER)
                    .append(sql, open, tokens.get(close).position() + 1)
                    .append(" AS \"")
                    .append(ALIAS)
                    .append("\",");
            copied = tokens.get(close).position() + 1;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    private static boolean containsDistinct(String sql) {
        for (int i = 0; i + 8 <= sql.length(); i++) {
            if ((sql.charAt(i) | 0x20) == 'd' && sql.regionMatches(true, i, "distinct", 0, 8)) {
                return true;
            }
        }
        return false;
    }

    /** The tokens of {@code sql}, or null when the lexer cannot read it (Calcite reports the error then). */
    static List<Token> tokensOrNull(String sql) {
        try {
            return Lexer.tokenize(sql);
        } catch (TributaryException unreadable) {
            return null;
        }
    }

    /** The index of the {@code (} the {@code )} at {@code close} closes, or -1 ({@link WindowCastText}). */
    static int opening(List<Token> tokens, int close) {
        int depth = 0;
        for (int j = close; j >= 0; j--) {
            Token t = tokens.get(j);
            if (t.isSymbol(")")) {
                depth++;
            } else if (t.isSymbol("(") && --depth == 0) {
                return j;
            }
        }
        return -1;
    }

    /** The index of the token closing the parenthesis at {@code open}, or -1 ({@link AggregateOrderText} too). */
    static int closing(List<Token> tokens, int open) {
        int depth = 0;
        for (int j = open; j < tokens.size(); j++) {
            Token t = tokens.get(j);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")") && --depth == 0) {
                return j;
            }
        }
        return -1;
    }
}
