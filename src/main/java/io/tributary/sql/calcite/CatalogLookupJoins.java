package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Turns the catalog lookups {@link PgCatalogCalls} writes into a select list ({@code (SELECT
 * pg__a.attname FROM pg_catalog.pg_attribute pg__a WHERE pg__a.attrelid = tmp.ci_oid AND
 * pg__a.attnum = tmp.n)}) into {@code LEFT JOIN}s of that query block when its FROM holds a
 * derived table, so that a call such as pgjdbc {@code getIndexInfo}'s {@code
 * pg_get_indexdef(tmp.CI_OID, tmp.ORDINAL_POSITION, false)} over {@code FROM (...) tmp} is answered
 * instead of refused by {@link DerivedTableCorrelation} (Calcite reads such correlations by the
 * wrong positions). Exact because only lookups whose equalities cover a unique key of the catalog
 * relation ({@link #UNIQUE_KEYS}) are moved: such a sub-query yields at most one row, which is
 * what the left join adds to each outer row (NULL when none, as the sub-query gives). A select
 * block with GROUP BY or HAVING is left alone, since the joined column would not be grouped. One
 * instance per statement; applied after {@link PgCatalogCalls}, on the session's thread.
 */
final class CatalogLookupJoins extends StatementRewrite {
    /** Catalog relation (last name, lower case) to the columns that identify one of its rows. */
    private static final Map<String, Set<String>> UNIQUE_KEYS = Map.of(
            "pg_attribute", Set.of("attrelid", "attnum"),
            "definitions", Set.of("defoid", "kind"),
            "pg_class", Set.of("oid"),
            "pg_namespace", Set.of("oid"),
            "pg_roles", Set.of("oid"));

    /** Prefix of the aliases {@link PgCatalogCalls}' templates give their relations. */
    private static final String TEMPLATE_ALIAS = "pg__";

    private int next;

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlSelect select
                && select.getFrom() != null
                && select.getGroup() == null
                && select.getHaving() == null
                && hasDerivedTable(select.getFrom())) {
            joinLookups(select);
        }
        return visited;
    }

    private void joinLookups(SqlSelect select) {
        List<SqlNode> joins = new ArrayList<>();
        boolean any = replaceSelectItems(select, new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect lookup) {
                    SqlNode column = asJoin(lookup, joins);
                    return column == null ? call : column;
                }
                return super.visit(call);
            }
        });
        if (!any) {
            return;
        }
        SqlNode from = select.getFrom();
        for (int i = 0; i < joins.size(); i += 2) {
            SqlParserPos pos = SqlParserPos.ZERO;
            from = new SqlJoin(
                    pos,
                    from,
                    SqlLiteral.createBoolean(false, pos),
                    JoinType.LEFT.symbol(pos),
                    joins.get(i),
                    JoinConditionType.ON.symbol(pos),
                    joins.get(i + 1));
        }
        select.setFrom(from);
        rewritten(select);
    }

    /**
     * When {@code lookup} is a template lookup by a unique key, adds its relation (renamed) and
     * join condition to {@code joins} and returns the column that replaces it; otherwise null.
     */
    private SqlNode asJoin(SqlSelect lookup, List<SqlNode> joins) {
        if (lookup.getSelectList().size() != 1
                || lookup.getWhere() == null
                || lookup.getGroup() != null
                || lookup.getHaving() != null
                || lookup.isDistinct()
                || lookup.getFetch() != null
                || lookup.getOffset() != null
                || lookup.getOrderList() != null && !lookup.getOrderList().isEmpty()
                || !(lookup.getFrom() instanceof SqlBasicCall as)
                || as.getKind() != SqlKind.AS
                || as.operandCount() != 2
                || !(as.operand(0) instanceof SqlIdentifier table)
                || !(as.operand(1) instanceof SqlIdentifier aliasId)
                || !aliasId.getSimple().startsWith(TEMPLATE_ALIAS)
                || !(lookup.getSelectList().get(0) instanceof SqlIdentifier column)) {
            return null;
        }
        String alias = aliasId.getSimple();
        Set<String> key =
                UNIQUE_KEYS.get(table.names.get(table.names.size() - 1).toLowerCase(Locale.ROOT));
        Set<String> bound = new java.util.HashSet<>();
        if (key == null || !equalities(lookup.getWhere(), alias, bound) || !bound.containsAll(key)) {
            return null;
        }
        String renamed = "pg__j" + next++;
        SqlShuttle rename = new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                return id.names.size() == 2 && id.names.get(0).equals(alias)
                        ? new SqlIdentifier(List.of(renamed, id.names.get(1)), id.getParserPosition())
                        : id;
            }
        };
        joins.add(SqlStdOperatorTable.AS.createCall(
                SqlParserPos.ZERO, table, new SqlIdentifier(renamed, SqlParserPos.ZERO)));
        joins.add(lookup.getWhere().accept(rename));
        return column.accept(rename);
    }

    /**
     * Whether {@code where} is a conjunction of equalities of qualified names and constants; collects the
     * columns of {@code alias} that an equality binds.
     */
    private static boolean equalities(SqlNode where, String alias, Set<String> bound) {
        if (!(where instanceof SqlBasicCall call)) {
            return false;
        }
        if (call.getKind() == SqlKind.AND) {
            for (SqlNode operand : call.getOperandList()) {
                if (!equalities(operand, alias, bound)) {
                    return false;
                }
            }
            return true;
        }
        if (call.getKind() != SqlKind.EQUALS || !plainAndQualified(call)) {
            return false;
        }
        for (SqlNode side : call.getOperandList()) {
            if (side instanceof SqlIdentifier id
                    && id.names.size() == 2
                    && id.names.get(0).equals(alias)) {
                bound.add(id.names.get(1).toLowerCase(Locale.ROOT));
            }
        }
        return true;
    }

    /**
     * Whether {@code node} has no sub-query and no unqualified name: in the sub-query an
     * unqualified name could mean the catalog relation's column, in a join condition either side.
     */
    private static boolean plainAndQualified(SqlNode node) {
        boolean[] bad = {false};
        node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                bad[0] |= call.isA(SqlKind.QUERY);
                return bad[0] ? call : super.visit(call);
            }

            @Override
            public SqlNode visit(SqlIdentifier id) {
                bad[0] |= id.names.size() < 2;
                return id;
            }
        });
        return !bad[0];
    }

    /** Whether a FROM item of this block (through joins) is a derived table. */
    private static boolean hasDerivedTable(SqlNode from) {
        if (from instanceof SqlJoin join) {
            return hasDerivedTable(join.getLeft()) || hasDerivedTable(join.getRight());
        }
        SqlNode item = from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS ? as.operand(0) : from;
        return item.isA(SqlKind.QUERY);
    }
}
