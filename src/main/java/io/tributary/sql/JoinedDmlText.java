package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * PostgreSQL's UPDATE and DELETE that join other relations, {@code UPDATE t SET ... FROM r ...} and
 * {@code DELETE FROM t USING r ...}, which Tributary does not run yet: refused with 0A000 naming
 * the clause before Calcite, whose grammar lacks them, would call them a syntax error. Stateless.
 */
public final class JoinedDmlText {
    private JoinedDmlText() {}

    /** Statements that may be one of them; the others are not tokenized. */
    private static final Pattern CANDIDATE = Pattern.compile("(?is)^\\s*(update\\b.*\\bfrom|delete\\b.*\\busing)\\b.*");

    /**
     * Returns when {@code sql} is no UPDATE ... FROM and no DELETE ... USING.
     *
     * @throws TributaryException 0A000 when it is one
     */
    public static void refuse(String sql) {
        if (!CANDIDATE.matcher(sql).matches()) {
            return;
        }
        List<Token> tokens = Lexer.tokenize(sql);
        boolean update = tokens.get(0).isWord("update");
        String clause = update ? "from" : "using";
        boolean afterSet = false;
        int depth = 0;
        Token previous = null;
        for (Token t : tokens) {
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0) {
                afterSet |= t.isWord("set");
                // IS [NOT] DISTINCT FROM in a SET value is no FROM clause
                boolean distinctFrom = previous != null && previous.isWord("distinct");
                if (t.isWord(clause) && (afterSet || !update) && !distinctFrom) {
                    throw TributaryException.notSupported(update ? "UPDATE ... FROM" : "DELETE ... USING");
                }
                if (t.isWord("where") || t.isWord("returning") || t.isSymbol(";")) {
                    return;
                }
            }
            previous = t;
        }
    }
}
