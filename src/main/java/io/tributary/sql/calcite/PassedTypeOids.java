package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SearchPath;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;

/**
 * The {@code name} type OID (19) of the result columns that read a column of that type as it is
 * from a plain view, derived table or WITH query: PostgreSQL describes {@code SELECT u FROM v} of a
 * view column {@code current_user AS u} as {@code name}, where Tributary holds the value as text
 * and its rewrites turn {@code current_user} into a constant before Calcite sees it. Decided on the
 * statement as written, before views are expanded (as {@link ResultTypeOids} decides the select
 * items that are such expressions themselves): a view's columns as the catalog records them
 * ({@link ViewDef#columnOid}), a derived table's from its select items, names resolved as
 * PostgreSQL resolves them in the FROM items. One instance per statement, on the session's thread.
 */
final class PassedTypeOids {
    private static final int NAME_OID = 19;

    private final Catalog catalog;
    private final SearchPath path;
    /** Whether the select being read joins with USING or NATURAL. */
    private boolean merged;
    /** The WITH queries in scope, by name. */
    private final Map<String, SqlNode> ctes = new HashMap<>();

    private PassedTypeOids(Catalog catalog, SearchPath path, Map<String, SqlNode> ctes) {
        this.catalog = catalog;
        this.path = path;
        this.ctes.putAll(ctes);
    }

    /** One FROM item's columns: its name, their names and the OIDs to describe them with (0 for their type's). */
    private record Columns(String alias, List<String> names, List<Integer> oids) {}

    /**
     * One OID per result column of {@code query} (19 for a {@code name} column passed on, else 0);
     * null when the query is no select, or its columns cannot all be told apart here (a {@code *}
     * over a relation this does not know, a join with {@code USING}).
     *
     * @param path the session's search path, which unqualified relation names are resolved on
     */
    static List<Integer> of(SqlNode query, Catalog catalog, SearchPath path) {
        try {
            Columns columns = new PassedTypeOids(catalog, path, Map.of()).columnsOf(query, 0);
            return columns == null ? null : columns.oids();
        } catch (RuntimeException shapeNotKnown) {
            // a parse tree of a shape this does not follow: the columns keep their own types
            return null;
        }
    }

    /** The columns of {@code query}, named as PostgreSQL names them; null when not all are known. */
    private Columns columnsOf(SqlNode query, int depth) {
        if (depth > PgValidator.MAX_DERIVED_DEPTH) {
            return null;
        }
        if (query instanceof SqlWith with) {
            for (SqlNode item : with.withList) {
                SqlWithItem w = (SqlWithItem) item;
                ctes.put(w.name.getSimple(), w.query);
            }
            return columnsOf(with.body, depth + 1);
        }
        if (query instanceof SqlOrderBy order) {
            return columnsOf(order.query, depth + 1);
        }
        if (query.isA(SqlKind.SET_QUERY)) {
            return setOperation((SqlCall) query, depth);
        }
        if (!(query instanceof SqlSelect select)) {
            return null;
        }
        List<Columns> from = new ArrayList<>();
        if (select.getFrom() != null && !fromItems(select.getFrom(), from, depth)) {
            from = null;
        }
        List<String> labels = ColumnLabels.of(select);
        if (labels == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        List<Integer> oids = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            SqlNode item = select.getSelectList().get(i);
            SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            if (value instanceof SqlIdentifier id && id.isStar()) {
                if (from == null || merged && id.names.size() == 1 || !star(id, from, names, oids)) {
                    return null;
                }
                continue;
            }
            names.add(labels.get(i));
            int written = ResultTypeOids.ofExpression(value);
            oids.add(written == 0 && value instanceof SqlIdentifier id && from != null ? column(id, from) : written);
        }
        return new Columns(null, names, oids);
    }

    /**
     * A UNION, INTERSECT or EXCEPT: named by its first query, each column {@code name} where every
     * query's is (PostgreSQL's common type of them), else of its type.
     */
    private Columns setOperation(SqlCall call, int depth) {
        Columns first = null;
        List<Integer> oids = null;
        for (SqlNode operand : call.getOperandList()) {
            Columns columns = columnsOf(operand, depth + 1);
            if (columns == null || first != null && columns.oids().size() != oids.size()) {
                return null;
            }
            if (first == null) {
                first = columns;
                oids = new ArrayList<>(columns.oids());
            } else {
                for (int i = 0; i < oids.size(); i++) {
                    oids.set(i, oids.get(i).equals(columns.oids().get(i)) ? oids.get(i) : 0);
                }
            }
        }
        return first == null ? null : new Columns(null, first.names(), oids);
    }

