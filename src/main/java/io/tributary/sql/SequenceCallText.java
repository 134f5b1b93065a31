package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code nextval}, {@code currval} and {@code setval} calls inside a larger statement that can
 * be evaluated exactly before it runs: a {@code SELECT} without {@code FROM} (one row), or an
 * {@code INSERT INTO t [(cols)] VALUES ...}, whose expressions PostgreSQL evaluates once each, in
 * the order written (row by row, left to right). The session calls each in that order and the
 * statement is planned with the values in their place ({@link #withValues}). A statement where a
 * call might be evaluated another number of times or not at all (CASE, COALESCE, AND/OR, WHERE,
 * FROM, a sub-query, ON CONFLICT, a call after RETURNING) is not taken: its calls stay 0A000 when
 * they reach a row. Built by {@link #find} on the session's thread at prepare time; immutable.
 */
public final class SequenceCallText {
    private static final Set<String> FUNCTIONS = Set.of("nextval", "currval", "setval");

    /** Words after which a call may be evaluated other than exactly once, in the order written. */
    private static final Set<String> CONDITIONAL = Set.of(
            "from",
            "where",
            "group",
            "having",
            "order",
            "limit",
            "offset",
            "fetch",
            "union",
            "intersect",
            "except",
            "case",
            "coalesce",
            "nullif",
            "greatest",
            "least",
            "and",
            "or",
            "select",
            "with",
            "on",
            "window",
            "into",
            "filter",
            "over");

    private final String sql;
    private final List<Site> sites;

    /**
     * One call with constant arguments: {@code sequence} as written in the string (possibly
     * schema-qualified, as a regclass names it), {@code value} null unless setval.
     */
    public record Call(String function, String sequence, Long value, boolean isCalled) {}

    /** One call: its text span, the call, and whether it is a whole select-list item (labelled by its name). */
    private record Site(int start, int end, Call call, boolean wholeItem) {}

    private SequenceCallText(String sql, List<Site> sites) {
        this.sql = sql;
        this.sites = sites;
    }

    /**
     * The calls of {@code sql} in evaluation order, or null when it has none or is not a statement
     * whose calls can be evaluated ahead (then it is planned as written).
     */
    public static SequenceCallText find(String sql) {
        if (!mentionsSequenceFunction(sql)) {
            return null;
        }
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (TributaryException e) {
            return null;
        }
        if (tokens.isEmpty() || !(tokens.get(0).isWord("select") || insertValues(tokens))) {
            return null;
        }
        boolean select = tokens.get(0).isWord("select");
        List<Site> sites = new ArrayList<>();
        boolean returning = false;
        int depth = 0;
        for (int i = select ? 1 : 2; i < tokens.size(); i++) {
            Token t = at(tokens, i);
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (t.kind() != Token.Kind.WORD) {
                continue;
            }
            returning |= t.isWord("returning");
            if (CONDITIONAL.contains(t.text())) {
                return null;
            }
            if (!FUNCTIONS.contains(t.text()) || !at(tokens, i + 1).isSymbol("(")) {
                continue;
            }
            Site site = returning ? null : site(tokens, i, select && depth == 0);
            if (site == null) {
                return null;
            }
            sites.add(site);
        }
        return sites.isEmpty() ? null : new SequenceCallText(sql, sites);
    }

    /** The calls, in the order they must be evaluated. */
    public List<Call> calls() {
        return sites.stream().map(Site::call).toList();
    }

    /** The statement with each call replaced by its value ({@code values} in {@link #calls()} order). */
    public String withValues(List<Long> values) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * sites.size());
        int from = 0;
        for (int i = 0; i < sites.size(); i++) {
            Site s = sites.get(i);
            out.append(sql, from, s.start())
                    .append("CAST(")
                    .append(values.get(i))
                    .append(" AS BIGINT)");
            if (s.wholeItem()) {
                out.append(" AS \"").append(s.call().function()).append('"');
            }
            from = s.end();
        }
        return out.append(sql, from, sql.length()).toString();
    }

    /** Whether nextval, currval or setval occurs in {@code sql} (any case); scans without allocating. */
    private static boolean mentionsSequenceFunction(String sql) {
        for (int i = 3; i + 3 <= sql.length(); i++) {
            char c = sql.charAt(i);
            if ((c == 'v' || c == 'V') && sql.regionMatches(true, i, "val", 0, 3)) {
                if (sql.regionMatches(true, i - 3, "set", 0, 3)
                        || i >= 4
                                && (sql.regionMatches(true, i - 4, "next", 0, 4)
                                        || sql.regionMatches(true, i - 4, "curr", 0, 4))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The token at {@code i}, or the closing END token past the end. */
    private static Token at(List<Token> tokens, int i) {
        return tokens.get(Math.min(i, tokens.size() - 1));
    }

    /** {@code INSERT INTO name [. name] [(cols)] VALUES}. */
    private static boolean insertValues(List<Token> tokens) {
        if (tokens.size() < 4
                || !tokens.get(0).isWord("insert")
                || !tokens.get(1).isWord("into")) {
            return false;
        }
        int i = 2;
        while (i < tokens.size()
                && (at(tokens, i).isIdentifier() || at(tokens, i).isSymbol("."))) {
            i++;
            if (i < tokens.size()
                    && at(tokens, i - 1).isIdentifier()
                    && at(tokens, i).isWord("values")) {
                return true;
            }
        }
        if (i < tokens.size() && at(tokens, i).isSymbol("(")) {
            while (i < tokens.size() && !at(tokens, i).isSymbol(")")) {
                i++;
            }
            return i + 1 < tokens.size() && at(tokens, i + 1).isWord("values");
        }
        return false;
    }

    /**
     * The call at {@code tokens[call]} ({@code [pg_catalog.]name (}): {@code 'sequence' [::regclass]
     * [, [-]n [, true|false]] )}; null when its arguments are not constants of that form. {@code
     * topLevel}: the call is in a SELECT's list outside any parenthesis.
     */
    private static Site site(List<Token> tokens, int call, boolean topLevel) {
        int start = call;
        if (call >= 2
                && at(tokens, call - 1).isSymbol(".")
                && at(tokens, call - 2).isWord("pg_catalog")) {
            start = call - 2;
        }
        int i = call + 2;
        Token name = at(tokens, i++);
        if (name.kind() != Token.Kind.STRING) {
            return null;
        }
        if (at(tokens, i).isSymbol(":")) {
            if (!at(tokens, i + 1).isSymbol(":") || !at(tokens, i + 2).isWord("regclass")) {
                return null;
            }
            i += 3;
        }
        String function = tokens.get(call).text();
        Long value = null;
        boolean isCalled = true;
        if (at(tokens, i).isSymbol(",")) {
            i++;
            boolean negative = at(tokens, i).isSymbol("-");
            i += negative ? 1 : 0;
            Token number = at(tokens, i++);
            if (number.kind() != Token.Kind.NUMBER || !number.text().chars().allMatch(Character::isDigit)) {
                return null;
            }
            try {
                value = Long.parseLong((negative ? "-" : "") + number.text());
            } catch (NumberFormatException e) {
                return null;
            }
            if (at(tokens, i).isSymbol(",")) {
                Token called = at(tokens, i + 1);
                if (!(called.isWord("true") || called.isWord("false"))) {
                    return null;
                }
                isCalled = called.isWord("true");
                i += 2;
            }
        }
        Token close = at(tokens, i);
        if (!close.isSymbol(")") || function.equals("setval") != (value != null)) {
            return null;
        }
        Token before = tokens.get(start - 1);
        Token after = at(tokens, i + 1);
        boolean wholeItem = topLevel
                && (before.isWord("select") || before.isSymbol(","))
                && (after.isSymbol(",") || after.isSymbol(";") || after.kind() == Token.Kind.END);
        return new Site(
                tokens.get(start).position(),
                close.position() + 1,
                new Call(function, name.text(), value, isCalled),
                wholeItem);
    }
}
