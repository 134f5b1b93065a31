package io.tributary.sql.calcite;

import io.tributary.sql.calcite.PgToken.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes PostgreSQL's {@code value AT TIME ZONE zone}, which Calcite's grammar lacks, as the
 * function call PostgreSQL makes of it, {@code timezone(zone, value)} ({@link AtTimeZoneCalls}
 * types and computes it). {@code AT} binds tighter than every operator but {@code ::}, unary
 * minus and {@code COLLATE}, so each operand is one primary expression (a name, a constant with
 * its type keyword, a parenthesized expression or a function call) with the casts written after
 * it; {@code a AT TIME ZONE 'x' AT TIME ZONE 'y'} nests from the left. Where an operand is not
 * such an expression (after {@code CASE ... END}, say) the text is left as it is and Calcite
 * reports the syntax error. Quoted text and comments are left alone. Stateless; called by {@link
 * PgSyntaxText#rewrite} on the session's thread.
 */
final class AtTimeZoneText {
    /**
     * Words that end an expression rather than name a function or a column before {@code (} or
     * {@code AT}: {@link PgTokenizer#CLAUSE_WORDS} and the words that start or end an expression
     * this rewrite does not read as an operand ({@code CASE ... END}, {@code ARRAY[...]}, ...).
     */
    private static final Set<String> KEYWORDS =
            PgTokenizer.clauseWordsAnd("case", "end", "with", "over", "array", "row", "zone");
    /** Type names of more than one word, lower case, as a cast or a constant's keyword spells them. */
    private static final List<List<String>> LONG_TYPES = List.of(
            List.of("timestamp", "with", "time", "zone"),
            List.of("timestamp", "without", "time", "zone"),
            List.of("time", "with", "time", "zone"),
            List.of("time", "without", "time", "zone"),
            List.of("double", "precision"),
            List.of("character", "varying"));
    /** The keywords of a typed constant: {@code TIMESTAMP '...'}. */
    private static final Set<String> CONSTANT_TYPES = Set.of("timestamp", "timestamptz", "date", "time", "interval");
    /** The units of an interval constant's qualifier: {@code INTERVAL '5' HOUR TO MINUTE}. */
    private static final Set<String> UNITS = Set.of("year", "month", "day", "hour", "minute", "second");

    private AtTimeZoneText() {}

    /** {@code sql} with every {@code AT TIME ZONE} written as a {@code timezone} call. */
    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("zone")) {
            return sql;
        }
        String text = sql;
        while (true) {
            List<PgToken> tokens = tokens(text);
            int at = find(tokens);
            if (at < 0) {
                return text;
            }
            int left = leftStart(tokens, at - 1);
            int right = rightEnd(tokens, at + 3);
            if (left < 0 || right < 0) {
                return text;
            }
            String value =
                    text.substring(tokens.get(left).start(), tokens.get(at - 1).end());
            String zone =
                    text.substring(tokens.get(at + 3).start(), tokens.get(right).end());
            text = text.substring(0, tokens.get(left).start()) + "timezone(" + zone + ", " + value + ")"
                    + text.substring(tokens.get(right).end());
        }
    }

    /** The index of the first {@code AT} of an {@code AT TIME ZONE} with an operand before it, or -1. */
    private static int find(List<PgToken> tokens) {
        for (int i = 1; i + 3 < tokens.size(); i++) {
            if (word(tokens, i, "at") && word(tokens, i + 1, "time") && word(tokens, i + 2, "zone")) {
                return i;
            }
        }
        return -1;
    }

    /** The first token of the left operand, whose last token is {@code end}; -1 when there is none. */
    private static int leftStart(List<PgToken> tokens, int end) {
        int p = end;
        // casts after the primary: value::type[::type ...]
        while (true) {
            int type = typeStart(tokens, p);
            if (type < 1 || tokens.get(type - 1).kind() != Kind.CAST) {
                break;
            }
            p = type - 2;
        }
        if (p < 0) {
            return -1;
        }
        PgToken last = tokens.get(p);
        switch (last.kind()) {
            case CLOSE -> {
                int open = matchBack(tokens, p);
                if (open < 0) {
                    return -1;
                }
                if (open > 0 && isName(tokens.get(open - 1))) {
                    return qualified(tokens, open - 1);
                }
                return open;
            }
            case STRING -> {
                for (List<String> type : LONG_TYPES) {
                    if (wordsEndAt(tokens, p - 1, type)) {
                        return p - type.size();
                    }
                }
                return p > 0 && CONSTANT_TYPES.contains(tokens.get(p - 1).lower()) ? p - 1 : p;
            }
            case WORD, QUOTED_NAME -> {
                return isName(last) ? qualified(tokens, p) : -1;
            }
            case NUMBER, PARAMETER -> {
                return p;
            }
            default -> {
                return -1;
            }
        }
    }

    /** The last token of the right operand, whose first token is {@code start}; -1 when there is none. */
    private static int rightEnd(List<PgToken> tokens, int start) {
        if (start >= tokens.size()) {
            return -1;
        }
        PgToken first = tokens.get(start);
        int p;
        if (first.kind() == Kind.STRING || first.kind() == Kind.NUMBER || first.kind() == Kind.PARAMETER) {
            p = start;
        } else if (first.kind() == Kind.OPEN) {
            p = matchForward(tokens, start);
        } else if (word(tokens, start, "interval")
                && start + 1 < tokens.size()
                && tokens.get(start + 1).kind() == Kind.STRING) {
            p = start + 1;
            if (p + 1 < tokens.size() && UNITS.contains(tokens.get(p + 1).lower())) {
                p++;
                if (word(tokens, p + 1, "to")
                        && p + 2 < tokens.size()
                        && UNITS.contains(tokens.get(p + 2).lower())) {
                    p += 2;
                }
            }
        } else if (isName(first)) {
            p = start;
            while (p + 2 < tokens.size() && tokens.get(p + 1).kind() == Kind.DOT && isName(tokens.get(p + 2))) {
                p += 2;
            }
            if (p + 1 < tokens.size() && tokens.get(p + 1).kind() == Kind.OPEN) {
                p = matchForward(tokens, p + 1);
            }
        } else {
            return -1;
        }
        while (p >= 0 && p + 2 < tokens.size() && tokens.get(p + 1).kind() == Kind.CAST) {
            p = typeEnd(tokens, p + 2);
        }
        return p;
    }

    /** The first token of a type name ending at {@code end} ({@code varchar(10)}, {@code int[]}), or -1. */
    private static int typeStart(List<PgToken> tokens, int end) {
        int p = end;
        while (p > 0
                && tokens.get(p).kind() == Kind.CLOSE_BRACKET
                && tokens.get(p - 1).kind() == Kind.OPEN_BRACKET) {
            p -= 2;
        }
        if (p >= 0 && tokens.get(p).kind() == Kind.CLOSE) {
            p = matchBack(tokens, p) - 1;
        }
        if (p < 0) {
            return -1;
        }
        for (List<String> type : LONG_TYPES) {
            if (wordsEndAt(tokens, p, type)) {
                return p - type.size() + 1;
            }
        }
        return tokens.get(p).kind() == Kind.WORD || tokens.get(p).kind() == Kind.QUOTED_NAME
                ? qualified(tokens, p)
                : -1;
    }

    /** The last token of a type name starting at {@code start}, or -1. */
    private static int typeEnd(List<PgToken> tokens, int start) {
        int p = -1;
        for (List<String> type : LONG_TYPES) {
            if (wordsEndAt(tokens, start + type.size() - 1, type)) {
                p = start + type.size() - 1;
                break;
            }
        }
        if (p < 0) {
            if (tokens.get(start).kind() != Kind.WORD && tokens.get(start).kind() != Kind.QUOTED_NAME) {
                return -1;
            }
            p = start;
            while (p + 2 < tokens.size() && tokens.get(p + 1).kind() == Kind.DOT) {
                p += 2;
            }
        }
        if (p + 1 < tokens.size() && tokens.get(p + 1).kind() == Kind.OPEN) {
            p = matchForward(tokens, p + 1);
        }
        while (p >= 0
                && p + 2 < tokens.size()
                && tokens.get(p + 1).kind() == Kind.OPEN_BRACKET
                && tokens.get(p + 2).kind() == Kind.CLOSE_BRACKET) {
            p += 2;
        }
        return p;
    }

    /** The first token of {@code name} at {@code p} with its qualifiers ({@code s.t.c}). */
    private static int qualified(List<PgToken> tokens, int p) {
        while (p >= 2 && tokens.get(p - 1).kind() == Kind.DOT && isName(tokens.get(p - 2))) {
            p -= 2;
        }
        return p;
    }

    private static boolean isName(PgToken token) {
        return token.kind() == Kind.QUOTED_NAME || token.kind() == Kind.WORD && !KEYWORDS.contains(token.lower());
    }

    private static boolean word(List<PgToken> tokens, int i, String word) {
        return i >= 0
                && i < tokens.size()
                && tokens.get(i).kind() == Kind.WORD
                && tokens.get(i).lower().equals(word);
    }

    private static boolean wordsEndAt(List<PgToken> tokens, int end, List<String> words) {
        int first = end - words.size() + 1;
        if (first < 0 || end >= tokens.size()) {
            return false;
        }
        for (int i = 0; i < words.size(); i++) {
            if (!word(tokens, first + i, words.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static int matchBack(List<PgToken> tokens, int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            Kind kind = tokens.get(i).kind();
            depth += kind == Kind.CLOSE ? 1 : kind == Kind.OPEN ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int matchForward(List<PgToken> tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            Kind kind = tokens.get(i).kind();
            depth += kind == Kind.OPEN ? 1 : kind == Kind.CLOSE ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The tokens of {@code sql}: a parameter or a lone {@code $} is a {@link Kind#PARAMETER}, a
     * string or quoted name left open runs to the end, and a word of one or two letters right
     * before a string constant is its prefix ({@code N'...'}).
     */
    private static List<PgToken> tokens(String sql) {
        List<PgToken> tokens = new ArrayList<>();
        for (PgToken t : PgTokenizer.tokens(sql)) {
            Kind kind = switch (t.kind()) {
                case DOLLAR -> Kind.PARAMETER;
                case UNTERMINATED -> t.lower().startsWith("\"") ? Kind.QUOTED_NAME : Kind.STRING;
                default -> t.kind();
            };
            PgToken prefix = tokens.isEmpty() ? null : tokens.get(tokens.size() - 1);
            if (kind == Kind.STRING
                    && t.lower().startsWith("'")
                    && prefix != null
                    && prefix.kind() == Kind.WORD
                    && prefix.end() == t.start()
                    && prefix.lower().length() <= 2) {
                tokens.set(tokens.size() - 1, new PgToken(kind, prefix.start(), t.end(), prefix.lower() + t.lower()));
            } else {
                tokens.add(kind == t.kind() ? t : new PgToken(kind, t.start(), t.end(), t.lower()));
            }
        }
        return tokens;
    }
}
