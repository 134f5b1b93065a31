package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns PostgreSQL's numbered parameters {@code $n} into the JDBC markers Calcite parses, and
 * PostgreSQL's Unicode-escaped identifiers and strings ({@code U&"d\0061ta"}) into plain quoted
 * ones ({@link UnicodeEscapes}), padding with spaces so that error positions still point into the
 * client's text. Skips quotes and comments. Stateless.
 *
 * @param sql the rewritten text
 * @param order for the k-th marker, the 1-based number n of the {@code $n} it replaced
 */
record ParameterRewriter(String sql, int[] order) {

    static ParameterRewriter rewrite(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        List<Integer> order = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if ((c == 'u' || c == 'U')
                    && i + 2 < n
                    && text.charAt(i + 1) == '&'
                    && (text.charAt(i + 2) == '"' || text.charAt(i + 2) == '\'')
                    && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) && text.charAt(i - 1) != '_')) {
                i = UnicodeEscapes.rewrite(text, i, sb);
            } else if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n) {
                    if (text.charAt(j) == c) {
                        if (j + 1 < n && text.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                j = Math.min(j + 1, n);
                sb.append(text, i, j);
                i = j;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i);
                int j = eol < 0 ? n : eol;
                sb.append(text, i, j);
                i = j;
            } else if (c == '$'
                    && i + 1 < n
                    && Character.isDigit(text.charAt(i + 1))
                    && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) && text.charAt(i - 1) != '_')) {
                int j = i + 1;
                while (j < n && Character.isDigit(text.charAt(j))) {
                    j++;
                }
                order.add(Integer.parseInt(text.substring(i + 1, j)));
                sb.append('?');
                sb.append(" ".repeat(j - i - 1));
                i = j;
            } else {
                sb.append(c);
                i++;
            }
        }
        return new ParameterRewriter(
                sb.toString(), order.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Number of distinct {@code $n} the client must bind: the largest n used. */
    int parameterCount() {
        int max = 0;
        for (int n : order) {
            max = Math.max(max, n);
        }
        return max;
    }
}
