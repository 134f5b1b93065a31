package io.tributary.sql.calcite;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Util;

/**
 * Gives a function that returns one value, called in FROM, PostgreSQL's meaning: a relation of one
 * row and one column. {@code FROM string_to_array(current_setting('search_path'), ',') s} reads as
 * {@code FROM (SELECT string_to_array(...) AS s) s}: the column is named by the FROM item's alias
 * (or its column alias, {@code AS s(x)}), or without one after the function, as PostgreSQL names
 * it. Calcite reads any call in FROM as a table function and fails inside its validator. Calls of
 * the table functions Tributary registers ({@code generate_series} and the others of {@link
 * CatalogSchema#TABLE_FUNCTIONS}) and Calcite's window table functions keep their meaning. A lateral
 * call ({@code LATERAL upper(t.s) u}) becomes a lateral sub-query of one row.
 */
final class ScalarFunctionsInFrom extends StatementRewrite {
    /** Calcite's table functions read in FROM besides Tributary's own. */
    private static final Set<String> CALCITE_TABLE_FUNCTIONS = Set.of("tumble", "hop", "session");

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            FromItems.replaceIn(select, this::fromItem);
        }
        return super.visit(call);
    }

    /** A FROM item (see {@link FromItems.Replacer}) with a scalar call in it rewritten. */
    private SqlNode fromItem(SqlNode item, SqlCall alias) {
        if (item instanceof SqlCall lateral && lateral.getKind() == SqlKind.LATERAL) {
            return lateral(lateral, alias);
        }
        if (!(item instanceof SqlCall table
                && table.getKind() == SqlKind.COLLECTION_TABLE
                && table.operand(0) instanceof SqlCall function
                && function.getKind() == SqlKind.OTHER_FUNCTION
                && isScalar(function))) {
            return FromItems.unchanged(item, alias);
        }
        SqlParserPos pos = function.getParserPosition();
        SqlIdentifier name = (SqlIdentifier) function.getOperator().getNameAsId();
        SqlIdentifier column = alias == null
                ? new SqlIdentifier(Util.last(name.names), pos)
                : (SqlIdentifier) alias.operand(alias.operandCount() > 2 ? 2 : 1);
        SqlCall scalar = new SqlBasicCall(
                new SqlUnresolvedFunction(name, null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION),
                function.getOperandList(),
                pos);
        SqlSelect row = new SqlSelect(
                pos,
                null,
                SqlNodeList.of(SqlStdOperatorTable.AS.createCall(pos, scalar, column.clone(pos))),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        rewritten(row);
        return alias == null
                ? SqlStdOperatorTable.AS.createCall(pos, row, column.clone(pos))
                : FromItems.withRelation(alias, row);
    }

    /**
     * A {@code LATERAL} item: its call as a lateral one-row sub-query ({@code LATERAL (SELECT
     * upper(t.s) AS u) u}), the alias outside the {@code LATERAL}.
     */
    private SqlNode lateral(SqlCall lateral, SqlCall alias) {
        SqlNode item = fromItem(lateral.operand(0), alias);
        // rewritten, the item is an AS whose relation is the one-row sub-query
        if (!(item instanceof SqlCall as && as.getKind() == SqlKind.AS) || as.operand(0) == lateral) {
            return FromItems.unchanged(lateral, alias);
        }
        SqlNode row = as.operand(0);
        as.setOperand(0, SqlStdOperatorTable.LATERAL.createCall(lateral.getParserPosition(), row));
        return as;
    }

    private static boolean isScalar(SqlCall function) {
        List<String> names = ((SqlIdentifier) function.getOperator().getNameAsId()).names;
        String name = Util.last(names).toLowerCase(Locale.ROOT);
        return !CatalogSchema.TABLE_FUNCTIONS.contains(name) && !CALCITE_TABLE_FUNCTIONS.contains(name);
    }
}
