package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
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
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses (0A000) the queries Calcite 1.42 answers wrongly: a sub-query in a select list that is
 * correlated with a derived table, plain view (expanded into one) or CTE of the same FROM ({@code SELECT x.s, (SELECT w FROM b
 * WHERE b.id = x.s) FROM (SELECT w AS s, id FROM b) x}). Calcite then reads the derived table's
 * columns by the wrong positions: the sub-query or the outer columns come out of other columns
 * (a wrong answer) or planning fails with an index out of bounds (XX000). The same correlation in
 * WHERE, and select-list sub-queries over base tables (as psql's catalog queries use), are
 * answered correctly and pass. A reference counts as correlated when it is qualified by the
 * derived table's alias or, unqualified, names one of its columns; the second may refuse a
 * sub-query that meant its own column of that name, which is safe. Called by {@link
 * CalciteFrontend} on each parsed query, on the session's thread.
 */
final class DerivedTableCorrelation extends SqlBasicVisitor<Void> {
    /** CTE name (lower case) to its query, over the whole statement. */
    private final Map<String, SqlNode> ctes = new HashMap<>();

    private DerivedTableCorrelation() {}

    /** @throws TributaryException 0A000 for such a query */
    static void check(SqlNode statement) {
        statement.accept(new DerivedTableCorrelation());
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlWith with) {
            for (SqlNode item : with.withList) {
                SqlWithItem w = (SqlWithItem) item;
                ctes.put(w.name.getSimple().toLowerCase(Locale.ROOT), w.query);
            }
        }
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            Map<String, Set<String>> derived = new HashMap<>();
            derivedTables(select.getFrom(), derived);
            if (!derived.isEmpty()) {
                Set<String> columns = new HashSet<>();
                derived.values().forEach(columns::addAll);
                for (SqlNode item : select.getSelectList()) {
                    item.accept(new SubQueries(derived.keySet(), columns));
                }
            }
        }
        return super.visit(call);
    }

    /** Collects the FROM items of {@code from} that are derived tables or CTEs: alias to column names. */
    private void derivedTables(SqlNode from, Map<String, Set<String>> out) {
        if (from instanceof SqlJoin join) {
            derivedTables(join.getLeft(), out);
            derivedTables(join.getRight(), out);
            return;
        }
        SqlNode item = from;
        String alias = null;
        Set<String> columns = new HashSet<>();
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            item = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            for (int i = 2; i < as.operandCount(); i++) {
                columns.add(((SqlIdentifier) as.operand(i)).getSimple().toLowerCase(Locale.ROOT));
            }
        }
        SqlNode query = null;
        if (item instanceof SqlIdentifier id && id.isSimple() && ctes.containsKey(lower(id.getSimple()))) {
            query = ctes.get(lower(id.getSimple()));
            alias = alias == null ? id.getSimple() : alias;
        } else if (item.isA(SqlKind.QUERY)) {
            query = item;
        }
        if (query == null || alias == null) {
            return;
        }
        outputNames(query, columns);
        out.put(lower(alias), columns);
    }

    /** Adds the names a query's rows have, where the parse tree tells them. */
    private static void outputNames(SqlNode query, Set<String> out) {
        SqlNode q = query instanceof SqlOrderBy order ? order.query : query;
        if (!(q instanceof SqlSelect select)) {
            return;
        }
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
                out.add(lower(((SqlIdentifier) as.operand(1)).getSimple()));
            } else if (item instanceof SqlIdentifier id && !id.isStar()) {
                out.add(lower(id.names.get(id.names.size() - 1)));
            }
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** Finds sub-queries in a select item and refuses one that refers to a derived table. */
    private static final class SubQueries extends SqlBasicVisitor<Void> {
        private final Set<String> aliases;
        private final Set<String> columns;

        SubQueries(Set<String> aliases, Set<String> columns) {
            this.aliases = aliases;
            this.columns = columns;
        }

        @Override
        public Void visit(SqlCall call) {
            if (call.isA(SqlKind.QUERY)) {
                call.accept(new References());
                return null;
            }
            return super.visit(call);
        }

        /** Identifiers within one sub-query. */
        private final class References extends SqlBasicVisitor<Void> {
            @Override
            public Void visit(SqlIdentifier id) {
                boolean qualified = id.names.size() >= 2 && aliases.contains(lower(id.names.get(0)));
                boolean named = id.isSimple() && columns.contains(lower(id.getSimple()));
                if (qualified || named) {
                    throw TributaryException.notSupported(
                            "a select-list sub-query correlated with a derived table, view or CTE of the same FROM");
                }
                return null;
            }

            @Override
            public Void visit(SqlNodeList list) {
                for (SqlNode n : list) {
                    if (n != null) {
                        n.accept(this);
                    }
                }
                return null;
            }
        }
    }
}
