package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * PostgreSQL's Unicode escapes in quoted identifiers and strings: {@code U&"d\0061t\+000061"} is
 * the identifier {@code "data"}, {@code U&'\00e9'} the string {@code 'é'}; an optional
 * {@code UESCAPE 'c'} picks another escape character. Calcite's parser does not read them the same
 * way, so they are decoded before it sees the text.
 */
final class UnicodeEscapes {
    private UnicodeEscapes() {}

    /**
     * Appends the plain quoted form of the escaped token starting at {@code start} (at its
     * {@code U}) to {@code out}, padded with spaces to the token's length so later positions are
     * unchanged.
     *
     * @return the offset just past the token (and its UESCAPE clause)
     * @throws TributaryException 42601 for an unterminated token or an invalid escape, as PostgreSQL
     */
    static int rewrite(String text, int start, StringBuilder out) {
        char quote = text.charAt(start + 2);
        int n = text.length();
        StringBuilder body = new StringBuilder();
        int j = start + 3;
        while (true) {
            if (j >= n) {
                throw syntax(quote == '"' ? "unterminated quoted identifier" : "unterminated quoted string", start);
            }
            char c = text.charAt(j);
            if (c == quote) {
                if (j + 1 < n && text.charAt(j + 1) == quote) {
                    body.append(quote);
                    j += 2;
                    continue;
                }
                break;
            }
            body.append(c);
            j++;
        }
        int end = j + 1;
        char escape = '\\';
        int afterUescape = uescape(text, end);
        if (afterUescape > 0) {
            escape = text.charAt(afterUescape - 2);
            end = afterUescape;
        }
        String decoded = decode(body, escape, start);
        StringBuilder token = new StringBuilder().append(quote);
        for (int k = 0; k < decoded.length(); k++) {
            char c = decoded.charAt(k);
            token.append(c);
            if (c == quote) {
                token.append(quote);
            }
        }
        token.append(quote);
        out.append(token).append(" ".repeat(Math.max(0, end - start - token.length())));
        return end;
    }

    /** The offset past {@code UESCAPE 'c'} following {@code from} (whitespace allowed), or -1. */
    private static int uescape(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (!text.regionMatches(true, i, "UESCAPE", 0, 7)) {
            return -1;
        }
        i += 7;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i + 2 < text.length() && text.charAt(i) == '\'' && text.charAt(i + 2) == '\'') {
            char c = text.charAt(i + 1);
            if (Character.isWhitespace(c) || Character.digit(c, 16) >= 0 || c == '+' || c == '\'' || c == '"') {
                throw syntax("invalid Unicode escape character", i);
            }
            return i + 3;
        }
        throw syntax("UESCAPE must be followed by a simple string literal", i);
    }

    private static String decode(CharSequence body, char escape, int start) {
        StringBuilder out = new StringBuilder(body.length());
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c != escape) {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < body.length() && body.charAt(i + 1) == escape) {
                out.append(escape);
                i += 2;
                continue;
            }
            int digits = i + 1 < body.length() && body.charAt(i + 1) == '+' ? 6 : 4;
            int from = digits == 6 ? i + 2 : i + 1;
            int cp = hex(body, from, digits);
            if (cp < 0) {
                throw new TributaryException(
                        SqlState.SYNTAX_ERROR,
                        "invalid Unicode escape",
                        start + 1,
                        null,
                        "Unicode escapes must be \\XXXX or \\+XXXXXX.",
                        null);
            }
            if (cp == 0 || cp > Character.MAX_CODE_POINT) {
                throw syntax("invalid Unicode escape value", start);
            }
            out.appendCodePoint(cp);
            i = from + digits;
        }
        return out.toString();
    }

    private static int hex(CharSequence s, int from, int digits) {
        if (from + digits > s.length()) {
            return -1;
        }
        int v = 0;
        for (int k = from; k < from + digits; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    private static TributaryException syntax(String message, int offset) {
        return new TributaryException(SqlState.SYNTAX_ERROR, message, offset + 1, null, null, null);
    }
}
