package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.Token;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PostgreSQL's syntax error for a BETWEEN whose lower bound does not end at an AND ({@code x
 * BETWEEN AND 3}, {@code x BETWEEN 1 + AND 3}, {@code x BETWEEN 1 3}): Calcite reports {@code
 * BETWEEN operator has no terminating AND} at a position of its own, which read as {@code at or near
 * " "}; PostgreSQL names the first token its {@code b_expr} cannot go on with ({@code "AND"}, {@code
 * "3"}, {@code end of input}) at that token. The bound is read as a run of operands and operators,
 * with parenthesized groups, calls, subscripts, CASE and {@code ::} casts as one operand. Called by
 * {@link SqlErrors} on the session's thread; stateless.
 */
final class BetweenBoundErrors {
    /**
     * Words that are no operand and start no operand, so a bound cannot hold them outside
     * parentheses: {@link ReservedWordNames#EXPRESSION_ENDS} and four words that list leaves out
     * (SIMILAR TO's, BETWEEN's, WINDOW's and USING's).
     */
    private static final Set<String> NOT_OPERANDS = Stream.concat(
                    ReservedWordNames.EXPRESSION_ENDS.stream(), Stream.of("window", "using"))
            .collect(Collectors.toUnmodifiableSet());
    /** Symbols that may start an operand: PostgreSQL's prefix operators. */
    private static final Set<String> PREFIX = Set.of("-", "+", "~", "@");
    /** Symbols that end an expression rather than join two operands. */
    private static final Set<String> CLOSING = Set.of(")", "]", ",", ";");

    private BetweenBoundErrors() {}

    /**
     * The 42601 of the first BETWEEN in {@code sql} (the client's statement) whose lower bound has
     * no AND, at the token PostgreSQL stops at; null when every BETWEEN's bound reads to its AND
     * (the caller keeps Calcite's report).
     */
    static TributaryException of(String sql) {
        List<Token> tokens = DistinctOnText.tokensOrNull(sql);
        if (tokens == null) {
            return null;
        }
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.get(i).isWord("between")) {
                continue;
            }
            Token wrong = wrongToken(tokens, BetweenBoundText.lowerBoundStart(tokens, i));
            if (wrong != null) {
                return wrong.kind() == Token.Kind.END
                        ? new TributaryException(
                                SqlState.SYNTAX_ERROR,
                                "syntax error at end of input",
                                sql.length() + 1,
                                null,
                                null,
                                null)
                        : new TributaryException(
                                SqlState.SYNTAX_ERROR,
                                "syntax error at or near \"" + asWritten(sql, wrong) + "\"",
                                wrong.position() + 1,
                                null,
                                null,
                                null);
            }
        }
        return null;
    }

    /** The first token of the bound starting at {@code start} that no bound goes on with; null if it reaches its AND. */
    private static Token wrongToken(List<Token> tokens, int start) {
        boolean operand = true; // whether an operand is expected next
        int j = start;
        while (j < tokens.size()) {
            Token t = tokens.get(j);
            if (t.kind() == Token.Kind.END) {
                return t;
            }
            if (operand) {
                if (t.isSymbol("(")) {
                    j = after(tokens, j, "(", ")");
                    operand = false;
                } else if (t.isWord("case")) {
                    j = afterCase(tokens, j);
                    operand = false;
                } else if (t.kind() == Token.Kind.SYMBOL) {
                    if (!PREFIX.contains(t.text())) {
                        return t;
                    }
                    j++;
                } else if (t.kind() == Token.Kind.WORD && NOT_OPERANDS.contains(t.text())) {
                    return t;
                } else {
                    j++;
                    if (t.kind() == Token.Kind.WORD
                            && j < tokens.size()
                            && tokens.get(j).isSymbol("(")) {
                        j = after(tokens, j, "(", ")");
                    }
                    operand = false;
                }
            } else if (t.isWord("and")) {
                return null;
            } else if (t.isSymbol("[")) {
                j = after(tokens, j, "[", "]");
            } else if (t.isSymbol(":")
                    && j + 1 < tokens.size()
                    && tokens.get(j + 1).isSymbol(":")) {
                j = afterTypeName(tokens, j + 2);
            } else if (t.kind() == Token.Kind.SYMBOL && !CLOSING.contains(t.text()) && !t.isSymbol("(")) {
                operand = true;
                j++;
            } else {
                return t;
            }
        }
        return null;
    }

    /** The index after the group opened at {@code open}, or past the end when it is not closed. */
    private static int after(List<Token> tokens, int open, String opening, String closing) {
        int depth = 0;
        for (int j = open; j < tokens.size(); j++) {
            if (tokens.get(j).isSymbol(opening)) {
                depth++;
            } else if (tokens.get(j).isSymbol(closing) && --depth == 0) {
                return j + 1;
            }
        }
        return tokens.size() - 1;
    }

    private static int afterCase(List<Token> tokens, int at) {
        int depth = 0;
        for (int j = at; j < tokens.size(); j++) {
            if (tokens.get(j).isWord("case")) {
                depth++;
            } else if (tokens.get(j).isWord("end") && --depth == 0) {
                return j + 1;
            }
        }
        return tokens.size() - 1;
    }

    /** The index after the type name of a {@code ::} cast starting at {@code at} ({@code double precision}, {@code varchar(5)[]}). */
    private static int afterTypeName(List<Token> tokens, int at) {
        int j = at;
        if (j < tokens.size() && tokens.get(j).isIdentifier()) {
            j++;
        }
        while (j < tokens.size()
                && (tokens.get(j).isWord("precision") || tokens.get(j).isWord("varying"))) {
            j++;
        }
        if (j < tokens.size() && tokens.get(j).isSymbol("(")) {
            j = after(tokens, j, "(", ")");
        }
        while (j < tokens.size() && tokens.get(j).isSymbol("[")) {
            j = after(tokens, j, "[", "]");
        }
        return j;
    }

    /** A word's, number's or symbol's text as the client wrote it (a word's case kept); another token's text. */
    private static String asWritten(String sql, Token t) {
        boolean plain = t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.NUMBER || t.kind() == Token.Kind.SYMBOL;
        return plain ? sql.substring(t.position(), t.position() + t.text().length()) : t.text();
    }
}
