package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tokenizes statements with PostgreSQL's identifier folding: utility statements (DDL, SET, SHOW, COPY ...)
 * for their parsers, and query text for the text rewrites that run before Calcite parses it. A
 * dollar-quoted constant ({@link DollarQuotes}) is a string token of its body. Stateless.
 */
public final class Lexer {
    private Lexer() {}

    /**
     * The tokens of {@code sql}, ending with an {@link Token.Kind#END} token.
     *
     * @throws TributaryException 42601 for an unterminated string or quoted identifier
     */
    public static List<Token> tokenize(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if ((Character.isLetter(c) || c == '_') && !escapeStringAt(sql, i)) {
                int j = i;
                while (j < n
                        && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
                    j++;
                }
                out.add(new Token(Token.Kind.WORD, sql.substring(i, j).toLowerCase(Locale.ROOT), i));
                i = j;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i;
                while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                    j++;
                }
                out.add(new Token(Token.Kind.NUMBER, sql.substring(i, j), i));
                i = j;
            } else if (c == '\'' || escapeStringAt(sql, i)) {
                int start = c == '\'' ? i : i + 1;
                StringBuilder sb = new StringBuilder();
                int j = start + 1;
                while (true) {
                    if (j >= n) {
                        throw syntax("unterminated quoted string", i);
                    }
                    char d = sql.charAt(j);
                    if (d == '\'') {
                        if (j + 1 < n && sql.charAt(j + 1) == '\'') {
                            sb.append('\'');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    if (d == '\\' && c != '\'' && j + 1 < n) {
                        char e = sql.charAt(j + 1);
                        sb.append(
                                switch (e) {
                                    case 'n' -> '\n';
                                    case 't' -> '\t';
                                    case 'r' -> '\r';
                                    default -> e;
                                });
                        j += 2;
                        continue;
                    }
                    sb.append(d);
                    j++;
                }
                out.add(new Token(Token.Kind.STRING, sb.toString(), i));
                i = j + 1;
            } else if (c == '"') {
                int j = sql.indexOf('"', i + 1);
                if (j < 0) {
                    throw syntax("unterminated quoted identifier", i);
                }
                out.add(new Token(Token.Kind.QUOTED_IDENT, sql.substring(i + 1, j), i));
                i = j + 1;
            } else if (c == '$' && DollarQuotes.end(sql, i) >= 0) {
                int end = DollarQuotes.end(sql, i);
                out.add(new Token(Token.Kind.STRING, DollarQuotes.body(sql, i, end), i));
                i = end;
            } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                out.add(new Token(Token.Kind.PARAM, sql.substring(i + 1, j), i));
                i = j;
            } else {
                out.add(new Token(Token.Kind.SYMBOL, String.valueOf(c), i));
                i++;
            }
        }
        out.add(new Token(Token.Kind.END, "", n));
        return out;
    }

    /** Whether an escape string constant ({@code E'...'}) starts at {@code i}, rather than a word. */
    private static boolean escapeStringAt(String sql, int i) {
        char c = sql.charAt(i);
        return (c == 'E' || c == 'e') && i + 1 < sql.length() && sql.charAt(i + 1) == '\'';
    }

    static TributaryException syntax(String message, int offset) {
        return new TributaryException(SqlState.SYNTAX_ERROR, message, offset + 1, null, null, null);
    }
}
