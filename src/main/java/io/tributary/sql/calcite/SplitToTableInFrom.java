package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code regexp_split_to_table(s, p [, flags])} in FROM, as PostgreSQL has it: the unnest of {@code
 * regexp_split_to_array} with the same arguments, its column named by the item's alias (or its
 * column alias), else {@code regexp_split_to_table}. It may read earlier FROM items' columns, as
 * an unnest does, with or without {@code LATERAL}. Runs before {@link ImplicitLateralCalls} and
 * {@link ScalarFunctionsInFrom}, which would take the call for a scalar one; one instance per
 * statement.
 */
final class SplitToTableInFrom extends StatementRewrite {
    private static final String NAME = "regexp_split_to_table";

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            FromItems.replaceIn(select, this::fromItem);
        }
        return super.visit(call);
    }

    private SqlNode fromItem(SqlNode item, SqlCall alias) {
        SqlNode table =
                item instanceof SqlCall lateral && lateral.getKind() == SqlKind.LATERAL ? lateral.operand(0) : item;
        if (!(table instanceof SqlCall collection
                && collection.getKind() == SqlKind.COLLECTION_TABLE
                && collection.operand(0) instanceof SqlCall function
                && function.getOperator().getName().equalsIgnoreCase(NAME))) {
            return FromItems.unchanged(item, alias);
        }
        SqlParserPos pos = function.getParserPosition();
        SqlNode array = new SqlBasicCall(
                new SqlUnresolvedFunction(
                        new SqlIdentifier("regexp_split_to_array", pos),
                        null,
                        null,
                        null,
                        null,
                        SqlFunctionCategory.USER_DEFINED_FUNCTION),
                function.getOperandList(),
                pos);
        SqlNode unnest = SqlStdOperatorTable.UNNEST.createCall(pos, array);
        if (alias == null) {
            return rewritten(SqlStdOperatorTable.AS.createCall(
                    pos, unnest, new SqlIdentifier(NAME, pos), new SqlIdentifier(NAME, pos)));
        }
        SqlIdentifier name = alias.operand(1);
        return rewritten(
                alias.operandCount() > 2
                        ? FromItems.withRelation(alias, unnest)
                        : SqlStdOperatorTable.AS.createCall(
                                alias.getParserPosition(), unnest, name, name.clone(name.getParserPosition())));
    }
}
