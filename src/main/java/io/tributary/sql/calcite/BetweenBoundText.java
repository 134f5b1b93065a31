package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a cast in the lower bound of a BETWEEN parse: Babel's grammar reads {@code x BETWEEN 1::int
 * AND 10} (and {@code x BETWEEN a + b::int AND c}) as a BETWEEN without its AND (42601), where
 * PostgreSQL casts the bound. The lower bound (PostgreSQL's {@code b_expr}: it holds no AND outside
 * parentheses, brackets or a CASE) is parenthesized when it holds a {@code ::} of its own, so {@code
 * x BETWEEN 1::int AND 10} becomes {@code x BETWEEN (1::int) AND 10}, which means the same in
 * PostgreSQL; {@link PgOperatorPrecedence} then binds the casts inside it. A cast in the upper
 * bound parses (as a cast of the whole BETWEEN) and is left to {@link PgOperatorPrecedence}.
 * Quoted text and comments are left alone, and so is text the lexer cannot read (Calcite reports
 * its error). Called by {@link PgSyntaxText#rewrite}; stateless.
 */
final class BetweenBoundText {
    private BetweenBoundText() {}

    static String rewrite(String sql) {
        if (!sql.contains("::")) {
            return sql;
        }
        // the lexer reads {@code ::} as two {@code :} symbols
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        // offsets to insert at, an opening parenthesis as 2 * offset, a closing one as 2 * offset + 1
        // (sorted: a bound may hold another BETWEEN's)
        List<Long> inserts = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.get(i).isWord("between")) {
                continue;
            }
            int start = lowerBoundStart(tokens, i);
            int and = castBoundEnd(tokens, start);
            if (and > start) {
                inserts.add(2L * tokens.get(start).position());
                inserts.add(2L * tokens.get(and).position() + 1);
            }
        }
        return ParenthesisInserts.apply(sql, inserts);
    }

    /**
     * The index of the first token of the lower bound of the BETWEEN at token {@code between}: the
     * next token, or the one after a SYMMETRIC or ASYMMETRIC ({@link BetweenBoundErrors} reads bounds
     * the same way).
     */
    static int lowerBoundStart(List<Token> tokens, int between) {
        int start = between + 1;
        if (start < tokens.size()
                && (tokens.get(start).isWord("symmetric") || tokens.get(start).isWord("asymmetric"))) {
            start++;
        }
        return start;
    }

    /**
     * The index of the AND that ends the lower bound starting at token {@code start}, when that
     * bound holds a {@code ::} outside parentheses, brackets and CASE; -1 otherwise (no cast, or no
     * AND: the grammar reports it).
     */
    private static int castBoundEnd(List<Token> tokens, int start) {
        int depth = 0;
        boolean cast = false;
        for (int j = start; j < tokens.size(); j++) {
            Token t = tokens.get(j);
            if (t.isSymbol("(") || t.isSymbol("[") || t.isWord("case")) {
                depth++;
            } else if (t.isSymbol(")") || t.isSymbol("]") || t.isWord("end")) {
                if (--depth < 0) {
                    return -1;
                }
            } else if (depth == 0 && t.isWord("and")) {
                return cast ? j : -1;
            } else if (depth == 0 && t.isSymbol(";")) {
                return -1;
            } else if (depth == 0
                    && t.isSymbol(":")
                    && j + 1 < tokens.size()
                    && tokens.get(j + 1).isSymbol(":")) {
                cast = true;
            }
        }
        return -1;
    }
}
