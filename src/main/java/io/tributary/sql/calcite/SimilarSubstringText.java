package io.tributary.sql.calcite;

import io.tributary.sql.calcite.PgToken.Kind;
import java.util.List;

/**
 * Writes PostgreSQL's {@code substring(s SIMILAR pattern ESCAPE escape)}, which Calcite's grammar
 * lacks, as {@code pg_similar_substring(s, pattern, escape)} ({@link PgSimilarSubstring}). Only the
 * words {@code similar} and {@code escape} directly inside the call's brackets are read as its
 * separators; quoted text and comments are left alone. A call without {@code escape} is left for
 * Calcite to report as the syntax error PostgreSQL gives. Called by {@link PgSyntaxText#rewrite}
 * on the session's thread; stateless.
 */
final class SimilarSubstringText {
    private SimilarSubstringText() {}

    /** The statement with each such call rewritten; {@code sql} itself when it has none. */
    static String rewrite(String sql) {
        if (!sql.toLowerCase(java.util.Locale.ROOT).contains("similar")) {
            return sql;
        }
        List<PgToken> tokens = PgTokenizer.tokens(sql);
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (!tokens.get(i).isWord("substring") || tokens.get(i + 1).kind() != Kind.OPEN) {
                continue;
            }
            int similar = -1;
            int escape = -1;
            for (int j : PgToken.topLevelInside(tokens, i + 1)) {
                PgToken t = tokens.get(j);
                if (similar < 0 && t.isWord("similar")) {
                    similar = j;
                } else if (similar >= 0 && escape < 0 && t.isWord("escape")) {
                    escape = j;
                }
            }
            if (similar < 0 || escape < 0) {
                continue;
            }
            out.append(sql, copied, tokens.get(i).start()).append(PgSimilarSubstring.NAME);
            out.append(sql, tokens.get(i).end(), tokens.get(similar).start()).append(',');
            out.append(sql, tokens.get(similar).end(), tokens.get(escape).start())
                    .append(',');
            copied = tokens.get(escape).end();
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }
}
