package io.tributary.sql.calcite;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;

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
}
