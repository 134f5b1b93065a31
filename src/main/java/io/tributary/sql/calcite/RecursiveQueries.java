package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * PostgreSQL's rules for {@code WITH RECURSIVE}, which Calcite does not enforce (it runs an
 * aggregate in the recursive term, for instance, and never ends): a recursive query is
 * {@code non-recursive-term UNION [ALL] recursive-term}; the non-recursive term does not mention
 * the query; the recursive term mentions it once, not inside an expression subquery nor on the
 * nullable side of an outer join, and its SELECTs that read it use no aggregate function. (Window
 * functions are allowed there, as PostgreSQL allows them.) Errors are 42P19 with PostgreSQL's
 * messages and positions. Stateless.
 */
final class RecursiveQueries {
    private RecursiveQueries() {}

    /**
     * Checks every recursive WITH item in {@code statement}.
     *
     * @param sql the text positions refer to
     * @throws TributaryException 42P19 for a query PostgreSQL refuses
     */
    static void check(SqlNode statement, String sql) {
        List<SqlWith> withs = new ArrayList<>();
        collectWiths(statement, withs);
        for (SqlWith with : withs) {
            for (SqlNode item : with.withList) {
                if (item instanceof SqlWithItem w && w.recursive.booleanValue()) {
                    checkItem(w, sql);
                }
            }
        }
    }

