package io.tributary.sql.calcite;

import io.tributary.sql.calcite.PgToken.Kind;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes PostgreSQL's operators that Calcite's grammar lacks as calls of {@link
 * PgOperatorFunctions}: the integer bit operators {@code |}, {@code #}, {@code >>} and prefix
 * {@code ~}, the prefix {@code @}, {@code |/}, {@code ||/}, and json's {@code ->}, {@code ->>},
 * {@code #>}, {@code #>>}, {@code @>}, {@code <@} ({@link PgJsonFunctions}), {@code ?}, {@code ?|},
 * {@code ?&} and {@code #-} ({@link PgJsonbOperators}), arrays' {@code &&} ({@link PgArrayContainment}) and
 * text's {@code ^@} ({@code starts_with}). These share PostgreSQL's precedence
 * of "any other operator": below {@code + - * / % ^}, {@code AT TIME ZONE}, {@code COLLATE} and
 * {@code ::}, above comparisons, {@code LIKE}, {@code IS}, {@code NOT}, {@code AND}, {@code OR};
 * left-associative. So an operand extends over tokens of tighter operators and stops at a
 * comma, an unmatched bracket, a clause keyword or any other operator, except that a left operand
 * takes in Calcite's {@code ||} before it, of the same level. Where a statement holds one
 * of them, Babel's {@code &} and {@code <<} are written as calls too, as they share that level in
 * PostgreSQL. Operators are rewritten leftmost first, so {@code a | b | c} nests from the left.
 * Operators as PostgreSQL lexes them: the longest run of operator characters. Quoted text and
 * comments are left alone. Called by {@link PgSyntaxText#rewrite} before its other rewrites, on
 * the session's thread; stateless.
 */
final class PgOperatorText {
    /** Binary operators written as calls, and their functions. */
    private static final Map<String, String> BINARY = Map.ofEntries(
            Map.entry("&", "pg_op_bitand"),
            Map.entry("|", "pg_op_bitor"),
            Map.entry("#", "pg_op_bitxor"),
            Map.entry("<<", "pg_op_shl"),
            Map.entry(">>", "pg_op_shr"),
            Map.entry("->", "pg_op_jsonb_get"),
            Map.entry("->>", "pg_op_jsonb_get_text"),
            Map.entry("#>", "pg_op_jsonb_path"),
            Map.entry("#>>", "pg_op_jsonb_path_text"),
            Map.entry("@>", "pg_op_jsonb_contains"),
            Map.entry("<@", "pg_op_jsonb_contained"),
            Map.entry("?", "pg_op_jsonb_exists"),
            Map.entry("?|", "pg_op_jsonb_exists_any"),
            Map.entry("?&", "pg_op_jsonb_exists_all"),
            Map.entry("#-", "pg_op_jsonb_delete_path"),
            Map.entry("&&", "pg_op_array_overlap"),
            Map.entry("^@", "pg_op_starts_with"));
    /** Prefix operators written as calls ({@code ~} only where no operand comes before it). */
    private static final Map<String, String> PREFIX =
            Map.of("~", "pg_op_bitnot", "@", "pg_op_abs", "|/", "pg_op_sqrt", "||/", "pg_op_cbrt");
    /** Operators that bind tighter than these, so may sit inside an operand. */
    private static final Set<String> TIGHTER = Set.of("+", "-", "*", "/", "%", "^", "::", ".");
    /**
     * Calcite's own operators of the same PostgreSQL level, left as they are: left-associative, so
     * one before such an operator ends inside its left operand ({@code 'a' || 'b' ^@ 'a'} is
     * {@code ('a' || 'b') ^@ 'a'}), while one after it ends its right operand.
     */
    private static final Set<String> SAME_LEVEL = Set.of("||");
    /** Operators only this class handles; a statement with none of them is left as it is. */
    private static final Set<String> TRIGGERS = Set.of(
            "|", "#", ">>", "@", "|/", "||/", "->", "->>", "#>", "#>>", "@>", "<@", "?", "?|", "?&", "#-", "&&", "^@");
    /** Words that continue an operand after a complete one. */
    private static final Set<String> CONTINUATIONS =
            Set.of("at", "time", "zone", "collate", "precision", "varying", "with", "without");

    /**
     * Words that end an operand: {@link PgTokenizer#CLAUSE_WORDS} and the other words that never
     * follow an operand's end here ({@code left} and {@code right} are functions too, and never
     * follow an operand). {@code case} and {@code end} open and close brackets instead; {@code over},
     * {@code with} and {@code zone} continue an operand.
     */
    private static final Set<String> KEYWORDS = PgTokenizer.clauseWordsAnd(
            "similar", "escape", "isnull", "notnull", "inner", "full", "cross", "natural", "fetch", "window", "asc",
            "desc", "nulls", "for");

    private PgOperatorText() {}

    /** The statement with those operators written as calls; {@code sql} itself when it has none. */
    static String rewrite(String sql) {
        List<PgToken> tokens = tokenize(sql);
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

    private static boolean triggers(PgToken t) {
        return operator(t) && (TRIGGERS.contains(t.lower()) || t.lower().equals("~"));
    }

    /** The text with its leftmost such operator written as a call, or null when none is left. */
    private static String rewriteFirst(String sql, List<PgToken> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            PgToken t = tokens.get(i);
            if (!operator(t)) {
                continue;
            }
            boolean prefix = i == 0 || !endsOperand(tokens.get(i - 1));
            if (prefix && PREFIX.containsKey(t.lower())) {
                int end = operandEnd(tokens, i + 1);
                if (end <= i) {
                    return null; // no operand: Calcite reports the syntax error
                }
                String operand =
                        sql.substring(tokens.get(i + 1).start(), tokens.get(end).end());
                // |/ and ||/ take float8 only; generated code would not convert another number
                boolean floatOnly = t.lower().endsWith("/");
                return sql.substring(0, t.start()) + PREFIX.get(t.lower()) + "("
                        + (floatOnly ? "CAST(" + operand + " AS DOUBLE PRECISION)" : operand) + ")"
                        + sql.substring(tokens.get(end).end());
            }
            if (!prefix && BINARY.containsKey(t.lower())) {
                int start = operandStart(tokens, i - 1);
                int end = operandEnd(tokens, i + 1);
                if (start >= i || end <= i) {
                    return null;
                }
                return sql.substring(0, tokens.get(start).start()) + BINARY.get(t.lower()) + "("
                        + sql.substring(
                                tokens.get(start).start(), tokens.get(i - 1).end()) + ", "
                        + sql.substring(
                                tokens.get(i + 1).start(), tokens.get(end).end()) + ")"
                        + sql.substring(tokens.get(end).end());
            }
        }
        return null;
    }

    /** Whether {@code t} can end an operand, so an operator after it is binary. */
    private static boolean endsOperand(PgToken t) {
        return operand(t) || closes(t) || t.kind() == Kind.WORD && !KEYWORDS.contains(t.lower()) && !t.isWord("case");
    }

    /** The index of the last token of the operand that starts at {@code from}; {@code from - 1} when there is none. */
    private static int operandEnd(List<PgToken> tokens, int from) {
        int depth = 0;
        int last = from - 1;
        boolean expectOperand = true;
        for (int i = from; i < tokens.size(); i++) {
            PgToken t = tokens.get(i);
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
            } else if (closes(t) || t.kind() == Kind.COMMA || t.kind() == Kind.OTHER) {
                break;
            } else if (operator(t)) {
                // a sign, or a prefix operator of this level at the operand's start (|/ @ x)
                boolean sign = t.lower().equals("-")
                        || t.lower().equals("+")
                        || expectOperand && PREFIX.containsKey(t.lower());
                if (!sign && (expectOperand || !TIGHTER.contains(t.lower()))) {
                    break;
                }
                expectOperand = true;
            } else if (t.kind() == Kind.WORD && KEYWORDS.contains(t.lower())) {
                break;
            } else if (expectOperand) {
                last = i;
                expectOperand = false;
            } else if (t.kind() == Kind.WORD && CONTINUATIONS.contains(t.lower())) {
                // AT TIME ZONE z, COLLATE "C", ::double precision, ::timestamp with time zone
                last = i;
                expectOperand = t.lower().equals("at")
                        || t.lower().equals("zone")
                        || t.lower().equals("collate");
            } else if (t.kind() == Kind.STRING && tokens.get(i - 1).kind() == Kind.WORD) {
                last = i; // a typed constant: DATE '2024-01-31'
            } else {
                break; // an alias without AS
            }
        }
        return depth == 0 ? last : from - 1;
    }

    /** The index of the first token of the operand that ends at {@code from}; {@code from + 1} when there is none. */
    private static int operandStart(List<PgToken> tokens, int from) {
        int depth = 0;
        int first = from + 1;
        for (int i = from; i >= 0; i--) {
            PgToken t = tokens.get(i);
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
            } else if (opens(t) || t.kind() == Kind.COMMA || t.kind() == Kind.OTHER) {
                break;
            } else if (operator(t)) {
                if (!TIGHTER.contains(t.lower()) && !SAME_LEVEL.contains(t.lower())) {
                    break;
                }
                first = i;
            } else if (t.kind() == Kind.WORD && KEYWORDS.contains(t.lower())) {
                break;
            } else {
                first = i;
            }
        }
        // a leading sign belongs to the operand; an operator left over at its start does not
        while (first <= from
                && operator(tokens.get(first))
                && !(tokens.get(first).lower().equals("-")
                        || tokens.get(first).lower().equals("+"))) {
            first++;
        }
        return depth == 0 ? first : from + 1;
    }

    /** An operator: {@code ::} and a name's {@code .} bind tighter than those written as calls. */
    private static boolean operator(PgToken t) {
        return t.kind() == Kind.OPERATOR || t.kind() == Kind.CAST || t.kind() == Kind.DOT;
    }

    private static boolean operand(PgToken t) {
        return t.kind() == Kind.STRING
                || t.kind() == Kind.QUOTED_NAME
                || t.kind() == Kind.NUMBER
                || t.kind() == Kind.PARAMETER;
    }

    private static boolean opens(PgToken t) {
        return t.kind() == Kind.OPEN || t.kind() == Kind.OPEN_BRACKET || t.isWord("case");
    }

    private static boolean closes(PgToken t) {
        return t.kind() == Kind.CLOSE || t.kind() == Kind.CLOSE_BRACKET || t.isWord("end");
    }

    /** The tokens of {@code sql}, or null when it cannot be read (left to Calcite's parser). */
    private static List<PgToken> tokenize(String sql) {
        List<PgToken> tokens = PgTokenizer.tokens(sql);
        boolean unread = tokens.stream().anyMatch(t -> t.kind() == Kind.UNTERMINATED || t.kind() == Kind.DOLLAR);
        return unread ? null : tokens;
    }
}
