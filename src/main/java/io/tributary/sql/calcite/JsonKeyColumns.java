package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Names the column of {@code json_object_keys}/{@code jsonb_object_keys} in FROM after the item's
 * alias when the alias lists no columns ({@code FROM jsonb_object_keys(j) k} has column {@code k}),
 * as PostgreSQL names a function returning a plain type; Calcite kept the function's name. Their
 * result has no named OUT column, unlike {@code json_array_elements}' {@code value}, which keeps
 * its name. Runs after {@link ImplicitLateralCalls}; one instance per statement.
 */
final class JsonKeyColumns extends StatementRewrite {
    private static final Set<String> KEY_FUNCTIONS = Set.of("json_object_keys", "jsonb_object_keys");

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
        if (alias == null
                || alias.operandCount() != 2
                || !(table instanceof SqlCall collection
                        && collection.getKind() == SqlKind.COLLECTION_TABLE
                        && collection.operand(0) instanceof SqlCall function
                        && KEY_FUNCTIONS.contains(
                                function.getOperator().getName().toLowerCase(Locale.ROOT)))) {
            return FromItems.unchanged(item, alias);
        }
        SqlIdentifier name = alias.operand(1);
        return rewritten(SqlStdOperatorTable.AS.createCall(
                alias.getParserPosition(), item, name, name.clone(name.getParserPosition())));
    }
}
