package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Refuses a chain of comparisons, as PostgreSQL's grammar does: its {@code < > = <= >= <> !=}
 * share one precedence level and do not associate, so {@code 1 < 2 = true} and {@code a = b = c}
 * are syntax errors (42601 naming the second operator; no position, since a view's body is checked
 * apart from its statement), where Calcite's parser nests them from the
 * left and answers. Called first by {@link PgSyntaxText#rewrite}, on the client's text, so queries,
 * views and CHECKs alike; stateless.
 *
 * <p>Two comparisons are a chain when nothing between them at the same bracket depth binds looser
 * than a comparison: only names, constants, parameters, casts, subscripts, calls and bracketed
 * expressions and the operators that bind tighter ({@code + - * / % ^ ||}, the bit operators
 * ...). Any keyword of {@link PgTokenizer#CLAUSE_WORDS} or a few more ({@code CASE}, {@code IS}, a
 * comma ...) ends the run, so the check can miss a chain but never refuses a statement PostgreSQL
 * accepts. A statement holding the word {@code SET} is left alone: its first {@code =} after
 * {@code SET} or a comma is an assignment, not a comparison.
 */
final class ComparisonChains {
    private static final Set<String> COMPARISONS = Set.of("<", ">", "=", "<=", ">=", "<>", "!=");
    /** Words besides the clause words that bind looser than a comparison or start a construct. */
    private static final Set<String> ENDS_RUN = PgTokenizer.clauseWordsAnd(
            "case",
            "end",
            "isnull",
            "notnull",
            "similar",
            "escape",
            "over",
            "filter",
            "within",
            "at",
            "collate",
            "asc",
            "desc",
            "nulls",
            "for",
            "with",
            "window",
            "partition",
            "rows",
            "range",
            "array",
            "row",
            "interval",
            "check",
            "default");

    private ComparisonChains() {}

    /**
     * Checks {@code sql}.
     *
     * @throws TributaryException 42601 {@code syntax error at or near "="}, naming the second
     *     comparison of a chain
     */
    static void check(String sql) {
        if (!mayChain(sql)) {
            return;
        }
        List<PgToken> tokens = PgTokenizer.tokens(sql);
        for (PgToken t : tokens) {
            if (t.isWord("set")) {
                return;
            }
        }
        // per bracket depth: whether a comparison has been seen since the last token that ends a run
        Deque<boolean[]> compared = new ArrayDeque<>();
        compared.push(new boolean[1]);
        for (PgToken t : tokens) {
            switch (t.kind()) {
                case OPEN, OPEN_BRACKET -> compared.push(new boolean[1]);
                case CLOSE, CLOSE_BRACKET -> {
                    if (compared.size() > 1) {
                        compared.pop();
                    }
                }
                case OPERATOR -> {
                    if (COMPARISONS.contains(t.lower())) {
                        if (compared.peek()[0]) {
                            throw new TributaryException(
                                    SqlState.SYNTAX_ERROR, "syntax error at or near \"" + t.lower() + "\"");
                        }
                        compared.peek()[0] = true;
                    }
                }
                case WORD -> {
                    if (ENDS_RUN.contains(t.lower())) {
                        compared.peek()[0] = false;
                    }
                }
                case NUMBER, STRING, QUOTED_NAME, PARAMETER, CAST, DOT -> {}
                default -> compared.peek()[0] = false;
            }
        }
    }

    /** Cheap test before tokenizing: a chain needs two comparison characters. */
    private static boolean mayChain(String sql) {
        int seen = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if ((c == '<' || c == '>' || c == '=') && ++seen == 2) {
                return true;
            }
        }
        return false;
    }
}