    private static void collectWiths(SqlNode node, List<SqlWith> out) {
        if (node instanceof SqlWith with) {
            out.add(with);
        }
        if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    collectWiths(operand, out);
                }
            }
        } else if (node instanceof SqlNodeList list) {
            for (SqlNode n : list) {
                if (n != null) {
                    collectWiths(n, out);
                }
            }
        }
    }

    private static void checkItem(SqlWithItem item, String sql) {
        String name = item.name.getSimple();
        Walk all = new Walk(name);
        all.query(item.query, false);
        if (all.references.isEmpty()) {
            return; // RECURSIVE on a query that does not read itself is an ordinary WITH item
        }
        SqlNode body = item.query instanceof SqlOrderBy ob ? ob.query : item.query;
        if (!(body instanceof SqlCall union) || body.getKind() != SqlKind.UNION) {
            throw error(
                    "recursive query \"" + name
                            + "\" does not have the form non-recursive-term UNION [ALL] recursive-term",
                    item.name,
                    sql);
        }
        Walk nonRecursive = new Walk(name);
        nonRecursive.query(union.operand(0), false);
        if (!nonRecursive.references.isEmpty()) {
            throw error(
                    "recursive reference to query \"" + name + "\" must not appear within its non-recursive term",
                    nonRecursive.references.get(0),
                    sql);
        }
        Walk recursive = new Walk(name);
        recursive.query(union.operand(1), false);
        if (recursive.inSubquery != null) {
            throw error(
                    "recursive reference to query \"" + name + "\" must not appear within a subquery",
                    recursive.inSubquery,
                    sql);
        }
        if (recursive.inOuterJoin != null) {
            throw error(
                    "recursive reference to query \"" + name + "\" must not appear within an outer join",
                    recursive.inOuterJoin,
                    sql);
        }
        if (recursive.references.size() > 1) {
            throw error(
                    "recursive reference to query \"" + name + "\" must not appear more than once",
                    recursive.references.get(1),
                    sql);
        }
        if (recursive.aggregate != null) {
            throw error(
                    "aggregate functions are not allowed in a recursive query's recursive term",
                    recursive.aggregate,
                    sql);
        }
    }

    private static TributaryException error(String message, SqlNode at, String sql) {
        SqlParserPos pos = at.getParserPosition();
        return new TributaryException(
                SqlState.INVALID_RECURSION,
                message,
                SqlErrors.offset(sql, pos.getLineNum(), pos.getColumnNum()),
                null,
                null,
                null);
    }

    /** One pass over a term: where it reads the recursive name, and what the SELECTs reading it compute. */
    private static final class Walk {
        private final String name;
        final List<SqlNode> references = new ArrayList<>();
        /** The first reference inside an expression subquery, or null. */
        SqlNode inSubquery;
        /** The first reference on the nullable side of an outer join, or null. */
        SqlNode inOuterJoin;
        /** The first aggregate call in a SELECT that reads the name directly, or null. */
        SqlNode aggregate;

        Walk(String name) {
            this.name = name;
        }

        /** A query: a SELECT, a set operation, VALUES, ORDER BY or WITH around one. */
        void query(SqlNode node, boolean subquery) {
            if (node instanceof SqlSelect select) {
                int before = references.size();
                if (select.getFrom() != null) {
                    from(select.getFrom(), subquery);
                }
                boolean readsName = references.size() > before;
                for (SqlNode part : new SqlNode[] {
                    select.getSelectList(),
                    select.getWhere(),
                    select.getGroup(),
                    select.getHaving(),
                    select.getWindowList(),
                    select.getOrderList()
                }) {
                    if (part != null) {
                        expression(part, subquery, readsName);
                    }
                }
            } else if (node instanceof SqlOrderBy ob) {
                query(ob.query, subquery);
            } else if (node instanceof SqlWith with) {
                for (SqlNode item : with.withList) {
                    query(((SqlWithItem) item).query, subquery);
                }
                query(with.body, subquery);
            } else if (node instanceof SqlCall call) {
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null) {
                        if (isQuery(operand)) {
                            query(operand, subquery);
                        } else {
                            expression(operand, subquery, false);
                        }
                    }
                }
            } else if (node instanceof SqlNodeList list) {
                for (SqlNode n : list) {
                    if (n != null) {
                        expression(n, subquery, false);
                    }
                }
            }
        }

        /** A FROM item: table names, joins, aliases, derived tables (which are not subqueries here). */
        private void from(SqlNode node, boolean subquery) {
            from(node, subquery, false);
        }

        /** @param nullable whether {@code node} is on the nullable side of an outer join */
        private void from(SqlNode node, boolean subquery, boolean nullable) {
            if (node instanceof SqlIdentifier id) {
                if (id.names.size() == 1
                        && SqlNameMatchers.withCaseSensitive(true).matches(id.getSimple(), name)) {
                    references.add(id);
                    if (subquery && inSubquery == null) {
                        inSubquery = id;
                    }
                    if (nullable && inOuterJoin == null) {
                        inOuterJoin = id;
                    }
                }
            } else if (node instanceof SqlJoin join) {
                JoinType type = join.getJoinType();
                from(join.getLeft(), subquery, nullable || type == JoinType.RIGHT || type == JoinType.FULL);
                from(join.getRight(), subquery, nullable || type == JoinType.LEFT || type == JoinType.FULL);
                if (join.getCondition() != null) {
                    expression(join.getCondition(), subquery, false);
                }
            } else if (isQuery(node)) {
                query(node, subquery);
            } else if (node instanceof SqlCall call) {
                // AS, LATERAL, TABLE(...): the first operand is what is read
                List<SqlNode> operands = call.getOperandList();
                if (!operands.isEmpty() && operands.get(0) != null) {
                    from(operands.get(0), subquery, nullable);
                }
            }
        }

        /** An expression; a query inside it is a subquery. */
        private void expression(SqlNode node, boolean subquery, boolean readsName) {
            if (isQuery(node)) {
                query(node, true);
                return;
            }
            if (node instanceof SqlCall call) {
                if (call.getKind() == SqlKind.OVER) {
                    // the windowed function is not an aggregate of this SELECT; its arguments may hold one
                    SqlNode function = call.operand(0);
                    if (function instanceof SqlCall f) {
                        for (SqlNode argument : f.getOperandList()) {
                            if (argument != null) {
                                expression(argument, subquery, readsName);
                            }
                        }
                    }
                    expression(call.operand(1), subquery, readsName);
                    return;
                }
                if (readsName && aggregate == null && AggregateCalls.isAggregate(call)) {
                    aggregate = call;
                }
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null) {
                        expression(operand, subquery, readsName);
                    }
                }
            } else if (node instanceof SqlNodeList list) {
                for (SqlNode n : list) {
                    if (n != null) {
                        expression(n, subquery, readsName);
                    }
                }
            }
        }

        private static boolean isQuery(SqlNode node) {
            return node instanceof SqlSelect
                    || node instanceof SqlOrderBy
                    || node instanceof SqlWith
                    || node.getKind() == SqlKind.UNION
                    || node.getKind() == SqlKind.INTERSECT
                    || node.getKind() == SqlKind.EXCEPT
                    || node.getKind() == SqlKind.VALUES;
        }
    }
}
