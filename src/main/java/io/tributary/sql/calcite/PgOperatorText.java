package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes PostgreSQL's operators that Calcite's grammar lacks as calls of {@link
 * PgOperatorFunctions}: the integer bit operators {@code |}, {@code #}, {@code >>} and prefix
 * {@code ~}, and the prefix {@code @}, {@code |/}, {@code ||/}. These share PostgreSQL's precedence
 * of "any other operator": below {@code + - * / % ^}, {@code AT TIME ZONE}, {@code COLLATE} and
 * {@code ::}, above comparisons, {@code LIKE}, {@code IS}, {@code NOT}, {@code AND}, {@code OR};
 * left-associative. So an operand extends over tokens of tighter operators and stops at a
 * comma, an unmatched bracket, a clause keyword or any other operator. Where a statement holds one
 * of them, Babel's {@code &} and {@code <<} are written as calls too, as they share that level in
 * PostgreSQL. Operators are rewritten leftmost first, so {@code a | b | c} nests from the left.
 * Operators as PostgreSQL lexes them: the longest run of operator characters. Quoted text and
 * comments are left alone. Called by {@link PgSyntaxText#rewrite} before its other rewrites, on
 * the session's thread; stateless.
 */
final class PgOperatorText {
    /** Binary operators written as calls, and their functions. */
    private static final Map<String, String> BINARY =
            Map.of("&", "pg_op_bitand", "|", "pg_op_bitor", "#", "pg_op_bitxor", "<<", "pg_op_shl", ">>", "pg_op_shr");
    /** Prefix operators written as calls ({@code ~} only where no operand comes before it). */
    private static final Map<String, String> PREFIX =
            Map.of("~", "pg_op_bitnot", "@", "pg_op_abs", "|/", "pg_op_sqrt", "||/", "pg_op_cbrt");
    /** Operators that bind tighter than these, so may sit inside an operand. */
    private static final Set<String> TIGHTER = Set.of("+", "-", "*", "/", "%", "^", "::", ".");
    /** Operators only this class handles; a statement with none of them is left as it is. */
    private static final Set<String> TRIGGERS = Set.of("|", "#", ">>", "@", "|/", "||/");
    /** Words that continue an operand after a complete one. */
    private static final Set<String> CONTINUATIONS =
            Set.of("at", "time", "zone", "collate", "precision", "varying", "with", "without");

    private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`?";
    /** Words that end an operand ({@code left} and {@code right} are functions too, and never follow an operand). */
    private static final Set<String> KEYWORDS = Set.of(
            "select",
            "from",
            "where",
            "and",
            "or",
            "not",
            "on",
            "in",
            "as",
            "by",
            "when",
            "then",
            "else",
            "having",
            "values",
            "returning",
            "set",
            "union",
            "except",
            "intersect",
            "distinct",
            "all",
            "exists",
            "like",
            "ilike",
            "similar",
            "escape",
            "between",
            "is",
            "isnull",
            "notnull",
            "join",
            "inner",
            "full",
            "cross",
            "natural",
            "using",
            "into",
            "limit",
            "offset",
            "fetch",
            "order",
            "group",
            "window",
            "asc",
            "desc",
            "nulls",
            "any",
            "some",
            "for");

    private enum Kind {
        WORD,
        OPERAND,
        OPEN,
        CLOSE,
        COMMA,
        OPERATOR,
        OTHER
    }

    private record Tok(Kind kind, String text, int start, int end) {}

    private PgOperatorText() {}

    /** The statement with those operators written as calls; {@code sql} itself when it has none. */
    static String rewrite(String sql) {
        List<Tok> tokens = tokenize(sql);
        if (tokens == null || tokens.stream().noneMatch(PgOperatorText::triggers)) {
            return sql;
        }
        for (int round = 0; round < 1000; round++) {
            String next = rewriteFirst(sql, tokens);
            if (next == null) {
                return sql;
            }
            sql = next;
            tokens = tokenize(sql);
        }
        return sql;
    }

    private static boolean triggers(Tok t) {
        return t.kind == Kind.OPERATOR && (TRIGGERS.contains(t.text) || t.text.equals("~"));
    }

    /** The text with its leftmost such operator written as a call, or null when none is left. */
    private static String rewriteFirst(String sql, List<Tok> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            Tok t = tokens.get(i);
            if (t.kind != Kind.OPERATOR) {
                continue;
            }
            boolean prefix = i == 0 || !endsOperand(tokens.get(i - 1));
            if (prefix && PREFIX.containsKey(t.text)) {
                int end = operandEnd(tokens, i + 1);
                if (end <= i) {
                    return null; // no operand: Calcite reports the syntax error
                }
                String operand = sql.substring(tokens.get(i + 1).start, tokens.get(end).end);
                // |/ and ||/ take float8 only; generated code would not convert another number
                boolean floatOnly = t.text.endsWith("/");
                return sql.substring(0, t.start) + PREFIX.get(t.text) + "("
                        + (floatOnly ? "CAST(" + operand + " AS DOUBLE PRECISION)" : operand) + ")"
                        + sql.substring(tokens.get(end).end);
            }
            if (!prefix && BINARY.containsKey(t.text)) {
                int start = operandStart(tokens, i - 1);
                int end = operandEnd(tokens, i + 1);
                if (start >= i || end <= i) {
                    return null;
                }
                return sql.substring(0, tokens.get(start).start) + BINARY.get(t.text) + "("
                        + sql.substring(tokens.get(start).start, tokens.get(i - 1).end) + ", "
                        + sql.substring(tokens.get(i + 1).start, tokens.get(end).end) + ")"
                        + sql.substring(tokens.get(end).end);
            }
        }
        return null;
    }

    /** Whether {@code t} can end an operand, so an operator after it is binary. */
    private static boolean endsOperand(Tok t) {
        return t.kind == Kind.OPERAND
                || t.kind == Kind.CLOSE
                || t.kind == Kind.WORD && !KEYWORDS.contains(t.text) && !t.text.equals("case");
    }

    /** The index of the last token of the operand that starts at {@code from}; {@code from - 1} when there is none. */
    private static int operandEnd(List<Tok> tokens, int from) {
        int depth = 0;
        int last = from - 1;
        boolean expectOperand = true;
        for (int i = from; i < tokens.size(); i++) {
            Tok t = tokens.get(i);
            if (depth > 0) {
                if (opens(t)) {
                    depth++;
                } else if (closes(t) && --depth == 0) {
                    last = i;
                }
                continue;
            }
            if (opens(t)) {
                depth++;
                expectOperand = false;
            } else if (closes(t) || t.kind == Kind.COMMA || t.kind == Kind.OTHER) {
                break;
            } else if (t.kind == Kind.OPERATOR) {
                // a sign, or a prefix operator of this level at the operand's start (|/ @ x)
                boolean sign = t.text.equals("-") || t.text.equals("+") || expectOperand && PREFIX.containsKey(t.text);
                if (!sign && (expectOperand || !TIGHTER.contains(t.text))) {
                    break;
                }
                expectOperand = true;
            } else if (t.kind == Kind.WORD && KEYWORDS.contains(t.text)) {
                break;
            } else if (expectOperand) {
                last = i;
                expectOperand = false;
            } else if (t.kind == Kind.WORD && CONTINUATIONS.contains(t.text)) {
                // AT TIME ZONE z, COLLATE "C", ::double precision, ::timestamp with time zone
                last = i;
                expectOperand = t.text.equals("at") || t.text.equals("zone") || t.text.equals("collate");
            } else if (t.text.equals("'") && tokens.get(i - 1).kind == Kind.WORD) {
                last = i; // a typed constant: DATE '2024-01-31'
            } else {
                break; // an alias without AS
            }
        }
        return depth == 0 ? last : from - 1;
    }

    /** The index of the first token of the operand that ends at {@code from}; {@code from + 1} when there is none. */
    private static int operandStart(List<Tok> tokens, int from) {
        int depth = 0;
        int first = from + 1;
        for (int i = from; i >= 0; i--) {
            Tok t = tokens.get(i);
            if (depth > 0) {
                if (closes(t)) {
                    depth++;
                } else if (opens(t)) {
                    depth--;
                    if (depth == 0) {
                        first = i;
                    }
                }
                continue;
            }
            if (closes(t)) {
                depth++;
            } else if (opens(t) || t.kind == Kind.COMMA || t.kind == Kind.OTHER) {
                break;
            } else if (t.kind == Kind.OPERATOR) {
                if (!TIGHTER.contains(t.text)) {
                    break;
                }
                first = i;
            } else if (t.kind == Kind.WORD && KEYWORDS.contains(t.text)) {
                break;
            } else {
                first = i;
            }
        }
        // a leading sign belongs to the operand; an operator left over at its start does not
        while (first <= from
                && tokens.get(first).kind == Kind.OPERATOR
                && !(tokens.get(first).text.equals("-")
                        || tokens.get(first).text.equals("+"))) {
            first++;
        }
        return depth == 0 ? first : from + 1;
    }

    private static boolean opens(Tok t) {
        return t.kind == Kind.OPEN || t.kind == Kind.WORD && t.text.equals("case");
    }

    private static boolean closes(Tok t) {
        return t.kind == Kind.CLOSE || t.kind == Kind.WORD && t.text.equals("end");
    }

    /** The tokens of {@code sql}, or null when it cannot be read (left to Calcite's parser). */
    private static List<Tok> tokenize(String sql) {
        List<Tok> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == '\''
                    || (c == 'e' || c == 'E' || c == 'x' || c == 'X' || c == 'b' || c == 'B' || c == 'u' || c == 'U')
                            && i + 1 < n
                            && sql.charAt(i + 1) == '\'') {
                boolean escapes = c == 'e' || c == 'E';
                int j = c == '\'' ? i + 1 : i + 2;
                while (true) {
                    if (j >= n) {
                        return null;
                    }
                    char d = sql.charAt(j);
                    if (escapes && d == '\\') {
                        j += 2;
                    } else if (d == '\'') {
                        if (j + 1 < n && sql.charAt(j + 1) == '\'') {
                            j += 2;
                        } else {
                            break;
                        }
                    } else {
                        j++;
                    }
                }
                i = j + 1;
                out.add(new Tok(Kind.OPERAND, "'", start, i));
            } else if (c == '"') {
                int close = sql.indexOf('"', i + 1);
                while (close > 0 && close + 1 < n && sql.charAt(close + 1) == '"') {
                    close = sql.indexOf('"', close + 2);
                }
                if (close < 0) {
                    return null;
                }
                i = close + 1;
                out.add(new Tok(Kind.OPERAND, "\"", start, i));
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Tok(Kind.WORD, sql.substring(start, i).toLowerCase(Locale.ROOT), start, i));
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i))
                                || sql.charAt(i) == '.'
                                || (sql.charAt(i) == '+' || sql.charAt(i) == '-')
                                        && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E'))) {
                    i++;
                }
                out.add(new Tok(Kind.OPERAND, "0", start, i));
            } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                i++;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                out.add(new Tok(Kind.OPERAND, "$", start, i));
            } else if (c == '$') {
                return null; // dollar quoting: left to the parser
            } else if (c == '(' || c == '[') {
                i++;
                out.add(new Tok(Kind.OPEN, String.valueOf(c), start, i));
            } else if (c == ')' || c == ']') {
                i++;
                out.add(new Tok(Kind.CLOSE, String.valueOf(c), start, i));
            } else if (c == ',') {
                i++;
                out.add(new Tok(Kind.COMMA, ",", start, i));
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                i += 2;
                out.add(new Tok(Kind.OPERATOR, "::", start, i));
            } else if (c == '.') {
                i++;
                out.add(new Tok(Kind.OPERATOR, ".", start, i));
            } else if (OPERATOR_CHARS.indexOf(c) >= 0) {
                while (i < n
                        && OPERATOR_CHARS.indexOf(sql.charAt(i)) >= 0
                        && !(sql.charAt(i) == '-' && i + 1 < n && sql.charAt(i + 1) == '-')
                        && !(sql.charAt(i) == '/' && i + 1 < n && sql.charAt(i + 1) == '*')) {
                    i++;
                }
                String op = sql.substring(start, i);
                // as PostgreSQL's lexer: a trailing + or - is its own operator unless the run holds ~!@#%^&|`?
                while (op.length() > 1
                        && (op.endsWith("+") || op.endsWith("-"))
                        && op.chars().noneMatch(ch -> "~!@#%^&|`?".indexOf(ch) >= 0)) {
                    op = op.substring(0, op.length() - 1);
                    i--;
                }
                out.add(new Tok(Kind.OPERATOR, op, start, i));
            } else {
                i++;
                out.add(new Tok(Kind.OTHER, String.valueOf(c), start, i));
            }
        }
        return out;
    }
}
