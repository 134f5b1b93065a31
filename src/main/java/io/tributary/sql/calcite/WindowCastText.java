package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a cast written after a window function call parse: Babel's grammar takes {@code ::} after
 * an operand but not after {@code OVER (...)} or {@code OVER name} (42601), nor after {@code WITHIN
 * GROUP (...)} (it casts the ordering column), where PostgreSQL takes it, so {@code sum(x) OVER
 * (ORDER BY y)::text} becomes {@code (sum(x) OVER (ORDER BY y))::text}, which means the same in
 * PostgreSQL ({@code ::} binds the whole call there). The call reaches back over its argument list
 * and any {@code FILTER (...)}, {@code WITHIN GROUP (...)} or {@code OVER (...)} to its (possibly
 * qualified) name. Quoted text and comments are left alone, and so is text the lexer
 * cannot read (Calcite reports its error). Called by {@link PgSyntaxText#rewrite}; stateless.
 */
final class WindowCastText {
    private WindowCastText() {}

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
        List<Long> inserts = new ArrayList<>();
        for (int i = 2; i + 1 < tokens.size(); i++) {
            if (!tokens.get(i).isSymbol(":") || !tokens.get(i + 1).isSymbol(":")) {
                continue;
            }
            int clause = clauseKeyword(tokens, i - 1);
            int start = clause > 0 && tokens.get(clause - 1).isSymbol(")") ? callStart(tokens, clause - 1) : -1;
            if (start >= 0) {
                inserts.add(2L * tokens.get(start).position());
                inserts.add(2L * tokens.get(i).position() + 1);
            }
            i++;
        }
        return ParenthesisInserts.apply(sql, inserts);
    }

    /**
     * The index of the {@code OVER}, {@code FILTER} or {@code GROUP} (of {@code WITHIN GROUP}) whose
     * clause ends with the token at {@code last} ({@code OVER w}, {@code OVER (...)}, {@code FILTER
     * (...)}, {@code WITHIN GROUP (...)}), or -1.
     */
    private static int clauseKeyword(List<Token> tokens, int last) {
        if (tokens.get(last).isIdentifier() && tokens.get(last - 1).isWord("over")) {
            return last - 1;
        }
        int open = tokens.get(last).isSymbol(")") ? DistinctOnText.opening(tokens, last) : -1;
        if (open < 2) {
            return -1;
        }
        Token keyword = tokens.get(open - 1);
        if (keyword.isWord("over") || keyword.isWord("filter")) {
            return open - 1;
        }
        return keyword.isWord("group") && tokens.get(open - 2).isWord("within") ? open - 2 : -1;
    }

    /**
     * The index of the first token of the call whose clauses end with the {@code )} at {@code close}
     * (its name, or its schema's), or -1 when that is not a call.
     */
    private static int callStart(List<Token> tokens, int close) {
        int open = DistinctOnText.opening(tokens, close);
        while (open > 1) {
            Token before = tokens.get(open - 1);
            if (before.isWord("filter") && tokens.get(open - 2).isSymbol(")")) {
                open = DistinctOnText.opening(tokens, open - 2);
            } else if (before.isWord("group")
                    && open > 2
                    && tokens.get(open - 2).isWord("within")
                    && tokens.get(open - 3).isSymbol(")")) {
                open = DistinctOnText.opening(tokens, open - 3);
            } else {
                break;
            }
        }
        if (open < 1 || !tokens.get(open - 1).isIdentifier()) {
            return -1;
        }
        int name = open - 1;
        while (name >= 2
                && tokens.get(name - 1).isSymbol(".")
                && tokens.get(name - 2).isIdentifier()) {
            name -= 2;
        }
        return name;
    }
}
