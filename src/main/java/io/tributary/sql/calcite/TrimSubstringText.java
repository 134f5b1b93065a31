package io.tributary.sql.calcite;

import io.tributary.sql.calcite.PgToken.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Writes the argument forms of {@code substring} and {@code trim} that PostgreSQL's grammar
 * accepts and Calcite's lacks (42601) as forms Calcite reads alike: {@code substring(s FOR n)} as
 * {@code substring(s FROM 1 FOR n)}; {@code trim([BOTH|LEADING|TRAILING] FROM s, chars)} and
 * {@code trim(s, chars)} as {@code btrim}, {@code ltrim} or {@code rtrim(s, chars)}, which is what
 * PostgreSQL's grammar makes of them. Only words and commas directly inside the call's brackets
 * are read; quoted text and comments are left alone. Called by {@link PgSyntaxText#rewrite} on the
 * session's thread; stateless.
 */
final class TrimSubstringText {
    private TrimSubstringText() {}

    private record Edit(int start, int end, String text) {}

    /** The statement with each such call rewritten; {@code sql} itself when it has none. */
    static String rewrite(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        if (!lower.contains("trim") && !lower.contains("substring")) {
            return sql;
        }
        List<PgToken> tokens = PgTokenizer.tokens(sql);
        List<Edit> edits = new ArrayList<>();
        for (int i = 0; i + 2 < tokens.size(); i++) {
            boolean trim = tokens.get(i).isWord("trim");
            if (!(trim || tokens.get(i).isWord("substring"))
                    || tokens.get(i + 1).kind() != Kind.OPEN) {
                continue;
            }
            int from = -1;
            int forWord = -1;
            boolean comma = false;
            boolean similar = false;
            for (int j : PgToken.topLevelInside(tokens, i + 1)) {
                PgToken t = tokens.get(j);
                comma |= t.kind() == Kind.COMMA;
                similar |= t.isWord("similar");
                from = from < 0 && t.isWord("from") ? j : from;
                forWord = forWord < 0 && t.isWord("for") ? j : forWord;
            }
            if (!trim && forWord > 0 && from < 0 && !comma && !similar) {
                edits.add(new Edit(
                        tokens.get(forWord).start(), tokens.get(forWord).start(), "FROM 1 "));
            } else if (trim && comma) {
                trimEdit(tokens, i, from, edits);
            }
        }
        if (edits.isEmpty()) {
            return sql;
        }
        edits.sort(Comparator.comparingInt(Edit::start));
        StringBuilder out = new StringBuilder(sql.length() + 8 * edits.size());
        int copied = 0;
        for (Edit edit : edits) {
            out.append(sql, copied, edit.start()).append(edit.text());
            copied = edit.end();
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /**
     * The edit of {@code trim(} at {@code call} whose arguments hold a comma: {@code trim(s, chars)}
     * or {@code trim([side] FROM s, chars)}; none when FROM is elsewhere ({@code trim(s FROM ...)}).
     */
    private static void trimEdit(List<PgToken> tokens, int call, int from, List<Edit> edits) {
        PgToken first = tokens.get(call + 2);
        String side = first.isWord("leading") ? "ltrim" : first.isWord("trailing") ? "rtrim" : "btrim";
        boolean sideWord = first.isWord("both") || first.isWord("leading") || first.isWord("trailing");
        int argumentsAt;
        if (from < 0) {
            argumentsAt = call + 2;
        } else if (from == call + 2 || sideWord && from == call + 3) {
            argumentsAt = from + 1;
        } else {
            return;
        }
        edits.add(new Edit(tokens.get(call).start(), tokens.get(argumentsAt).start(), side + "("));
    }
}
