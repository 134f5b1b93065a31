package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Gives JOIN its PostgreSQL precedence over the comma of a FROM list: {@code FROM a, b JOIN c ON
 * ...} is {@code a, (b JOIN c ON ...)}. Calcite's parser makes it {@code (a, b) JOIN c}, which let
 * the ON condition name {@code a} (PostgreSQL: 42P01, invalid reference to a FROM-clause entry) and
 * gave other rows for an outer join: {@code a, b RIGHT JOIN c ON c.k = b.k} kept each unmatched row
 * of {@code c} once, with a NULL {@code a}, where PostgreSQL pairs it with every row of {@code a}.
 * The comma becomes a CROSS JOIN, which means the same: Calcite prints a join to the right of a
 * comma without the parentheses that keep it together when the text is parsed again. Applied first
 * by {@link StatementRewrite#applyAll}; one instance per statement.
 */
final class CommaJoinPrecedence extends StatementRewrite {
    /** The CROSS JOINs this rewrite made of commas, which bind as loosely as the commas did. */
    private final Set<SqlJoin> commas = Collections.newSetFromMap(new IdentityHashMap<>());

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        // children first: in a, b JOIN c JOIN d the inner join is regrouped before the outer one
        if (visited instanceof SqlJoin join
                && join.getJoinType() != JoinType.COMMA
                && join.getLeft() instanceof SqlJoin comma
                && (comma.getJoinType() == JoinType.COMMA || commas.contains(comma))) {
            refuseEarlierItems(comma, join);
            SqlJoin joined = new SqlJoin(
                    join.getParserPosition(),
                    comma.getRight(),
                    join.isNaturalNode(),
                    join.getJoinTypeNode(),
                    join.getRight(),
                    join.getConditionTypeNode(),
                    join.getCondition());
            SqlJoin cross = new SqlJoin(
                    comma.getParserPosition(),
                    comma.getLeft(),
                    comma.isNaturalNode(),
                    JoinType.CROSS.symbol(comma.getParserPosition()),
                    joined,
                    comma.getConditionTypeNode(),
                    comma.getCondition());
            commas.add(cross);
            return rewritten(cross);
        }
        return visited;
    }

    /**
     * PostgreSQL's 42P01 for a condition of {@code join} that qualifies a column by an item of the
     * FROM list before the comma, which the regrouped join no longer sees. A name the joined items
     * introduce themselves is theirs, as it is in PostgreSQL.
     */
    private static void refuseEarlierItems(SqlJoin comma, SqlJoin join) {
        if (join.getCondition() == null || join.getCondition() instanceof SqlNodeList) {
            return;
        }
        Set<String> before = new HashSet<>();
        OuterReferences.introduced(comma.getLeft(), before);
        Set<String> joined = new HashSet<>();
        OuterReferences.introduced(comma.getRight(), joined);
        OuterReferences.introduced(join.getRight(), joined);
        join.getCondition().accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.names.size() >= 2) {
                    String table = id.names.get(id.names.size() - 2);
                    String key = table.toLowerCase(Locale.ROOT);
                    if (before.contains(key) && !joined.contains(key)) {
                        throw PositionedError.at(
                                id.getParserPosition(),
                                SqlState.UNDEFINED_TABLE,
                                "invalid reference to FROM-clause entry for table \"" + table + "\"",
                                "There is an entry for table \"" + table
                                        + "\", but it cannot be referenced from this part of the query.");
                    }
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                // a sub-query in the condition has names of its own
                return call instanceof SqlSelect ? null : super.visit(call);
            }
        });
    }
}