    /** Adds the columns of {@code from}'s items to {@code out}; false when one is not known. */
    private boolean fromItems(SqlNode from, List<Columns> out, int depth) {
        if (from instanceof SqlJoin join) {
            if (join.isNatural() || join.getConditionType() == JoinConditionType.USING) {
                // they merge columns, whose order a * then has: this does not follow it
                merged = true;
            }
            return fromItems(join.getLeft(), out, depth) && fromItems(join.getRight(), out, depth);
        }
        SqlNode item = from;
        String alias = null;
        List<String> renamed = new ArrayList<>();
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            item = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            for (int i = 2; i < as.operandCount(); i++) {
                renamed.add(((SqlIdentifier) as.operand(i)).getSimple());
            }
        }
        Columns columns = null;
        if (item instanceof SqlIdentifier id) {
            columns = relation(id, alias, depth);
        } else if (item.isA(SqlKind.QUERY) && alias != null) {
            columns = new PassedTypeOids(catalog, path, ctes).columnsOf(item, depth + 1);
        }
        if (columns == null) {
            return false;
        }
        List<String> names = new ArrayList<>(columns.names());
        for (int i = 0; i < renamed.size() && i < names.size(); i++) {
            names.set(i, renamed.get(i));
        }
        out.add(new Columns(alias != null ? alias : columns.alias(), names, columns.oids()));
        return true;
    }

    /** The columns of the relation, view or WITH query {@code id} names; null when not known. */
    private Columns relation(SqlIdentifier id, String alias, int depth) {
        List<String> names = id.names;
        String local = names.get(names.size() - 1);
        if (names.size() == 1 && ctes.containsKey(local)) {
            // a WITH query sees the ones before it, not itself
            Map<String, SqlNode> visible = new HashMap<>(ctes);
            SqlNode cte = visible.remove(local);
            Columns columns = new PassedTypeOids(catalog, path, visible).columnsOf(cte, depth + 1);
            return columns == null ? null : new Columns(local, columns.names(), columns.oids());
        }
        if (names.size() > 2) {
            return null;
        }
        String key = names.size() == 2 ? Catalog.key(names.get(0), local) : catalog.resolve(path, local);
        Optional<ViewDef> view = catalog.view(key);
        List<String> columnNames = new ArrayList<>();
        List<Integer> oids = new ArrayList<>();
        if (view.isPresent()) {
            for (int i = 0; i < view.get().columns().size(); i++) {
                columnNames.add(view.get().columns().get(i).name());
                oids.add(view.get().columnOid(i) == NAME_OID ? NAME_OID : 0);
            }
            return new Columns(local, columnNames, oids);
        }
        Optional<TableDef> table = catalog.table(key);
        if (table.isEmpty()) {
            return null;
        }
        for (ColumnDef c : table.get().columns()) {
            if (!c.hidden()) {
                columnNames.add(c.name());
                oids.add(0);
            }
        }
        return new Columns(local, columnNames, oids);
    }

    /** Adds the columns {@code *} or {@code a.*} stands for; false when {@code a} is not found. */
    private static boolean star(SqlIdentifier id, List<Columns> from, List<String> names, List<Integer> oids) {
        String alias = id.names.size() == 1 ? null : id.names.get(id.names.size() - 2);
        boolean found = false;
        for (Columns c : from) {
            if (alias == null || c.alias().equals(alias)) {
                names.addAll(c.names());
                oids.addAll(c.oids());
                found = true;
            }
        }
        return found;
    }

    /** The OID of the column {@code id} names among {@code from}'s; 0 when it is not one found here. */
    private static int column(SqlIdentifier id, List<Columns> from) {
        String name = id.names.get(id.names.size() - 1);
        String alias = id.names.size() >= 2 ? id.names.get(id.names.size() - 2) : null;
        int found = 0;
        int matches = 0;
        for (Columns c : from) {
            if (alias != null && !alias.equals(c.alias())) {
                continue;
            }
            int index = c.names().indexOf(name);
            if (index >= 0) {
                found = c.oids().get(index);
                matches++;
            }
        }
        return matches == 1 ? found : 0;
    }
}
