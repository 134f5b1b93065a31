package io.tributary.sql;

import io.tributary.common.TributaryException;
import io.tributary.common.types.FractionalSeconds;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * PostgreSQL's WARNING (22023) for a time type written with more fraction digits than it keeps:
 * {@code timestamp(7)} is {@code TIMESTAMP(7) precision reduced to maximum allowed, 6}, and so for
 * {@code timestamptz(p)}, {@code timestamp(p) with time zone}, {@code time(p)}, {@code timetz(p)}
 * and {@code interval(p)}, one per type name written, in a query or a column's declaration; the
 * type then behaves as p = 6. Read from the statement's tokens, so quoted text and comments are
 * left alone. Stateless.
 */
public final class TimePrecisionWarnings {
    /** A cheap look for a type name with a precision above 6, before the statement is tokenized. */
    private static final Pattern CANDIDATE = Pattern.compile(
            "(?i)(?:time|timestamp|timestamptz|timetz|interval)\\s*\\(\\s*(?:0*[7-9]|0*[1-9]\\d+)\\s*\\)");

    private TimePrecisionWarnings() {}

    /** The warnings' messages for {@code sql}, in the order its type names are written; empty for none. */
    public static List<String> of(String sql) {
        if (!CANDIDATE.matcher(sql).find()) {
            return List.of();
        }
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (TributaryException e) {
            return List.of(); // the statement's own error is reported by its parser
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i + 3 < tokens.size(); i++) {
            Token name = tokens.get(i);
            if (name.kind() != Token.Kind.WORD
                    || !tokens.get(i + 1).isSymbol("(")
                    || tokens.get(i + 2).kind() != Token.Kind.NUMBER
                    || !tokens.get(i + 3).isSymbol(")")
                    || !tokens.get(i + 2).text().chars().allMatch(Character::isDigit)) {
                continue;
            }
            String typeName = typeName(name.text());
            BigInteger precision = new BigInteger(tokens.get(i + 2).text());
            if (typeName != null && precision.compareTo(BigInteger.valueOf(FractionalSeconds.MAX_PRECISION)) > 0) {
                out.add(typeName + "(" + precision + ")" + zoned(name.text(), tokens, i + 4)
                        + " precision reduced to maximum allowed, " + FractionalSeconds.MAX_PRECISION);
            }
        }
        return out;
    }

    /** PostgreSQL's name of the type in the message, or null for a word that is no time type. */
    private static String typeName(String word) {
        return switch (word) {
            case "time", "timetz" -> "TIME";
            case "timestamp", "timestamptz" -> "TIMESTAMP";
            case "interval" -> "INTERVAL";
            default -> null;
        };
    }

    /** {@code " WITH TIME ZONE"} for a zoned type ({@code timestamptz(p)}, {@code time(p) with time zone}), else empty. */
    private static String zoned(String word, List<Token> tokens, int after) {
        boolean withZone = word.endsWith("tz")
                || after + 2 < tokens.size()
                        && tokens.get(after).isWord("with")
                        && tokens.get(after + 1).isWord("time")
                        && tokens.get(after + 2).isWord("zone");
        return withZone && !word.equals("interval") ? " WITH TIME ZONE" : "";
    }
}
