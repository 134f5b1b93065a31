package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;

/**
 * Makes {@code UPDATE t SET c = DEFAULT} parse: Calcite's grammar takes {@code DEFAULT} only in an
 * INSERT's VALUES (42601 after SET), where PostgreSQL sets the column to its DEFAULT expression. A
 * {@code DEFAULT} that is a whole SET value (after {@code =}, before {@code ,} or the end of the SET
 * list, also parenthesized) becomes a call of {@link #MARKER}, of the same length, so error
 * positions still point into the client's statement; {@link UpdateDeletePlanner} puts the column's
 * DEFAULT expression in its place ({@link #isMarker}). Quoted text and comments are left alone.
 * Called by {@link PgSyntaxText#rewrite}; stateless.
 */
final class UpdateDefaultText {
    /** The function name a SET value of {@code DEFAULT} becomes a call of; {@code "$df"()} is as long as {@code DEFAULT}. */
    static final String MARKER = "$df";

    private static final Pattern CANDIDATE = Pattern.compile("(?is)^\\s*update\\b.*\\bdefault\\b.*");

    private UpdateDefaultText() {}

    static String rewrite(String sql) {
        if (!CANDIDATE.matcher(sql).matches()) {
            return sql;
        }
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        StringBuilder out = null;
        int depth = 0;
        boolean inSet = false;
        for (int i = 1; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if (t.isSymbol(")") || t.isSymbol("]")) {
                depth--;
            } else if (depth == 0 && t.isWord("set")) {
                inSet = true;
            } else if (depth == 0 && (t.isWord("from") || t.isWord("where") || t.isWord("returning"))) {
                inSet = false;
            } else if (inSet && t.isWord("default") && wholeValue(tokens, i)) {
                if (out == null) {
                    out = new StringBuilder(sql);
                }
                out.replace(t.position(), t.position() + t.text().length(), "\"" + MARKER + "\"()");
            }
        }
        return out == null ? sql : out.toString();
    }

    /** Whether {@code node} is the call a SET value of {@code DEFAULT} was rewritten to. */
    static boolean isMarker(SqlNode node) {
        return node instanceof SqlCall call
                && call.operandCount() == 0
                && call.getOperator().getName().equals(MARKER);
    }

    /**
     * Whether the {@code DEFAULT} at {@code at} is a whole SET value: after {@code =} and before the
     * value's end, inside as many parentheses as close after it ({@code c = (DEFAULT)}).
     */
    private static boolean wholeValue(List<Token> tokens, int at) {
        int open = 0;
        int before = at - 1;
        while (before > 0 && tokens.get(before).isSymbol("(")) {
            open++;
            before--;
        }
        if (!tokens.get(before).isSymbol("=")) {
            return false;
        }
        int after = at + 1;
        for (int closed = 0; closed < open; closed++, after++) {
            if (after >= tokens.size() || !tokens.get(after).isSymbol(")")) {
                return false;
            }
        }
        return after < tokens.size() && endsValue(tokens.get(after));
    }

    private static boolean endsValue(Token next) {
        return next.kind() == Token.Kind.END
                || next.isSymbol(",")
                || next.isSymbol(";")
                || next.isWord("from")
                || next.isWord("where")
                || next.isWord("returning");
    }
}
