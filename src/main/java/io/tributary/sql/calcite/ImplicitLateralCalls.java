package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Util;

/**
 * Makes a function call in FROM that names a column of an earlier FROM item lateral, as PostgreSQL
 * reads it without the word: {@code FROM t, generate_series(1, t.n) g} is {@code FROM t, LATERAL
 * TABLE(generate_series(1, t.n)) g}. Calcite resolves such a call's columns only after {@code
 * LATERAL} and failed with 42703. Every item but the first of a FROM clause is looked at, since
 * nothing comes before the first; RisingWave's window calls ({@code TUMBLE}, {@code HOP}, {@code
 * SESSION}), whose operands name a relation and its columns, are left alone. Runs before {@link
 * ScalarFunctionsInFrom}, which reads the lateral call it leaves. One instance per statement.
 */
final class ImplicitLateralCalls extends StatementRewrite {
    /** Calls in FROM whose identifiers name their own relation's columns, not an earlier item's. */
    private static final Set<String> WINDOW_CALLS = Set.of("tumble", "hop", "session");

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            // FromItems hands the items over left to right: the first has no earlier item to read
            boolean[] first = {true};
            FromItems.replaceIn(select, (item, alias) -> {
                boolean earlier = !first[0];
                first[0] = false;
                return FromItems.withRelation(alias, earlier ? lateral(item) : item);
            });
        }
        return super.visit(call);
    }

    /** {@code item} (without its alias), lateral when it is a call naming a column. */
    private SqlNode lateral(SqlNode item) {
        if (item instanceof SqlCall table
                && table.getKind() == SqlKind.COLLECTION_TABLE
                && table.operand(0) instanceof SqlCall function
                && !isWindowCall(function)
                && namesColumn(function)) {
            return rewritten(SqlStdOperatorTable.LATERAL.createCall(table.getParserPosition(), table));
        }
        return item;
    }

    private static boolean isWindowCall(SqlCall function) {
        SqlIdentifier name = function.getOperator().getNameAsId();
        return WINDOW_CALLS.contains(Util.last(name.names).toLowerCase(Locale.ROOT));
    }

    /** Whether an operand of {@code function}, outside any sub-query, is a column name. */
    private static boolean namesColumn(SqlCall function) {
        boolean[] found = {false};
        SqlBasicVisitor<Void> finder = new SqlBasicVisitor<>() {
            @Override
            public Void visit(SqlIdentifier id) {
                found[0] = true;
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                // a sub-query's names are its own FROM's first
                return call instanceof SqlSelect ? null : super.visit(call);
            }
        };
        for (SqlNode operand : function.getOperandList()) {
            if (operand != null) {
                operand.accept(finder);
            }
        }
        return found[0];
    }
}
