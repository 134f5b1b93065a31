package io.tributary.sql.calcite;

import io.tributary.sql.calcite.PgToken.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a statement's text into {@link PgToken}s as PostgreSQL's lexer would, for the text
 * rewrites that run before Calcite parses ({@link PgOperatorText}, {@link AtTimeZoneText}):
 * comments are left out, quoted names and string constants (with their {@code E}, {@code B},
 * {@code X} or {@code U} prefix, {@code E}'s backslash escapes) are single tokens, and
 * operators are the longest run of operator characters. Also holds the words both rewrites take
 * to end an expression. Stateless; called on the session's thread.
 */
final class PgTokenizer {
    /**
     * Words that end an expression, so that neither rewrite takes them for a name: the clause,
     * predicate and set-operation keywords. Each rewrite adds the words its own reading needs.
     */
    static final Set<String> CLAUSE_WORDS = Set.of(
            "select",
            "from",
            "where",
            "and",
            "or",
            "not",
            "on",
            "in",
            "as",
            "by",
            "when",
            "then",
            "else",
            "having",
            "values",
            "returning",
            "set",
            "union",
            "except",
            "intersect",
            "distinct",
            "all",
            "exists",
            "like",
            "ilike",
            "between",
            "is",
            "join",
            "using",
            "into",
            "limit",
            "offset",
            "order",
            "group",
            "any",
            "some");

    private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`?";

    private PgTokenizer() {}

    /** {@link #CLAUSE_WORDS} and {@code more}: the words that end an expression for one rewrite. */
    static Set<String> clauseWordsAnd(String... more) {
        Set<String> words = new HashSet<>(CLAUSE_WORDS);
        words.addAll(List.of(more));
        return Set.copyOf(words);
    }

    /** The tokens of {@code sql}, in order. */
    static List<PgToken> tokens(String sql) {
        List<PgToken> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int start = i;
            Kind kind;
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
                continue;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                continue;
            } else if (c == '\'' || "eExXbBuU".indexOf(c) >= 0 && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int close = io.tributary.sql.QuotedText.closingQuote(sql, c == '\'' ? i : i + 1, c == 'e' || c == 'E');
                i = close < 0 ? n : close;
                kind = close < 0 ? Kind.UNTERMINATED : Kind.STRING;
            } else if (c == '"') {
                int close = io.tributary.sql.QuotedText.closingQuote(sql, i, false);
                i = close < 0 ? n : close;
                kind = close < 0 ? Kind.UNTERMINATED : Kind.QUOTED_NAME;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                kind = Kind.WORD;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i))
                                || sql.charAt(i) == '.'
                                || (sql.charAt(i) == '+' || sql.charAt(i) == '-')
                                        && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E'))) {
                    i++;
                }
                kind = Kind.NUMBER;
            } else if (c == '$') {
                i++;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                kind = i > start + 1 ? Kind.PARAMETER : Kind.DOLLAR;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                i += 2;
                kind = Kind.CAST;
            } else if (OPERATOR_CHARS.indexOf(c) >= 0) {
                i = operatorEnd(sql, i);
                kind = Kind.OPERATOR;
            } else {
                i++;
                kind = switch (c) {
                    case '(' -> Kind.OPEN;
                    case ')' -> Kind.CLOSE;
                    case '[' -> Kind.OPEN_BRACKET;
                    case ']' -> Kind.CLOSE_BRACKET;
                    case ',' -> Kind.COMMA;
                    case '.' -> Kind.DOT;
                    default -> Kind.OTHER;
                };
            }
            out.add(new PgToken(kind, start, i, sql.substring(start, i).toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    /**
     * The end of the operator starting at {@code start}: the run of operator characters up to a
     * comment; as PostgreSQL's lexer, a trailing {@code +} or {@code -} is an operator of its own
     * unless the run holds one of {@code ~!@#%^&|`?}.
     */
    private static int operatorEnd(String sql, int start) {
        int n = sql.length();
        int i = start;
        while (i < n
                && OPERATOR_CHARS.indexOf(sql.charAt(i)) >= 0
                && !(sql.charAt(i) == '-' && i + 1 < n && sql.charAt(i + 1) == '-')
                && !(sql.charAt(i) == '/' && i + 1 < n && sql.charAt(i + 1) == '*')) {
            i++;
        }
        while (i - start > 1
                && (sql.charAt(i - 1) == '+' || sql.charAt(i - 1) == '-')
                && sql.substring(start, i).chars().noneMatch(ch -> "~!@#%^&|`?".indexOf(ch) >= 0)) {
            i--;
        }
        return i;
    }
}
