package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Lifts the exact numeric literals of a DML statement into parameters, so that statements that
 * differ only in those constants share one plan ({@code UPDATE t SET v = v + 5 WHERE id = 7} and
 * {@code ... + 6 WHERE id = 8}). Each literal becomes {@code CAST(? AS type)} with the type Calcite
 * gives the literal itself (INTEGER when it fits, else BIGINT), or for a decimal DECIMAL(18, s) with
 * the literal's scale s (the literal's own precision would make a new shape of each number of
 * digits), so the plan's values are those of the literal's plan.
 *
 * <p>Only literals that are operands of comparisons ({@code =}, {@code <>}, {@code <}, {@code <=},
 * {@code >}, {@code >=}, BETWEEN) or of {@code +}, {@code -}, {@code *}, optionally negated, and
 * whole SET values are lifted: there a constant and a parameter of its type mean the same. Others
 * stay (LIMIT counts, ORDER BY ordinals, type lengths, function arguments Calcite needs constant),
 * and so do string literals, whose type PostgreSQL decides from their context, except whole SET
 * values into text columns ({@link #liftText}). The {@code ?}
 * markers are made in the order the statement's text lists them, the order of {@link #values()}.
 * Mutates the tree it is given; planning thread only.
 */
final class LiteralLifter {
    private static final Set<SqlKind> CONTEXTS = EnumSet.of(
            SqlKind.EQUALS,
            SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL,
            SqlKind.BETWEEN,
            SqlKind.PLUS,
            SqlKind.MINUS,
            SqlKind.TIMES);
    /** Digits of the largest DECIMAL lifted; longer literals stay constants. */
    private static final int MAX_DIGITS = 18;

    private final List<Object> values = new ArrayList<>();

    /** The lifted values in marker order: Integer, Long, BigDecimal or String by the literal's type. */
    List<Object> values() {
        return values;
    }

    /** Lifts a whole SET value or the literals inside it. */
    SqlNode liftValue(SqlNode value) {
        SqlNode lifted = parameterFor(value);
        if (lifted != null) {
            return lifted;
        }
        liftWithin(value);
        return value;
    }

    /**
     * {@code CAST(? AS VARCHAR)} for a whole SET value that is a string constant, else null (nothing
     * lifted). The caller vouches that the target column is {@code text} or unbounded {@code
     * varchar}, where the constant means its own text; into any other type PostgreSQL reads an
     * unknown-typed constant with that type's input function, so it stays.
     */
    SqlNode liftText(SqlNode value) {
        if (!(value instanceof SqlCharStringLiteral literal)) {
            return null;
        }
        SqlParserPos pos = literal.getParserPosition();
        values.add(literal.getValueAs(String.class));
        return SqlStdOperatorTable.CAST.createCall(
                pos,
                new SqlDynamicParam(values.size() - 1, pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
    }

    /** Lifts the literals inside {@code node} (null allowed), in text order. */
    void liftWithin(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                liftWithin(item);
            }
            return;
        }
        if (!(node instanceof SqlCall call)) {
            return;
        }
        boolean context = call instanceof SqlBasicCall && CONTEXTS.contains(call.getKind());
        List<SqlNode> operands = call.getOperandList();
        for (int i = 0; i < operands.size(); i++) {
            SqlNode operand = operands.get(i);
            SqlNode lifted = context ? parameterFor(operand) : null;
            if (lifted != null) {
                call.setOperand(i, lifted);
            } else {
                liftWithin(operand);
            }
        }
    }

    /** {@code CAST(? AS type)} for an exact numeric literal (or its negation), else null. */
    private SqlNode parameterFor(SqlNode node) {
        boolean negated = false;
        if (node != null
                && node.getKind() == SqlKind.MINUS_PREFIX
                && node instanceof SqlBasicCall minus
                && minus.operand(0) instanceof SqlNumericLiteral) {
            negated = true;
            node = minus.operand(0);
        }
        if (!(node instanceof SqlNumericLiteral literal) || !literal.isExact()) {
            return null;
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value.precision() > MAX_DIGITS) {
            return null;
        }
        SqlParserPos pos = literal.getParserPosition();
        SqlBasicTypeNameSpec type;
        Object bound;
        if (value.scale() <= 0 && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            type = new SqlBasicTypeNameSpec(SqlTypeName.INTEGER, pos);
            bound = negated ? -value.intValueExact() : value.intValueExact();
        } else if (value.scale() <= 0) {
            type = new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, pos);
            bound = negated ? -value.longValueExact() : value.longValueExact();
        } else {
            // One precision for every lifted decimal of a scale, so that 0.05, 1.25 and -4.50 share
            // a shape: where they may be lifted (comparisons, + - *, whole SET values) a wider
            // precision changes no value, as the values have at most MAX_DIGITS digits.
            type = new SqlBasicTypeNameSpec(
                    SqlTypeName.DECIMAL, Math.max(MAX_DIGITS, value.scale()), value.scale(), pos);
            bound = negated ? value.negate() : value;
        }
        values.add(bound);
        return SqlStdOperatorTable.CAST.createCall(
                pos, new SqlDynamicParam(values.size() - 1, pos), new SqlDataTypeSpec(type, pos));
    }
}
