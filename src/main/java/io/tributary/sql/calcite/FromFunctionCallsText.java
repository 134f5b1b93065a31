package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.Lexer;
import io.tributary.sql.Token;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Reads PostgreSQL's function calls in FROM the way Calcite's grammar takes them. {@code LATERAL
 * f(x)} becomes {@code LATERAL TABLE(f(x))} (Calcite's grammar wants {@code TABLE} after {@code
 * LATERAL} and fails with 42601 without it). And it puts parentheses around each argument of a
 * function called in FROM that starts with a function call: {@code FROM generate_series(array_lower(a, 1), array_upper(a, 1)) i} becomes {@code FROM
 * generate_series((array_lower(a, 1)), (array_upper(a, 1))) i}. Calcite's grammar tries such an
 * argument as a table parameter first and fails with 42601 on its parenthesis, while PostgreSQL
 * (and Grafana's table and column queries, which call it so) takes any expression there; a
 * parenthesized expression means the same. So is an argument that applies an operator
 * ({@code jsonb_array_elements(d.body -> 'tags')}). Calls whose arguments are Calcite's own table syntax
 * ({@code TABLE(...)}, {@code TUMBLE}, {@code HOP}, {@code SESSION}, {@code UNNEST}) are left
 * alone, and so is text the lexer cannot read (Calcite reports its error). A call of {@code unnest}
 * outside FROM (PostgreSQL's set-returning call in a select list, which Calcite's grammar refuses)
 * becomes {@code pg_unnest}, which {@link SelectListSetFunctions} moves into FROM. Called by {@link
 * PgSyntaxText}; stateless.
 */
final class FromFunctionCallsText {
    /** Words that start a FROM item after them. */
    private static final Set<String> ITEM_STARTS = Set.of("from", "join", "lateral");
    /** Words that end a FROM clause at their depth. */
    static final Set<String> CLAUSE_ENDS = Set.of(
            "where",
            "group",
            "having",
            "order",
            "limit",
            "offset",
            "fetch",
            "window",
            "union",
            "intersect",
            "except",
            "returning",
            "select",
            "values",
            "set");
    /** Words after which a comma does not start a FROM item until the condition ends: a join's condition. */
    private static final Set<String> CONDITIONS = Set.of("on", "using");
    /** Besides {@link #CLAUSE_ENDS}, words that may follow a FROM item written without an alias. */
    static final Set<String> JOINS =
            Set.of("join", "inner", "left", "right", "full", "cross", "natural", "on", "using", "for");
    /** Functions in FROM whose arguments are table syntax, not expressions. */
    private static final Set<String> TABLE_SYNTAX = Set.of("table", "tumble", "hop", "session", "unnest");

    private FromFunctionCallsText() {}

    static String rewrite(String sql) {
        if (sql.indexOf('(') < 0) {
            return sql;
        }
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (TributaryException unreadable) {
            return sql;
        }
        List<Mark> marks = new ArrayList<>();
        // per parenthesis depth: whether its tokens are in a FROM clause
        Deque<Boolean> inFrom = new ArrayDeque<>();
        inFrom.push(false);
        boolean itemStart = false;
        boolean lateral = false;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() == Token.Kind.WORD && ITEM_STARTS.contains(t.text())) {
                if (t.text().equals("from")) {
                    inFrom.pop();
                    inFrom.push(true);
                }
                itemStart = inFrom.peek();
                // LATERAL counts in a FROM clause only; elsewhere the word means nothing to this pass
                lateral = itemStart && t.text().equals("lateral");
                continue;
            }
            if (itemStart && t.isWord("unnest") && callOpening(tokens, i) == i + 1) {
                labelUnnest(tokens, i + 1, marks);
            }
            if (itemStart && t.isIdentifier() && !TABLE_SYNTAX.contains(t.text())) {
                int open = callOpening(tokens, i);
                if (open >= 0) {
                    int close = wrapArguments(tokens, open, marks);
                    if (lateral && close >= 0) {
                        marks.add(new Mark(t.position(), "TABLE("));
                        marks.add(new Mark(tokens.get(close).position() + 1, ")"));
                    }
                }
            }
            if (!inFrom.peek() && t.isWord("unnest") && callOpening(tokens, i) == i + 1) {
                // not a FROM item: PostgreSQL's set-returning call, which Calcite's grammar takes in FROM only
                marks.add(new Mark(t.position(), SelectListSetFunctions.UNNEST_PREFIX));
            }
            itemStart = false;
            lateral = false;
            if (t.isSymbol("(")) {
                inFrom.push(false);
            } else if (t.isSymbol(")")) {
                if (inFrom.size() > 1) {
                    inFrom.pop();
                }
            } else if (t.isSymbol(",")) {
                itemStart = inFrom.peek();
            } else if (t.kind() == Token.Kind.WORD && CLAUSE_ENDS.contains(t.text())) {
                inFrom.pop();
                inFrom.push(false);
            } else if (t.kind() == Token.Kind.WORD && CONDITIONS.contains(t.text())) {
                itemStart = false;
            }
        }
        if (marks.isEmpty()) {
            return sql;
        }
        return insert(sql, marks);
    }

    /** Text to insert before the character at {@code position} of the statement. */
    private record Mark(int position, String text) {}

    /** The index of the {@code (} of a call whose (possibly qualified) name starts at {@code i}, or -1. */
    private static int callOpening(List<Token> tokens, int i) {
        int j = i + 1;
        while (j + 1 < tokens.size()
                && tokens.get(j).isSymbol(".")
                && tokens.get(j + 1).isIdentifier()) {
            j += 2;
        }
        return j < tokens.size() && tokens.get(j).isSymbol("(") ? j : -1;
    }

    /**
     * Records parentheses around each argument of the call opened at {@code open} that starts with
     * a name and {@code (}; arguments that are other expressions are left as written. Returns the
     * index of the call's closing parenthesis, or -1 when the text ends first.
     */
    private static int wrapArguments(List<Token> tokens, int open, List<Mark> marks) {
        int depth = 0;
        int argStart = open + 1;
        for (int k = open + 1; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.END) {
                return -1;
            }
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if ((t.isSymbol(")") || t.isSymbol("]")) && depth > 0) {
                depth--;
            } else if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
                if (startsWithCall(tokens, argStart, k) || isOperatorExpression(tokens, argStart, k)) {
                    marks.add(new Mark(tokens.get(argStart).position(), "("));
                    marks.add(new Mark(t.position(), ")"));
                }
                if (t.isSymbol(")")) {
                    return k;
                }
                argStart = k + 1;
            }
        }
        return -1;
    }

    /**
     * PostgreSQL names an {@code unnest} of one array in FROM without an alias, and its column,
     * {@code unnest} (the column of {@code WITH ORDINALITY} {@code ordinality}), where Calcite would
     * label them {@code EXPR$0} and {@code ORDINALITY}: records that alias after such a call opened
     * at {@code open}. A call with an alias is left as written; one of several arrays is 0A000
     * (Calcite would answer their cross product, where PostgreSQL pairs the arrays' elements).
     */
    private static void labelUnnest(List<Token> tokens, int open, List<Mark> marks) {
        int depth = 0;
        int close = -1;
        for (int k = open + 1; k < tokens.size() && close < 0; k++) {
            Token t = tokens.get(k);
            if (t.kind() == Token.Kind.END) {
                return;
            }
            if (depth == 0 && t.isSymbol(",")) {
                // Calcite's UNNEST of several arrays gives their cross product, PostgreSQL's their rows side by side
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED, "unnest of more than one array in FROM is not supported");
            }
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if (t.isSymbol("]") || (t.isSymbol(")") && depth > 0)) {
                depth--;
            } else if (t.isSymbol(")")) {
                close = k;
            }
        }
        if (close < 0) {
            return;
        }
        int end = tokens.get(close).position() + 1;
        int next = close + 1;
        boolean ordinality =
                tokens.get(next).isWord("with") && tokens.get(next + 1).isWord("ordinality");
        if (ordinality) {
            next += 2;
            end = tokens.get(next - 1).position() + "ordinality".length();
        }
        Token after = tokens.get(next);
        boolean unaliased = after.kind() == Token.Kind.END
                || after.isSymbol(";")
                || after.isSymbol(")")
                || after.isSymbol(",")
                || (after.kind() == Token.Kind.WORD
                        && (CLAUSE_ENDS.contains(after.text()) || JOINS.contains(after.text())));
        if (unaliased) {
            marks.add(new Mark(
                    end, ordinality ? " AS \"unnest\"(\"unnest\", \"ordinality\")" : " AS \"unnest\"(\"unnest\")"));
            return;
        }
        if (ordinality) {
            nameColumns(tokens, after.isWord("as") ? next + 1 : next, marks);
        }
    }

    /**
     * After {@code unnest(a) WITH ORDINALITY [AS] u} without column names, names them {@code u} and
     * {@code ordinality}, as PostgreSQL does (Calcite would call the second {@code ORDINALITY}).
     * {@code alias} is the index of the alias's token; a quoted alias is left as written.
     */
    private static void nameColumns(List<Token> tokens, int alias, List<Mark> marks) {
        Token name = tokens.get(alias);
        if (name.kind() == Token.Kind.WORD && !tokens.get(alias + 1).isSymbol("(")) {
            marks.add(new Mark(name.position() + name.text().length(), "(\"" + name.text() + "\", \"ordinality\")"));
        }
    }

    /**
     * Whether the argument in tokens {@code [from, end)} applies an operator outside parentheses
     * ({@code d.body -> 'tags'}, {@code n + 1}), which Calcite's grammar refuses there as well; a
     * name, a constant, a qualified column and a named argument ({@code x => 1}) are not.
     */
    private static boolean isOperatorExpression(List<Token> tokens, int from, int end) {
        if (end - from < 2 || (from + 1 < end && tokens.get(from + 1).isSymbol("="))) {
            return false;
        }
        int depth = 0;
        for (int k = from; k < end; k++) {
            Token t = tokens.get(k);
            if (t.isSymbol("(") || t.isSymbol("[")) {
                depth++;
            } else if (t.isSymbol(")") || t.isSymbol("]")) {
                depth--;
            } else if (depth == 0 && k > from && t.kind() == Token.Kind.SYMBOL && !t.isSymbol(".")) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWithCall(List<Token> tokens, int from, int end) {
        return from + 1 < end && tokens.get(from).isIdentifier() && callOpening(tokens, from) > 0;
    }

    private static String insert(String sql, List<Mark> marks) {
        // stable: at one position, marks keep the order they were found in (an argument's ")" before the call's)
        marks.sort(java.util.Comparator.comparingInt(Mark::position));
        StringBuilder out = new StringBuilder(sql.length() + 8 * marks.size());
        int at = 0;
        for (Mark m : marks) {
            out.append(sql, at, m.position()).append(m.text());
            at = m.position();
        }
        return out.append(sql, at, sql.length()).toString();
    }
}
