package io.tributary.sql.calcite;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites PostgreSQL syntax Calcite's grammar lacks, as catalog queries of psql and drivers use
 * it, into text Calcite parses: {@code OPERATOR(pg_catalog.~)} becomes {@code ~},
 * {@code COLLATE pg_catalog.default} is dropped, a cast to a pg_catalog array type
 * ({@code ::pg_catalog.int2[]}, applied by psql to columns that already are arrays) is dropped, and
 * {@code pg_catalog.} before a function name or after {@code ::} is dropped (PostgreSQL resolves
 * those names in pg_catalog first anyway). Each
 * change keeps the text's length (padding with spaces), so error positions still point into the
 * client's statement. Quoted text and comments are left alone. Stateless.
 */
final class PgSyntaxText {
    private static final Pattern OPERATOR =
            Pattern.compile("(?i)OPERATOR\\s*\\(\\s*pg_catalog\\s*\\.\\s*([~!<>=*+\\-/%^|&]+)\\s*\\)");
    private static final Pattern DEFAULT_COLLATION =
            Pattern.compile("(?i)\\bCOLLATE\\s+pg_catalog\\s*\\.\\s*(\"default\"|default)\\b");
    private static final Pattern QUALIFIED_FUNCTION =
            Pattern.compile("(?i)\\bpg_catalog\\s*\\.\\s*(?=[a-z_][a-z0-9_]*\\s*\\()");
    private static final Pattern ARRAY_CAST =
            Pattern.compile("(?i)::\\s*pg_catalog\\s*\\.\\s*[a-z_][a-z0-9_]*\\s*\\[\\s*\\]");
    private static final Pattern QUALIFIED_TYPE = Pattern.compile("(?i)(?<=::)\\s*pg_catalog\\s*\\.");

    private PgSyntaxText() {}

    static String rewrite(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        int codeStart = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = closingQuote(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                end = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
            } else {
                i++;
                continue;
            }
            out.append(code(sql.substring(codeStart, i))).append(sql, i, end);
            i = end;
            codeStart = end;
        }
        return out.append(code(sql.substring(codeStart))).toString();
    }

    /** Index after the quote closing the one at {@code start}; doubled quotes stay inside. */
    private static int closingQuote(String sql, int start, char quote) {
        int j = start + 1;
        while (j < sql.length()) {
            if (sql.charAt(j) == quote) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            if (quote == '\''
                    && sql.charAt(j) == '\\'
                    && start > 0
                    && Character.toUpperCase(sql.charAt(start - 1)) == 'E') {
                j++;
            }
            j++;
        }
        return sql.length();
    }

    private static String code(String text) {
        if (!text.toLowerCase(java.util.Locale.ROOT).contains("pg_catalog")) {
            return text;
        }
        String s = replace(OPERATOR, text, m -> m.group(1));
        s = replace(ARRAY_CAST, s, m -> "");
        s = replace(DEFAULT_COLLATION, s, m -> "");
        s = replace(QUALIFIED_FUNCTION, s, m -> "");
        return replace(QUALIFIED_TYPE, s, m -> "");
    }

    /** Replaces each match with {@code replacement}, padded with spaces to the match's length. */
    private static String replace(Pattern p, String text, java.util.function.Function<Matcher, String> replacement) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder(text.length());
        while (m.find()) {
            String r = replacement.apply(m);
            m.appendReplacement(
                    sb, Matcher.quoteReplacement(r + " ".repeat(m.group().length() - r.length())));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
