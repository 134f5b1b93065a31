package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's {@code avg} of an exact argument is the NUMERIC quotient of its exact sum by its
 * count, with {@code numeric / numeric}'s result scale ({@code select_div_scale}): {@code -0.5} of
 * two smallints is {@code -0.50000000000000000000}, and a bigint average of a large sum has no
 * decimals. Calcite's {@code avg} divides in a fixed scale instead. So {@code avg(x)} is written
 * {@code sum(x * CAST(1 AS DECIMAL(1, 0))) / count(x)}: the product with an exact 1 of scale 0 makes an integer
 * argument NUMERIC (no overflow of the sum, which PostgreSQL also sums as NUMERIC), keeps a
 * numeric's scale, and keeps a float a float; {@link PgArithmetic} then gives the division
 * PostgreSQL's scale (or float semantics), in queries and views alike. A wrapper ({@code FILTER},
 * {@code OVER}) is applied to both aggregates. No rows: the sum is NULL, so is the quotient.
 * Column labels are taken before this rewrite, so the column is still {@code avg}. One instance
 * per statement.
 */
final class AvgScale extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if ((call.getKind() == SqlKind.FILTER || call.getKind() == SqlKind.OVER)
                && call.operand(0) instanceof SqlCall inner
                && isAvg(inner)) {
            // the wrapper's own operands (window, condition) first; then the avg inside it
            for (int i = 1; i < call.operandCount(); i++) {
                SqlNode operand = call.operand(i);
                if (operand != null) {
                    call.setOperand(i, operand.accept(this));
                }
            }
            inner.setOperand(0, inner.operand(0).accept(this));
            return rewritten(quotient(inner, call));
        }
        SqlNode visited = super.visit(call);
        return visited instanceof SqlCall c && isAvg(c) ? rewritten(quotient(c, null)) : visited;
    }

    /** Whether {@code call} is a one-argument {@code avg} this rewrite has not yet replaced. */
    private static boolean isAvg(SqlCall call) {
        // unresolved until validation: the parser's call of avg is a function of kind OTHER_FUNCTION
        return call.getOperator() instanceof SqlFunction
                && call.getOperator().getName().equalsIgnoreCase("avg")
                && call.operandCount() == 1;
    }

    /** {@code sum(x * 1::numeric(1,0)) / count(x)} for {@code avg}, each aggregate in a copy of {@code wrapper} if any. */
    private static SqlNode quotient(SqlCall avg, SqlCall wrapper) {
        SqlParserPos pos = avg.getParserPosition();
        SqlLiteral quantifier = avg instanceof SqlBasicCall b ? b.getFunctionQuantifier() : null;
        SqlNode sum = wrap(SqlStdOperatorTable.SUM.createCall(quantifier, pos, exact(avg.operand(0), pos)), wrapper);
        SqlNode count = wrap(SqlStdOperatorTable.COUNT.createCall(quantifier, pos, copy(avg.operand(0))), wrapper);
        return SqlStdOperatorTable.DIVIDE.createCall(pos, sum, count);
    }

    /**
     * {@code x * CAST(1 AS DECIMAL(1, 0))} over a copy of {@code x}: NUMERIC for an integer, the
     * same NUMERIC for a numeric, a float for a float. At {@code pos}, the aggregate's position, so
     * that a refusal (of an interval) names the aggregate. A cast, not a literal 1 of scale 0, which
     * would print (and parse again) as an integer.
     */
    static SqlNode exact(SqlNode x, SqlParserPos pos) {
        SqlNode one = SqlStdOperatorTable.CAST.createCall(
                pos,
                SqlLiteral.createExactNumeric("1", pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, 1, 0, pos), pos));
        return SqlStdOperatorTable.MULTIPLY.createCall(pos, copy(x), one);
    }

    /** {@code aggregate} inside a copy of {@code wrapper} ({@code FILTER}, {@code OVER}); itself when that is null. */
    static SqlNode wrap(SqlNode aggregate, SqlCall wrapper) {
        if (wrapper == null) {
            return aggregate;
        }
        List<SqlNode> operands = new ArrayList<>();
        for (SqlNode operand : wrapper.getOperandList()) {
            operands.add(operands.isEmpty() ? aggregate : operand == null ? null : copy(operand));
        }
        return wrapper.getOperator().createCall(wrapper.getParserPosition(), operands);
    }

    /** A deep copy: an argument used by several aggregates must not share nodes the validator rewrites in place. */
    static SqlNode copy(SqlNode node) {
        return node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                return id.clone(id.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlCall call) {
                CallCopyingArgHandler copier = new CallCopyingArgHandler(call, true);
                call.getOperator().acceptCall(this, call, false, copier);
                return copier.result();
            }
        });
    }
}
