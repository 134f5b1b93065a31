package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Lets an argument of a table function in FROM hold a sub-query or a function call, as PostgreSQL
 * does ({@code generate_series(1, (SELECT max(n) FROM t))}, {@code generate_series(1,
 * array_upper(a, 1))}, and {@code current_setting(...)}, which {@link PgCatalogCalls} makes a lookup
 * in {@code pg_settings}): Calcite cannot compute a sub-query among a table function's operands,
 * and a call there gives rows of the wrong shape once the query sorts them. Those arguments are
 * computed in a one-row derived table
 * the call then reads laterally: {@code AS i} over {@code f(a, (SELECT ...))} becomes {@code
 * (SELECT i.* FROM (SELECT (SELECT ...) AS a1) pg__args CROSS JOIN LATERAL TABLE(f(a,
 * pg__args.a1)) AS i) AS i}, whose columns are the call's alone. Only Tributary's own table
 * functions ({@link CatalogSchema#TABLE_FUNCTIONS}) are rewritten: Calcite's window functions take a
 * table and a descriptor, which must stay in place. Runs after {@link PgCatalogCalls},
 * on queries; one instance per statement.
 */
final class TableFunctionSubqueries extends StatementRewrite {
    private int next;

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            FromItems.replaceIn(select, this::fromItem);
        }
        return super.visit(call);
    }

    /** A FROM item (see {@link FromItems.Replacer}) with its table function's computed arguments moved out. */
    private SqlNode fromItem(SqlNode item, SqlCall as) {
        if (!(as != null
                && item instanceof SqlCall table
                && table.getKind() == SqlKind.COLLECTION_TABLE
                && table.operand(0) instanceof SqlCall function
                && CatalogSchema.TABLE_FUNCTIONS.contains(
                        function.getOperator().getName().toLowerCase(java.util.Locale.ROOT))
                && function.getOperandList().stream().anyMatch(TableFunctionSubqueries::computed))) {
            return FromItems.unchanged(item, as);
        }
        SqlParserPos pos = as.getParserPosition();
        String args = "pg__args" + next++;
        List<SqlNode> computed = new ArrayList<>();
        for (int i = 0; i < function.operandCount(); i++) {
            SqlNode operand = function.operand(i);
            if (computed(operand)) {
                String name = "a" + i;
                computed.add(SqlStdOperatorTable.AS.createCall(pos, operand, new SqlIdentifier(name, pos)));
                function.setOperand(i, new SqlIdentifier(List.of(args, name), pos));
            }
        }
        SqlNode argsRow = SqlStdOperatorTable.AS.createCall(
                pos, select(new SqlNodeList(computed, pos), null, pos), new SqlIdentifier(args, pos));
        SqlNode lateral = SqlStdOperatorTable.LATERAL.createCall(pos, as);
        SqlJoin join = new SqlJoin(
                pos,
                argsRow,
                SqlLiteral.createBoolean(false, pos),
                JoinType.CROSS.symbol(pos),
                lateral,
                JoinConditionType.NONE.symbol(pos),
                null);
        SqlIdentifier alias = (SqlIdentifier) as.operand(1);
        SqlNode star = new SqlIdentifier(List.of(alias.getSimple(), ""), pos);
        return rewritten(
                SqlStdOperatorTable.AS.createCall(pos, select(SqlNodeList.of(star), join, pos), alias.clone(pos)));
    }

    private static SqlSelect select(SqlNodeList items, SqlNode from, SqlParserPos pos) {
        return new SqlSelect(pos, null, items, from, null, null, null, null, null, null, null, null, null);
    }

    /**
     * Whether {@code node} is computed without the query's columns but not by constants alone: it
     * holds a sub-query or a function call (not a cast) and names no column outside a sub-query.
     * Calcite cannot compute a sub-query among a table function's operands, and a call there gives
     * rows of the wrong shape once the query sorts them. Constants, casts and operators over them
     * stay in place, where planning reads them (a numeric series takes its scale from its constant
     * arguments); so do arguments naming an enclosing query's columns (psql's {@code
     * generate_series(0, array_upper(pr.prattrs, 1))}), which Calcite correlates in place.
     */
    private static boolean computed(SqlNode node) {
        if (node == null) {
            return false;
        }
        boolean[] seen = new boolean[2]; // [0]: a query or call, [1]: a column outside a query
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind().belongsTo(SqlKind.QUERY)) {
                    seen[0] = true;
                    return null;
                }
                if (call.getOperator() instanceof org.apache.calcite.sql.SqlFunction
                        && call.getKind() != SqlKind.CAST) {
                    seen[0] = true;
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlIdentifier id) {
                seen[1] = true;
                return null;
            }
        });
        return seen[0] && !seen[1];
    }
}
