package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes two forms of PostgreSQL's set-returning calls in FROM that Calcite's grammar lacks as a
 * derived table Calcite plans, before {@link FromFunctionCallsText} reads the calls in it:
 *
 * <ul>
 *   <li>{@code f(...) WITH ORDINALITY [AS] g[(v, n)]} of a function other than {@code unnest}
 *       (whose ordinality Calcite has) becomes {@code (SELECT g.*, ROW_NUMBER() OVER () AS
 *       "ordinality" FROM f(...) AS g) AS g[(v, n)]}, the function's rows numbered from 1 in the
 *       order it gives them; without an alias {@code g} is the function's name, as PostgreSQL
 *       names the item and a one-column function's column;
 *   <li>{@code unnest(a, b, ...) [WITH ORDINALITY] [AS u(...)]} becomes {@code (SELECT (a)[i] AS
 *       "unnest", (b)[i] AS "unnest"[, CAST(i AS BIGINT) AS "ordinality"] FROM generate_series(1,
 *       GREATEST(COALESCE(cardinality(a), 0), ...)) AS pg__n(i)) AS u(...)}: the arrays side by
 *       side, the shorter padded with NULLs, as PostgreSQL pairs them (Calcite's UNNEST of several
 *       arrays would give their cross product).
 * </ul>
 *
 * A derived table after another FROM item is {@code LATERAL}, so the call may read that item's
 * columns as before. Text the lexer cannot read is left alone. Called by {@link PgSyntaxText};
 * stateless.
 */
final class FromCallRowsText {
    private FromCallRowsText() {}

