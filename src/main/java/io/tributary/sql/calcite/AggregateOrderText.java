package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Makes PostgreSQL's {@code ORDER BY} inside an aggregate call parse for the json aggregates
 * ({@link JsonAggregates}): Calcite's grammar takes it only inside {@code string_agg} and {@code
 * array_agg}, so {@code json_agg(x ORDER BY y)} becomes {@code json_agg(x) WITHIN GROUP (ORDER BY
 * y)}, which Calcite reads as the same ordered aggregate call. Quoted text and comments are left
 * alone, and so is text the lexer cannot read (Calcite reports its error). Called by {@link
 * PgSyntaxText#rewrite}; stateless.
 */
final class AggregateOrderText {
    private static final Set<String> ORDERED = Set.of("json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg");

    private AggregateOrderText() {}

    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("_agg")) {
            return sql;
        }
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token name = tokens.get(i);
            if (name.kind() != Token.Kind.WORD
                    || !ORDERED.contains(name.text().toLowerCase(Locale.ROOT))
                    || !tokens.get(i + 1).isSymbol("(")) {
                continue;
            }
            int close = DistinctOnText.closing(tokens, i + 1);
            int order = close < 0 ? -1 : topLevelOrderBy(tokens, i + 1, close);
            if (order < 0) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, copied, tokens.get(order).position())
                    .append(") WITHIN GROUP (")
                    .append(sql, tokens.get(order).position(), tokens.get(close).position() + 1);
            copied = tokens.get(close).position() + 1;
            i = close;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** The index of an {@code ORDER BY} directly inside the parentheses {@code open..close}, or -1. */
    private static int topLevelOrderBy(List<Token> tokens, int open, int close) {
        int depth = 0;
        for (int j = open + 1; j < close; j++) {
            Token t = tokens.get(j);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && t.isWord("order") && tokens.get(j + 1).isWord("by")) {
                return j;
            }
        }
        return -1;
    }
}
