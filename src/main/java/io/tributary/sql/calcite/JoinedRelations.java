package io.tributary.sql.calcite;

import static io.tributary.sql.calcite.CalciteFrontend.unparse;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.ResultColumn;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * The relations of an UPDATE's FROM list or a DELETE's USING list as a RETURNING list reads them:
 * each one's name in the statement and its columns, which the statement's query selects after the
 * target row so that RETURNING can name them (as PostgreSQL lets it). Empty without such a list or
 * without RETURNING. Built while planning, on the session's thread.
 */
final class JoinedRelations {
    /** One relation of the list: the name RETURNING calls it by, and its columns. */
    record Relation(String alias, List<ResultColumn> columns) {}

    private static final JoinedRelations NONE = new JoinedRelations(List.of());

    private final List<Relation> relations;

    private JoinedRelations(List<Relation> relations) {
        this.relations = relations;
    }

    /**
     * The relations of {@code from} (null without a FROM or USING list) joined to the table named
     * {@code target} in the statement when {@code clauses} has a RETURNING list, each planned alone
     * to learn its columns.
     *
     * @throws TributaryException 42712 for a relation named as the target; 42601 for a sub-query
     *     without an alias (PostgreSQL 14's rule); 0A000, with RETURNING, for a function without an
     *     alias or a relation holding a parameter (neither can be planned alone here)
     */
    static JoinedRelations of(SqlNode from, String target, DmlClauses clauses, DmlQueries queries) {
        if (from == null) {
            return NONE;
        }
        List<SqlNode> leaves = new ArrayList<>();
        leaves(from, leaves);
        List<String> aliases = new ArrayList<>(leaves.size());
        for (SqlNode leaf : leaves) {
            String alias = alias(leaf);
            if (target.equals(alias)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_ALIAS, "table name \"" + alias + "\" specified more than once");
            }
            aliases.add(alias);
        }
        if (clauses == null || clauses.returning() == null) {
            return NONE;
        }
        List<Relation> relations = new ArrayList<>(leaves.size());
        for (SqlNode leaf : leaves) {
            if (aliases.get(relations.size()) == null) {
                throw TributaryException.notSupported(
                        "RETURNING with a function without an alias in the FROM or USING list");
            }
            if (hasParameter(leaf)) {
                throw TributaryException.notSupported("RETURNING with parameters in the FROM or USING list");
            }
            List<ResultColumn> columns =
                    queries.plan("SELECT * FROM " + unparse(leaf)).columns();
            relations.add(new Relation(aliases.get(relations.size()), columns));
        }
        return new JoinedRelations(relations);
    }

    /** The relations, in the order their columns follow the target row's. */
    List<Relation> relations() {
        return relations;
    }

    /** Appends {@code relation.*} for each relation to the query's select list {@code items}. */
    void addColumns(List<SqlNode> items) {
        for (Relation r : relations) {
            items.add(SqlIdentifier.star(
                    List.of(r.alias(), ""), SqlParserPos.ZERO, List.of(SqlParserPos.ZERO, SqlParserPos.ZERO)));
        }
    }

    /** The number of columns {@link #addColumns} adds. */
    int width() {
        int n = 0;
        for (Relation r : relations) {
            n += r.columns().size();
        }
        return n;
    }

    private static void leaves(SqlNode node, List<SqlNode> out) {
        if (node instanceof SqlJoin join) {
            leaves(join.getLeft(), out);
            leaves(join.getRight(), out);
        } else {
            out.add(node);
        }
    }

    /**
     * The name a relation is known by: its alias or its table's name; null for another relation
     * without an alias (a function call).
     *
     * @throws TributaryException 42601 for a sub-query without an alias, as PostgreSQL 14
     */
    private static String alias(SqlNode leaf) {
        SqlNode relation = leaf.getKind() == SqlKind.LATERAL ? ((SqlCall) leaf).operand(0) : leaf;
        if (relation.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlCall) relation).operand(1)).getSimple();
        }
        if (relation instanceof SqlIdentifier id) {
            return id.names.get(id.names.size() - 1);
        }
        if (relation.isA(SqlKind.QUERY)) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "subquery in FROM must have an alias",
                    0,
                    null,
                    "For example, FROM (SELECT ...) [AS] foo.",
                    null);
        }
        return null;
    }

    private static boolean hasParameter(SqlNode leaf) {
        boolean[] found = {false};
        leaf.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlDynamicParam param) {
                found[0] = true;
                return param;
            }
        });
        return found[0];
    }
}