    static String rewrite(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        if (!lower.contains("ordinality") && !lower.contains("unnest")) {
            return sql;
        }
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 128);
        int copied = 0;
        for (int i = 1; i + 1 < tokens.size(); i++) {
            Token name = tokens.get(i);
            // a schema-qualified call (psql's pg_catalog.pg_partition_ancestors(...)) starts at its schema
            int start = i >= 2
                            && tokens.get(i - 1).isSymbol(".")
                            && tokens.get(i - 2).kind() == Token.Kind.WORD
                    ? i - 2
                    : i;
            if (name.kind() != Token.Kind.WORD
                    || !tokens.get(i + 1).isSymbol("(")
                    || start < 1
                    || !startsFromItem(tokens, start)) {
                continue;
            }
            List<Integer> commas = new ArrayList<>();
            int close = closing(tokens, i + 1, commas);
            if (close < 0) {
                return sql;
            }
            int next = close + 1;
            boolean ordinality =
                    tokens.get(next).isWord("with") && tokens.get(next + 1).isWord("ordinality");
            boolean unnest = name.text().equals("unnest");
            if (unnest ? commas.isEmpty() : !ordinality) {
                continue;
            }
            next += ordinality ? 2 : 0;
            int aliasAt = tokens.get(next).isWord("as") ? next + 1 : next;
            Token alias = tokens.get(aliasAt);
            boolean aliased = alias.kind() == Token.Kind.QUOTED_IDENT
                    || alias.kind() == Token.Kind.WORD
                            && !FromFunctionCallsText.CLAUSE_ENDS.contains(alias.text())
                            && !FromFunctionCallsText.JOINS.contains(alias.text())
                            && !alias.text().equals("with");
            int end = aliased
                    ? tokens.get(aliasAt + 1).position()
                    : tokens.get(next).position();
            if (aliased && tokens.get(aliasAt + 1).isSymbol("(")) {
                int columnsClose = closing(tokens, aliasAt + 1, new ArrayList<>());
                if (columnsClose < 0) {
                    return sql;
                }
                end = tokens.get(columnsClose).position() + 1;
            }
            String outerAlias = aliased ? sql.substring(alias.position(), end).strip() : '"' + name.text() + '"';
            String call = sql.substring(name.position(), tokens.get(close).position() + 1);
            String derived = unnest
                    ? unnestSideBySide(sql, tokens, i + 1, commas, close, ordinality)
                    : numbered(call, aliased && alias.kind() == Token.Kind.WORD ? alias.text() : name.text());
            boolean lateral = !tokens.get(start - 1).isWord("from")
                    && !tokens.get(start - 1).isWord("lateral");
            out.append(sql, copied, tokens.get(start).position())
                    .append(lateral ? "LATERAL " : "")
                    .append(derived)
                    .append(" AS ")
                    .append(outerAlias)
                    .append(' ');
            copied = end;
            while (i + 1 < tokens.size() && tokens.get(i + 1).position() < end) {
                i++;
            }
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** {@code (SELECT "g".*, ROW_NUMBER() OVER () AS "ordinality" FROM call AS "g")}. */
    private static String numbered(String call, String inner) {
        String quoted = '"' + inner + '"';
        return "(SELECT " + quoted + ".*, ROW_NUMBER() OVER () AS \"ordinality\" FROM " + call + " AS " + quoted + ")";
    }

    /** The arrays between {@code open} and {@code close}, split at {@code commas}, side by side. */
    private static String unnestSideBySide(
            String sql, List<Token> tokens, int open, List<Integer> commas, int close, boolean ordinality) {
        List<String> arrays = new ArrayList<>();
        int from = open;
        for (int comma : commas) {
            arrays.add(sql.substring(
                            tokens.get(from).position() + 1, tokens.get(comma).position())
                    .strip());
            from = comma;
        }
        arrays.add(
                sql.substring(tokens.get(from).position() + 1, tokens.get(close).position())
                        .strip());
        StringBuilder select = new StringBuilder("(SELECT ");
        StringBuilder longest = new StringBuilder("GREATEST(");
        for (int k = 0; k < arrays.size(); k++) {
            select.append(k == 0 ? "" : ", ").append('(').append(arrays.get(k)).append(")[pg__i] AS \"unnest\"");
            longest.append(k == 0 ? "" : ", ")
                    .append("COALESCE(cardinality(")
                    .append(arrays.get(k))
                    .append("), 0)");
        }
        if (ordinality) {
            select.append(", CAST(pg__i AS BIGINT) AS \"ordinality\"");
        }
        return select.append(" FROM generate_series(1, ")
                .append(longest)
                .append(")) AS pg__n(pg__i))")
                .toString();
    }

    /**
     * Whether the call named at {@code name} is a FROM item: after {@code FROM}, {@code JOIN},
     * {@code LATERAL}, or a comma whose clause, read back at the same depth, is FROM.
     */
    private static boolean startsFromItem(List<Token> tokens, int name) {
        Token before = tokens.get(name - 1);
        if (before.isWord("from") || before.isWord("join") || before.isWord("lateral")) {
            return true;
        }
        if (!before.isSymbol(",")) {
            return false;
        }
        int depth = 0;
        for (int k = name - 2; k >= 0; k--) {
            Token t = tokens.get(k);
            if (t.isSymbol(")") || t.isSymbol("]")) {
                depth++;
            } else if (t.isSymbol("(") || t.isSymbol("[")) {
                if (depth-- == 0) {
                    return false;
                }
            } else if (depth == 0 && t.kind() == Token.Kind.WORD) {
                if (t.text().equals("from")) {
                    return true;
                }
                if (FromFunctionCallsText.CLAUSE_ENDS.contains(t.text())) {
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * The index of the parenthesis closing the one at {@code open}, adding the indexes of the
     * commas directly inside it to {@code commas}; -1 when the text ends first.
     */
    private static int closing(List<Token> tokens, int open, List<Integer> commas) {
        int depth = 0;
        for (int k = open + 1; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.END) {
                return -1;
            }
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if (t.isSymbol(")") || t.isSymbol("]")) {
                if (depth-- == 0) {
                    return t.isSymbol(")") ? k : -1;
                }
            } else if (depth == 0 && t.isSymbol(",")) {
                commas.add(k);
            }
        }
        return -1;
    }
}
