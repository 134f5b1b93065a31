package io.tributary.catalog.pg;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Qualifies the relation names of a view's stored query with their schema, as PostgreSQL's
 * {@code pg_get_viewdef} does for relations the session's {@code search_path} does not reach (so
 * pg_dump, which clears the path, dumps a view that restores). Tributary keeps the user's text,
 * so this works on its tokens: an unqualified name right after {@code FROM} or {@code JOIN}, or
 * after a comma of a {@code FROM} list, of a {@code SELECT} at the same parenthesis depth, that
 * names a relation and is no {@code WITH} query, gets the schema and a dot in front of it.
 * Everything else (spacing, comments, literals) stays as written. Stateless; any thread.
 */
final class ViewTextQualifier {
    private ViewTextQualifier() {}

    /** Words that end a {@code FROM} list at its depth. */
    private static final Set<String> FROM_END = Set.of(
            "where",
            "group",
            "having",
            "order",
            "limit",
            "offset",
            "union",
            "intersect",
            "except",
            "window",
            "fetch",
            "for",
            "on",
            "using");

    /**
     * @param query the view's query as written
     * @param schema the schema to put in front, unquoted
     * @param isRelation whether a (lower-case, unquoted) name is a relation of {@code schema}
     * @return the query with those names qualified
     */
    static String qualify(String query, String schema, Predicate<String> isRelation) {
        Set<String> withNames = withNames(query);
        StringBuilder out = new StringBuilder(query.length() + 16);
        // per parenthesis depth: whether a SELECT was seen, whether a FROM list is open
        Deque<boolean[]> levels = new ArrayDeque<>();
        levels.push(new boolean[2]);
        boolean expectRelation = false;
        int i = 0;
        int n = query.length();
        while (i < n) {
            char c = query.charAt(i);
            int end = tokenEnd(query, i);
            String token = query.substring(i, end);
            if (Character.isWhitespace(c) || token.startsWith("--") || token.startsWith("/*")) {
                out.append(token);
                i = end;
                continue;
            }
            boolean[] level = levels.peek();
            if (isWordStart(c)) {
                String word = token.toLowerCase(Locale.ROOT);
                boolean qualified = end < n && query.charAt(end) == '.';
                boolean call = nextNonSpace(query, end) == '(';
                if (expectRelation && !qualified && !call && !withNames.contains(word) && isRelation.test(word)) {
                    out.append(schema).append('.');
                }
                expectRelation = false;
                if (word.equals("select")) {
                    level[0] = true;
                    level[1] = false;
                } else if (level[0] && (word.equals("from") || word.equals("join"))) {
                    level[1] = true;
                    expectRelation = true;
                } else if (FROM_END.contains(word) && !word.equals("on") && !word.equals("using")) {
                    level[1] = false;
                }
            } else if (c == '(') {
                levels.push(new boolean[2]);
                expectRelation = false;
            } else if (c == ')') {
                if (levels.size() > 1) {
                    levels.pop();
                }
                expectRelation = false;
            } else if (c == ',') {
                expectRelation = level[1];
            } else {
                expectRelation = false;
            }
            out.append(token);
            i = end;
        }
        return out.toString();
    }

    /** The names a {@code WITH} clause defines ({@code name AS (} or {@code name(cols) AS (}). */
    private static Set<String> withNames(String query) {
        Set<String> names = new HashSet<>();
        String lower = query.toLowerCase(Locale.ROOT);
        if (!lower.stripLeading().startsWith("with")) {
            return names;
        }
        int i = 0;
        String previous = null;
        while (i < query.length()) {
            int end = tokenEnd(query, i);
            String token = lower.substring(i, end);
            if (!token.isBlank() && !token.startsWith("--") && !token.startsWith("/*")) {
                if (token.equals("as") && previous != null) {
                    names.add(previous);
                }
                if (isWordStart(token.charAt(0))) {
                    previous = token;
                } else if (!token.equals(")")) {
                    previous = null;
                }
            }
            i = end;
        }
        return names;
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static char nextNonSpace(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i < s.length() ? s.charAt(i) : 0;
    }

    /** Where the token starting at {@code i} ends: a word, a quoted string or name, a comment, one other char. */
    private static int tokenEnd(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        if (Character.isWhitespace(c)) {
            int j = i;
            while (j < n && Character.isWhitespace(s.charAt(j))) {
                j++;
            }
            return j;
        }
        if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
            int eol = s.indexOf('\n', i);
            return eol < 0 ? n : eol;
        }
        if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
            int close = s.indexOf("*/", i + 2);
            return close < 0 ? n : close + 2;
        }
        if (c == '\'' || c == '"') {
            int j = i + 1;
            while (j < n) {
                if (s.charAt(j) == c) {
                    if (j + 1 < n && s.charAt(j + 1) == c) {
                        j += 2;
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return n;
        }
        if (isWordStart(c)) {
            int j = i;
            while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '$')) {
                j++;
            }
            return j;
        }
        return i + 1;
    }
}
