package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's {@code date_trunc(unit, value, zone)}, which truncates a timestamptz in the named
 * zone rather than the session's: written as {@code timezone(zone, date_trunc(unit, timezone(zone,
 * (value)::timestamptz)))}, the local time there truncated and read back there, as PostgreSQL's
 * {@code timestamptz_trunc_zone} computes it (a timestamp value is cast to timestamptz first, as
 * PostgreSQL's only overload makes it). The first step of {@link PgSyntaxText#rewrite}, so {@link
 * AtTimeZoneCalls} and the cast's rewrites see its result; queries and views alike. The call is
 * found on {@link PgTokenizer}'s tokens; its arguments are the text between its top-level commas.
 */
final class DateTruncZoneText {
    private DateTruncZoneText() {}

    /** {@code sql} with every three-argument {@code date_trunc} call written as above. */
    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("date_trunc")) {
            return sql;
        }
        String text = sql;
        int from = 0;
        while (true) {
            List<PgToken> tokens = PgTokenizer.tokens(text);
            Call call = find(tokens, from);
            if (call == null) {
                return text;
            }
            List<String> args = new ArrayList<>();
            int start = tokens.get(call.open()).end();
            for (int comma : call.commas()) {
                args.add(text.substring(start, tokens.get(comma).start()).trim());
                start = tokens.get(comma).end();
            }
            args.add(text.substring(start, tokens.get(call.close()).start()).trim());
            String zone = "(" + args.get(2) + ")";
            String written = "timezone(" + zone + ", date_trunc(" + args.get(0) + ", timezone(" + zone + ", ("
                    + args.get(1) + ")::timestamptz)))";
            int callStart = tokens.get(call.name()).start();
            text = text.substring(0, callStart)
                    + written
                    + text.substring(tokens.get(call.close()).end());
            // the rewritten call's own date_trunc has two arguments: go on after its name
            from = callStart + "timezone(".length();
        }
    }

    /** A {@code date_trunc} call of three arguments: the token indexes of its name, brackets and commas. */
    private record Call(int name, int open, int close, List<Integer> commas) {}

    private static Call find(List<PgToken> tokens, int from) {
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).start() < from
                    || !tokens.get(i).isWord("date_trunc")
                    || tokens.get(i + 1).kind() != PgToken.Kind.OPEN
                    || i > 0 && tokens.get(i - 1).kind() == PgToken.Kind.DOT) {
                continue;
            }
            int depth = 0;
            List<Integer> commas = new ArrayList<>();
            for (int j = i + 1; j < tokens.size(); j++) {
                PgToken.Kind kind = tokens.get(j).kind();
                if (kind == PgToken.Kind.OPEN || kind == PgToken.Kind.OPEN_BRACKET) {
                    depth++;
                } else if (kind == PgToken.Kind.CLOSE || kind == PgToken.Kind.CLOSE_BRACKET) {
                    depth--;
                    if (depth == 0) {
                        if (commas.size() == 2) {
                            return new Call(i, i + 1, j, commas);
                        }
                        break;
                    }
                } else if (kind == PgToken.Kind.COMMA && depth == 1) {
                    commas.add(j);
                }
            }
        }
        return null;
    }
}
