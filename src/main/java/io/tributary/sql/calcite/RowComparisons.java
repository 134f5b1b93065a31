package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Comparisons of two row constructors, {@code (a, b) < (1, 2)}, with PostgreSQL's meaning (its
 * "row constructor comparison"): Calcite compared the rows as values, NULL fields included, so
 * {@code (1, NULL) < (1, 2)} was false and {@code (1, 2) IS DISTINCT FROM (1, NULL)} false where
 * PostgreSQL answers NULL and true. Each comparison is written field by field: {@code =} as the
 * AND of the fields' {@code =}, {@code <>} as the OR of their {@code <>}, {@code IS [NOT] DISTINCT
 * FROM} likewise, and {@code < <= > >=} as a CASE that walks the fields left to right: a pair with
 * a NULL gives NULL, the first unequal pair decides, and equal rows give {@code <=}/{@code >=}
 * true. A field used more than once in that CASE is copied, never shared between two parents. Rows
 * of different lengths are left to Calcite's own error. One instance per statement.
 */
final class RowComparisons extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c)
                || c.operandCount() != 2
                || !(c.operand(0) instanceof SqlCall left && left.getKind() == SqlKind.ROW)
                || !(c.operand(1) instanceof SqlCall right && right.getKind() == SqlKind.ROW)
                || left.operandCount() != right.operandCount()
                || left.operandCount() == 0) {
            return visited;
        }
        SqlParserPos pos = c.getParserPosition();
        List<SqlNode> a = left.getOperandList();
        List<SqlNode> b = right.getOperandList();
        return switch (c.getKind()) {
            case EQUALS -> rewritten(fold(SqlStdOperatorTable.AND, SqlStdOperatorTable.EQUALS, a, b, pos));
            case NOT_EQUALS -> rewritten(fold(SqlStdOperatorTable.OR, SqlStdOperatorTable.NOT_EQUALS, a, b, pos));
            case IS_NOT_DISTINCT_FROM ->
                rewritten(fold(SqlStdOperatorTable.AND, SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, a, b, pos));
            case IS_DISTINCT_FROM ->
                rewritten(fold(SqlStdOperatorTable.OR, SqlStdOperatorTable.IS_DISTINCT_FROM, a, b, pos));
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                rewritten(ordering(c.getOperator(), c.getKind(), a, b, pos));
            default -> visited;
        };
    }

    private static SqlNode fold(
            SqlOperator join, SqlOperator field, List<SqlNode> a, List<SqlNode> b, SqlParserPos pos) {
        SqlNode result = field.createCall(pos, a.get(0), b.get(0));
        for (int i = 1; i < a.size(); i++) {
            result = join.createCall(pos, result, field.createCall(pos, a.get(i), b.get(i)));
        }
        return result;
    }

    /** {@code CASE WHEN a1 IS NULL OR b1 IS NULL THEN NULL WHEN a1 <> b1 THEN a1 op b1 ... ELSE equal END}. */
    private static SqlNode ordering(SqlOperator op, SqlKind kind, List<SqlNode> a, List<SqlNode> b, SqlParserPos pos) {
        List<SqlNode> whens = new ArrayList<>();
        List<SqlNode> thens = new ArrayList<>();
        SqlNode nullBoolean = SqlStdOperatorTable.CAST.createCall(
                pos,
                SqlLiteral.createNull(pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN, pos), pos));
        for (int i = 0; i < a.size(); i++) {
            whens.add(SqlStdOperatorTable.OR.createCall(
                    pos,
                    SqlStdOperatorTable.IS_NULL.createCall(pos, copy(a.get(i))),
                    SqlStdOperatorTable.IS_NULL.createCall(pos, copy(b.get(i)))));
            thens.add(nullBoolean.clone(pos));
            whens.add(SqlStdOperatorTable.NOT_EQUALS.createCall(pos, copy(a.get(i)), copy(b.get(i))));
            thens.add(op.createCall(pos, copy(a.get(i)), copy(b.get(i))));
        }
        boolean equalRows = kind == SqlKind.LESS_THAN_OR_EQUAL || kind == SqlKind.GREATER_THAN_OR_EQUAL;
        return new SqlCase(
                pos,
                null,
                new SqlNodeList(whens, pos),
                new SqlNodeList(thens, pos),
                SqlLiteral.createBoolean(equalRows, pos));
    }

    /** A deep copy of an expression; a sub-query inside it is shared, not copied. */
    static SqlNode copy(SqlNode node) {
        return node.accept(COPY);
    }

    private static final SqlShuttle COPY = new SqlShuttle() {
        @Override
        public SqlNode visit(SqlIdentifier id) {
            return id.clone(id.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (call.getKind().belongsTo(SqlKind.QUERY)) {
                return call;
            }
            List<SqlNode> operands = new ArrayList<>();
            for (SqlNode operand : call.getOperandList()) {
                operands.add(operand == null ? null : operand.accept(this));
            }
            return call.getOperator()
                    .createCall(
                            call.getFunctionQuantifier(), call.getParserPosition(), operands.toArray(new SqlNode[0]));
        }
    };
}
