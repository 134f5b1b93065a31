package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Lets the words Calcite's Babel grammar reserves but PostgreSQL does not (PostgreSQL's unreserved
 * and column-name keywords: {@code next}, {@code value}s of {@code rows}, {@code time}, ...) name
 * columns and aliases, by quoting them in lower case (the name PostgreSQL folds them to) where the
 * tokens around them show they are a name: right after {@code AS} (an alias), right after a dot
 * (a qualified column), or between a token that starts an expression or list item ({@code SELECT},
 * {@code ,}, {@code (}, {@code WHERE}, an operator, ...) and one that ends it ({@code ,},
 * {@code )}, {@code FROM}, an operator, the end, ...). Where the word is a keyword (a frame's
 * {@code ROWS BETWEEN}, {@code PARTITION BY}, {@code ROW(...)}, {@code TIME '10:00'}, a
 * statement's first word, {@code CAST(x AS time)}) one of its neighbours is outside those sets and
 * the word stays. PostgreSQL's reserved words ({@code order}, {@code default}, ...) are quoted
 * only as a select item's label after {@code AS} ({@link #LABELS}). {@code by} is left to
 * {@link KeywordNames}. Called by {@link PgSyntaxText} on a
 * whole statement's text before its other rewrites; quoted text and comments are skipped.
 * Stateless.
 */
final class ReservedWordNames {
    /**
     * PostgreSQL's unreserved and column-name keywords that Babel's parser metadata reports reserved
     * ({@code by} aside), as listed by {@code pg_get_keywords()} of PostgreSQL 14.
     */
    private static final Set<String> WORDS = Set.of(
            "call",
            "current",
            "cursor",
            "delete",
            "drop",
            "explain",
            "grouping",
            "insert",
            "interval",
            "new",
            "next",
            "over",
            "partition",
            "range",
            "rollup",
            "row",
            "rows",
            "set",
            "skip",
            "snapshot",
            "time",
            "timestamp",
            "update",
            "values",
            "volatile");
    /**
     * PostgreSQL's reserved keywords (and {@code date}) that Calcite's grammar rejects as a select
     * item's label even after {@code AS}, where PostgreSQL takes any keyword ({@code SELECT d AS date,
     * n AS order}); quoted only there.
     */
    private static final Set<String> LABELS = Set.of(
            "any",
            "case",
            "create",
            "cross",
            "date",
            "default",
            "distinct",
            "except",
            "fetch",
            "from",
            "full",
            "grant",
            "group",
            "having",
            "in",
            "inner",
            "intersect",
            "into",
            "join",
            "lateral",
            "left",
            "limit",
            "natural",
            "null",
            "offset",
            "on",
            "order",
            "outer",
            "right",
            "select",
            "some",
            "table",
            "tablesample",
            "then",
            "union",
            "using",
            "when",
            "where",
            "window",
            "with");
    /** {@code AS} before one of {@link #LABELS}: whether a statement needs the tokens looked at. */
    private static final Pattern LABEL_AFTER_AS =
            Pattern.compile("(?i)\\bas\\s+(?:" + String.join("|", new TreeSet<>(LABELS)) + ")\\b");
    /** Of {@link #WORDS}, the type names, which after {@code AS} are a cast's target type unless the item ends there. */
    private static final Set<String> TYPES = Set.of("interval", "time", "timestamp", "row", "values");
    /** Words after which an expression or a list item starts. */
    private static final Set<String> STARTS = Set.of(
            "select",
            "distinct",
            "where",
            "and",
            "or",
            "not",
            "by",
            "set",
            "when",
            "then",
            "else",
            "having",
            "returning",
            "on",
            "all");
    /** Symbols after which an expression or a list item starts. */
    private static final String START_SYMBOLS = ",(=<>+-*/%|";
    /**
     * Keywords that may follow a complete expression (a clause's, an infix operator's or a CASE's
     * next word) and that start no operand of an arithmetic one; {@link BetweenBoundErrors} stops a
     * BETWEEN's bound at them.
     */
    static final Set<String> EXPRESSION_ENDS = Set.of(
            "from",
            "as",
            "and",
            "or",
            "is",
            "in",
            "not",
            "like",
            "ilike",
            "similar",
            "between",
            "where",
            "group",
            "order",
            "limit",
            "offset",
            "having",
            "union",
            "except",
            "intersect",
            "then",
            "else",
            "end",
            "when",
            "returning",
            "on",
            "join");
    /**
     * Words that may follow a name that ends an expression or list item: {@link #EXPRESSION_ENDS},
     * an ORDER BY item's and a join's words.
     */
    private static final Set<String> ENDS = Stream.concat(
                    EXPRESSION_ENDS.stream(),
                    Stream.of("asc", "desc", "nulls", "inner", "left", "right", "full", "cross"))
            .collect(Collectors.toUnmodifiableSet());
    /** A window frame's units, which BETWEEN may follow as a keyword. */
    private static final Set<String> FRAME_UNITS = Set.of("rows", "range");
    /** Symbols that may follow a name that ends an expression or list item. */
    private static final String END_SYMBOLS = ",)=<>!+-*/%|:;.[";

    private ReservedWordNames() {}

    /** {@code sql} with each reserved word that names something quoted; {@code sql} itself when none does. */
    static String quote(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        if (!mentionsAny(lower) && !LABEL_AFTER_AS.matcher(sql).find()) {
            return sql;
        }
        List<int[]> tokens = tokens(sql);
        StringBuilder out = null;
        int last = 0;
        for (int t = 0; t < tokens.size(); t++) {
            int[] token = tokens.get(t);
            if (token[2] != WORD) {
                continue;
            }
            String word = lower.substring(token[0], token[1]);
            boolean name = WORDS.contains(word)
                    ? isName(lower, tokens, t, word)
                    : LABELS.contains(word) && isLabel(lower, tokens, t, word);
            if (!name) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 8);
            }
            out.append(sql, last, token[0]).append('"').append(word).append('"');
            last = token[1];
        }
        return out == null ? sql : out.append(sql, last, sql.length()).toString();
    }

    private static boolean mentionsAny(String lower) {
        for (String w : WORDS) {
            if (lower.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isName(String lower, List<int[]> tokens, int t, String word) {
        String previous = t == 0 ? null : text(lower, tokens.get(t - 1));
        if (previous == null) {
            return false;
        }
        if (previous.equals("as")) {
            // CAST(x AS time) is a type; an alias ends the select item: AS time, / AS time FROM
            return !TYPES.contains(word) || endsItem(lower, tokens, t + 1);
        }
        if (previous.equals(".")) {
            // pg_catalog.timestamp is the type; any other qualified word is a column
            return !(TYPES.contains(word)
                    && t >= 2
                    && text(lower, tokens.get(t - 2)).equals("pg_catalog"));
        }
        boolean starts = tokens.get(t - 1)[2] == WORD ? STARTS.contains(previous) : START_SYMBOLS.contains(previous);
        if (!starts) {
            return false;
        }
        if (t + 1 == tokens.size()) {
            return true;
        }
        int[] nextToken = tokens.get(t + 1);
        String next = text(lower, nextToken);
        if (nextToken[2] != WORD) {
            return nextToken[2] == SYMBOL && END_SYMBOLS.contains(next);
        }
        return ENDS.contains(next) && !startsFrame(lower, tokens, t, word, next);
    }

    /**
     * Whether {@code word} at token {@code t}, which {@code (} precedes, opens a window's frame
     * ({@code OVER (ROWS BETWEEN ...)}, {@code WINDOW w AS (RANGE BETWEEN ...)}) rather than
     * naming a column ({@code WHERE (rows BETWEEN 1 AND 3)}): a frame unit followed by BETWEEN
     * right after the parenthesis of OVER or of a window's AS.
     */
    private static boolean startsFrame(String lower, List<int[]> tokens, int t, String word, String next) {
        if (!next.equals("between") || !FRAME_UNITS.contains(word) || t < 2) {
            return false;
        }
        String beforeParenthesis = text(lower, tokens.get(t - 2));
        return text(lower, tokens.get(t - 1)).equals("(")
                && (beforeParenthesis.equals("over") || beforeParenthesis.equals("as"));
    }

    /**
     * Whether {@link #LABELS} member {@code word} at token {@code t} labels a select item: it follows
     * {@code AS} and the item ends after it (also at {@code )}, unless it is the type {@code date},
     * which in {@code CAST(x AS date)} is followed by one).
     */
    private static boolean isLabel(String lower, List<int[]> tokens, int t, String word) {
        if (t == 0 || !text(lower, tokens.get(t - 1)).equals("as")) {
            return false;
        }
        return endsItem(lower, tokens, t + 1)
                || (!word.equals("date")
                        && t + 1 < tokens.size()
                        && text(lower, tokens.get(t + 1)).equals(")"));
    }

    /** Whether token {@code t} ends a select list item: the end, {@code ,}, {@code ;} or {@code FROM}. */
    private static boolean endsItem(String lower, List<int[]> tokens, int t) {
        if (t == tokens.size()) {
            return true;
        }
        String next = text(lower, tokens.get(t));
        return next.equals(",") || next.equals(";") || next.equals("from");
    }

    private static String text(String lower, int[] token) {
        return lower.substring(token[0], token[1]);
    }

    private static final int WORD = 0;
    private static final int SYMBOL = 1;
    /** A quoted name, string constant, number or parameter: never one of the sets' members. */
    private static final int OTHER = 2;

    /** The text's tokens as {start, end, kind}; comments are left out. */
    private static List<int[]> tokens(String sql) {
        List<int[]> tokens = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == '\'' || c == '"') {
                int end = closing(sql, i, c);
                tokens.add(new int[] {i, end, OTHER});
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n
                        && (Character.isLetterOrDigit(sql.charAt(end))
                                || sql.charAt(end) == '_'
                                || sql.charAt(end) == '$')) {
                    end++;
                }
                // E'..', U&'..', B'..' and X'..' prefixes belong to the constant
                boolean prefix = end < n && sql.charAt(end) == '\'';
                tokens.add(new int[] {i, end, prefix ? OTHER : WORD});
                i = end;
            } else if (Character.isDigit(c) || c == '$') {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    end++;
                }
                tokens.add(new int[] {i, end, OTHER});
                i = end;
            } else {
                tokens.add(new int[] {i, i + 1, SYMBOL});
                i++;
            }
        }
        return tokens;
    }

    /** Index after the quote closing the one at {@code start}; doubled quotes and E-string escapes stay inside. */
    private static int closing(String sql, int start, char quote) {
        boolean escapes = quote == '\'' && start > 0 && Character.toUpperCase(sql.charAt(start - 1)) == 'E';
        int j = start + 1;
        while (j < sql.length()) {
            char c = sql.charAt(j);
            if (c == quote) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j += escapes && c == '\\' ? 2 : 1;
        }
        return sql.length();
    }
}
