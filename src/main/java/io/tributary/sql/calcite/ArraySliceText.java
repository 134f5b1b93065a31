package io.tributary.sql.calcite;

import io.tributary.sql.Token;
import java.util.List;

/**
 * Reads PostgreSQL's array slices, which Calcite's grammar lacks: the subscript {@code [lo:hi]}
 * ({@code a[2:3]}, {@code a[:2]}, {@code a[2:]}) becomes {@code [pg__slice((lo), (hi))]}, a
 * subscript Calcite parses, which {@link ArraySlices} turns into the slice. An omitted lower bound
 * is 1 and an omitted upper one the largest integer: Tributary's arrays start at 1 and hold fewer
 * elements, so these cut nothing, as PostgreSQL's omitted bounds do. The bracket of an {@code
 * ARRAY[...]} constructor and a {@code ::} cast inside a subscript are no slices; text the lexer
 * cannot read is left alone (Calcite reports its error). Called by {@link PgSyntaxText}; stateless.
 */
final class ArraySliceText {
    /** The marker function {@link ArraySlices} looks for as a subscript. */
    static final String MARKER = "pg__slice";

    private ArraySliceText() {}

    static String rewrite(String sql) {
        if (sql.indexOf('[') < 0 || sql.indexOf(':') < 0) {
            return sql;
        }
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int copied = 0;
        for (int i = 1; i < tokens.size(); i++) {
            Token open = tokens.get(i);
            Token before = tokens.get(i - 1);
            if (!open.isSymbol("[")
                    || before.kind() == Token.Kind.WORD && before.text().equalsIgnoreCase("array")) {
                continue;
            }
            int colon = -1;
            int close = -1;
            int depth = 0;
            for (int j = i + 1; j < tokens.size() && close < 0; j++) {
                Token t = tokens.get(j);
                if (t.isSymbol("(") || t.isSymbol("[")) {
                    depth++;
                } else if ((t.isSymbol(")") || t.isSymbol("]")) && depth-- == 0) {
                    close = j;
                } else if (depth == 0 && t.isSymbol(":")) {
                    boolean cast =
                            tokens.get(j - 1).isSymbol(":") || tokens.get(j + 1).isSymbol(":");
                    colon = cast ? colon : j;
                }
            }
            if (colon < 0 || close < 0 || !tokens.get(close).isSymbol("]") || open.position() < copied) {
                continue;
            }
            String lower = sql.substring(open.position() + 1, tokens.get(colon).position())
                    .trim();
            String upper = sql.substring(
                            tokens.get(colon).position() + 1, tokens.get(close).position())
                    .trim();
            out.append(sql, copied, open.position() + 1)
                    .append(MARKER)
                    .append("((")
                    .append(lower.isEmpty() ? "1" : lower)
                    .append("), (")
                    .append(upper.isEmpty() ? Integer.toString(Integer.MAX_VALUE) : upper)
                    .append("))");
            copied = tokens.get(close).position();
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }
}
