package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * Gives PostgreSQL's operators {@code ::}, {@code ^} and {@code ||} their precedence. Babel's grammar applies
 * {@code x::type} to all of the operator expression before it ({@code v = '5'::int} parses as
 * {@code (v = '5')::int}, {@code 1 + '2'::int * 3} as {@code (1 + '2')::int * 3}) and binds
 * {@code ^} more loosely than {@code *}; in PostgreSQL {@code ::} binds tightest and {@code ^}
 * just below unary minus, above {@code *}; {@code ||} binds as tightly as {@code *} there, but
 * below {@code +} in PostgreSQL. Where an expression holds one of them, its operators and
 * operands are laid out in text order again, each cast applied to the operand just before it, and
 * the tree rebuilt by precedence. BETWEEN and LIKE (in all their forms) are laid out as the parser
 * lays them out, so {@code x BETWEEN a AND b::int}, which Babel reads as {@code (x BETWEEN a AND
 * b)::int}, casts {@code b}, and {@code x LIKE p ESCAPE e::text} casts {@code e}. A parenthesized
 * expression (its text starts with {@code (}) stays one operand, so {@code (a = b)::int} keeps its
 * meaning. Runs before every other rewrite.
 */
final class PgOperatorPrecedence extends StatementRewrite {
    /**
     * {@code ^} with PostgreSQL's precedence (left-associative, above {@code *} at 60); only
     * lives until {@link PgValueSemantics} turns it into POWER.
     */
    static final SqlBinaryOperator EXPONENT = new SqlBinaryOperator(
            "^",
            SqlKind.OTHER,
            64,
            true,
            ReturnTypes.DOUBLE_NULLABLE,
            InferTypes.FIRST_KNOWN,
            OperandTypes.NUMERIC_NUMERIC);

    /**
     * {@code ||} with PostgreSQL's precedence, that of its other named operators: below {@code +}
     * and {@code -} (40), above LIKE, IN and the comparisons; Calcite binds it as tightly as
     * {@code *}, so {@code '1' || 2 + 3} was {@code ('1' || 2) + 3}. Only lives while a tree is
     * rebuilt: {@link #concatenations} puts the parser's operator back.
     */
    private static final SqlBinaryOperator CONCAT = new SqlBinaryOperator(
            "||", SqlKind.OTHER, 36, true, ReturnTypes.ARG0, InferTypes.FIRST_KNOWN, OperandTypes.ANY_ANY);

    private final String sql;

    /** The parser's {@code ||} operator, once one was seen in a rebuilt expression. */
    private SqlOperator parsedConcat;

    /** @param sql the text the statement was parsed from, to tell {@code (a + b)::t} from {@code a + b::t} */
    PgOperatorPrecedence(String sql) {
        this.sql = sql;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlOperator sign = isInfixCast(call) ? signOf(call.operand(0)) : null;
        if (sign != null) {
            return rewritten(sign.createCall(call.getParserPosition(), unsignedCast(call, sign)));
        }
        // the root of an expression may be parenthesized as a whole: (a AND b::regclass)
        if (isOperatorCall(call) && needsRebuild(call, null)) {
            List<Object> items = new ArrayList<>();
            flatten(call, items, null);
            return rewritten(concatenations(SqlParserUtil.toTree(items)));
        }
        return super.visit(call);
    }

    private static boolean isInfixCast(SqlNode node) {
        return node instanceof SqlCall c
                && c.getKind() == SqlKind.CAST
                && c.getOperator().getName().equals("::");
    }

    private static boolean isConcat(SqlNode node) {
        return node instanceof SqlCall c
                && c.getOperator() instanceof SqlBinaryOperator
                && c.getOperator().getName().equals("||");
    }

    /** {@code node} with each {@link #CONCAT} of a rebuilt tree the parser's {@code ||} again. */
    private SqlNode concatenations(SqlNode node) {
        if (!(node instanceof SqlBasicCall c) || parsedConcat == null) {
            return node;
        }
        for (int i = 0; i < c.operandCount(); i++) {
            c.setOperand(i, concatenations(c.operand(i)));
        }
        return c.getOperator() == CONCAT ? parsedConcat.createCall(c.getParserPosition(), c.getOperandList()) : c;
    }

    private static boolean isCaret(SqlNode node) {
        return node instanceof SqlCall c
                && c.getKind() == SqlKind.BITXOR
                && c.getOperator().getName().equals("^");
    }

    /**
     * A binary or prefix operator call, an infix cast, a BETWEEN (of any form) or a LIKE (ILIKE,
     * SIMILAR TO, negated, with or without ESCAPE): the parts of one operator expression.
     */
    private static boolean isOperatorCall(SqlNode node) {
        if (!(node instanceof SqlBasicCall c)) {
            return false;
        }
        return isInfixCast(c)
                || (c.getOperator() instanceof SqlBinaryOperator && c.operandCount() == 2)
                || (c.getOperator() instanceof SqlPrefixOperator && c.operandCount() == 1)
                || (c.getOperator() instanceof SqlBetweenOperator && c.operandCount() == 3)
                || (c.getOperator() instanceof SqlLikeOperator && (c.operandCount() == 2 || c.operandCount() == 3));
    }

    /**
     * An operator call inside an expression, unless parenthesized (then it is one operand).
     *
     * @param parent the call whose operand {@code node} is; null at the root
     */
    private boolean isOperator(SqlNode node, SqlNode parent) {
        return isOperatorCall(node) && (parent == null || !parenthesized(node, parent));
    }

    private boolean needsRebuild(SqlNode node, SqlNode parent) {
        if (!isOperator(node, parent)) {
            return false;
        }
        SqlCall c = (SqlCall) node;
        if (isCaret(c)
                || (isInfixCast(c) && isOperator(c.operand(0), c))
                || (isConcat(c)
                        && parent instanceof SqlCall p
                        && p.getOperator().getLeftPrec() >= 40)) {
            return true;
        }
        int operands = isInfixCast(c) ? 1 : c.operandCount();
        for (int i = 0; i < operands; i++) {
            if (needsRebuild(c.operand(i), c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Appends the expression's operands (SqlNodes) and operators ({@link SqlParserUtil.ToTreeListItem})
     * in text order; a cast is applied to the operand just before it.
     */
    private void flatten(SqlNode node, List<Object> items, SqlNode parent) {
        if (!isOperator(node, parent)) {
            items.add(node.accept(this));
            return;
        }
        SqlCall c = (SqlCall) node;
        SqlOperator sign = isInfixCast(c) ? signOf(c.operand(0)) : null;
        if (sign != null) {
            items.add(new SqlParserUtil.ToTreeListItem(sign, c.getParserPosition()));
            items.add(unsignedCast(c, sign));
        } else if (isInfixCast(c)) {
            flatten(c.operand(0), items, c);
            SqlNode last = (SqlNode) items.remove(items.size() - 1);
            items.add(c.getOperator().createCall(c.getParserPosition(), last, c.operand(1)));
        } else if (c.getOperator() instanceof SqlPrefixOperator) {
            items.add(new SqlParserUtil.ToTreeListItem(c.getOperator(), c.getParserPosition()));
            flatten(c.operand(0), items, c);
        } else if (c.getOperator() instanceof SqlBetweenOperator || c.getOperator() instanceof SqlLikeOperator) {
            // laid out as the parser lays them out: x BETWEEN a AND b, x LIKE p ESCAPE e; the
            // operator's own reduction takes its operands back when the tree is rebuilt
            flatten(c.operand(0), items, c);
            items.add(new SqlParserUtil.ToTreeListItem(c.getOperator(), c.getParserPosition()));
            flatten(c.operand(1), items, c);
            if (c.operandCount() == 3) {
                SqlOperator separator = c.getOperator() instanceof SqlBetweenOperator
                        ? SqlStdOperatorTable.AND
                        : SqlStdOperatorTable.ESCAPE;
                items.add(new SqlParserUtil.ToTreeListItem(separator, c.getParserPosition()));
                flatten(c.operand(2), items, c);
            }
        } else {
            SqlOperator op = c.getOperator();
            if (isCaret(c)) {
                op = EXPONENT;
            } else if (isConcat(c)) {
                parsedConcat = op;
                op = CONCAT;
            }
            flatten(c.operand(0), items, c);
            items.add(new SqlParserUtil.ToTreeListItem(op, c.getParserPosition()));
            flatten(c.operand(1), items, c);
        }
    }

    /**
     * The prefix operator written before a number constant that the parser folded into it
     * ({@code -7::int2} parses as {@code (-7)::int2}, {@code +7::int2} as {@code 7::int2}, {@code -(-3)::int2} as {@code 3::int2}), or
     * null when {@code operand} is no such constant or is parenthesized ({@code (-3)::int2}). In
     * PostgreSQL the sign applies to the cast value: {@code -32768::int2} is out of range, and the
     * column is labelled {@code ?column?}.
     */
    private SqlOperator signOf(SqlNode operand) {
        if (!(operand instanceof SqlNumericLiteral)) {
            return null;
        }
        SqlParserPos pos = operand.getParserPosition();
        int at = SqlErrors.offset(sql, pos.getLineNum(), pos.getColumnNum()) - 1;
        int end = SqlErrors.offset(sql, pos.getEndLineNum(), pos.getEndColumnNum());
        if (at < 0 || at >= sql.length() || end < 0 || end > sql.length()) {
            return null;
        }
        int next = end;
        while (next < sql.length() && Character.isWhitespace(sql.charAt(next))) {
            next++;
        }
        if (!sql.startsWith("::", next)) {
            return null;
        }
        // the parser folds a unary plus into the constant too: in PostgreSQL it is an operator
        // on the cast value, so {@code +7::int2} is labelled {@code ?column?}
        if (sql.charAt(at) == '-') {
            return SqlStdOperatorTable.UNARY_MINUS;
        }
        return unaryPlusBefore(at) ? SqlStdOperatorTable.UNARY_PLUS : null;
    }

    /**
     * Whether a unary {@code +} stands just before offset {@code at}: a {@code +} with an operator,
     * an opening parenthesis, a comma, a keyword that starts an expression or nothing before it
     * (after {@code a +} or {@code 1 +} it is the binary plus, which the parser kept).
     */
    private boolean unaryPlusBefore(int at) {
        int plus = at - 1;
        while (plus >= 0 && Character.isWhitespace(sql.charAt(plus))) {
            plus--;
        }
        if (plus < 0 || sql.charAt(plus) != '+') {
            return false;
        }
        int end = plus - 1;
        while (end >= 0 && Character.isWhitespace(sql.charAt(end))) {
            end--;
        }
        if (end < 0 || "(,=<>+-*/%^|&~!".indexOf(sql.charAt(end)) >= 0) {
            return true;
        }
        int start = end;
        while (start >= 0 && Character.isLetter(sql.charAt(start))) {
            start--;
        }
        return start < end
                && (start < 0
                        || !Character.isLetterOrDigit(sql.charAt(start))
                                && sql.charAt(start) != '_'
                                && sql.charAt(start) != '"')
                && EXPRESSION_KEYWORDS.contains(
                        sql.substring(start + 1, end + 1).toUpperCase(java.util.Locale.ROOT));
    }

    /** Keywords after which an expression starts, so a {@code +} after them is a sign. */
    private static final java.util.Set<String> EXPRESSION_KEYWORDS = java.util.Set.of(
            "SELECT",
            "WHERE",
            "AND",
            "OR",
            "NOT",
            "WHEN",
            "THEN",
            "ELSE",
            "HAVING",
            "ON",
            "BY",
            "DISTINCT",
            "ALL",
            "RETURNING",
            "SET",
            "VALUES",
            "IN",
            "BETWEEN",
            "LIMIT",
            "OFFSET",
            "IS");

    /**
     * The cast of a constant {@link #signOf} found signed, applied to the constant without its sign
     * (the parser negated the constant for a minus; a plus left it as it was).
     */
    private SqlNode unsignedCast(SqlCall cast, SqlOperator sign) {
        SqlNumericLiteral value = (SqlNumericLiteral) cast.operand(0);
        SqlNode unsigned = sign == SqlStdOperatorTable.UNARY_MINUS
                ? SqlLiteral.createNegative(value, value.getParserPosition())
                : value;
        return cast.getOperator().createCall(cast.getParserPosition(), unsigned, cast.operand(1));
    }

    /**
     * Whether the node is written in parentheses: its text starts with {@code (} and the matching
     * {@code )} comes after the end of its last operand (the parser's span of a parenthesized
     * expression starts at the parenthesis; so does that of {@code (a) + b}, which is not).
     */
    private boolean parenthesized(SqlNode node, SqlNode parent) {
        SqlParserPos pos = node.getParserPosition();
        int at = SqlErrors.offset(sql, pos.getLineNum(), pos.getColumnNum()) - 1;
        if (at < 0 || at >= sql.length() || sql.charAt(at) != '(') {
            return false;
        }
        int close = matchingParenthesis(at);
        // the parenthesis may enclose the parent too ((a = 'x'::t AND b = 'y'::t), which Babel
        // parses as ((a = 'x')::t AND b = 'y')::t with both calls starting at it): then it is not
        // the operand's own. A parent starting elsewhere cannot be inside it, even when the
        // parenthesis closes the whole expression (a ^ (b / c))
        SqlParserPos parentPos = parent.getParserPosition();
        int parentAt = SqlErrors.offset(sql, parentPos.getLineNum(), parentPos.getColumnNum()) - 1;
        return close >= end(node) && (parentAt != at || close < end(parent));
    }

    /** The offset in the text just after the last operand of an operator expression. */
    private int end(SqlNode node) {
        SqlNode last = node;
        while (isOperatorCall(last)) {
            SqlCall c = (SqlCall) last;
            last = c.operand(isInfixCast(c) ? 1 : c.operandCount() - 1);
        }
        SqlParserPos end = last.getParserPosition();
        return SqlErrors.offset(sql, end.getEndLineNum(), end.getEndColumnNum());
    }

    /** The index of the {@code )} closing the {@code (} at {@code open}, skipping quoted text; -1 if none. */
    private int matchingParenthesis(int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                int close = sql.indexOf(ch, i + 1);
                i = close < 0 ? sql.length() : close;
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
