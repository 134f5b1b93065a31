package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.util.Util;

/**
 * Where a result column read as it is from a derived table, WITH query or expanded plain view
 * comes from, so it is described with the modifier PostgreSQL gives it: PostgreSQL's {@code
 * exprTypmod} follows such a column to the select item that made it ({@code SELECT t FROM v} of a
 * view column {@code t0::timestamp(1) AS t} is {@code timestamp(1)}, of a {@code timestamp(3)}
 * column {@code timestamp(3)}), where Calcite's column origins stop at the derived table. Computed from a validated
 * statement by {@link PgValidator#passedColumns}; handed from {@link PgPrepare} to {@link
 * CalciteFrontend} on the preparing thread ({@link #offer}, {@link #take}), as Calcite's JDBC
 * metadata has no place for it. Immutable lists; the hand-over is per thread.
 */
final class PassedColumns {
    private static final ThreadLocal<List<Passed>> LAST = new ThreadLocal<>();

    private PassedColumns() {}

    /**
     * One result column's source, found through one or more derived tables. (A type PostgreSQL
     * gives the item, such as {@code name}, is gone from the validated tree: {@link PassedTypeOids}.)
     *
     * @param origin the base relation's qualified name and column, as Calcite's column origins
     *     are written (schema, table, column last), when the column is a relation's column; else null
     * @param modifierCast whether that select item is a cast to a type with a modifier ({@link
     *     ModifierCasts})
     */
    record Passed(List<String> origin, boolean modifierCast) {}

    /**
     * One entry per result column of {@code top}'s select (null for a column computed at the top
     * or read straight from a relation, which Calcite's origins already name); null when {@code
     * top} is no select.
     */
    static List<Passed> of(PgValidator validator, SqlNode top) {
        SqlNode query = top instanceof SqlWith with ? with.body : top;
        query = query instanceof SqlOrderBy order ? order.query : query;
        if (!(query instanceof SqlSelect select)) {
            return null;
        }
        SelectScope raw = validator.getRawSelectScope(select);
        List<SqlNode> items = raw == null ? null : raw.getExpandedSelectList();
        if (items == null) {
            return null;
        }
        SqlValidatorScope scope = validator.getSelectScope(select);
        List<Passed> out = new ArrayList<>(items.size());
        for (SqlNode item : items) {
            out.add(unaliased(item) instanceof SqlIdentifier id ? through(validator, scope, id, 0) : null);
        }
        return out;
    }

    /** Hands {@code columns} (of the statement just prepared on this thread) to {@link #take}. */
    static void offer(List<Passed> columns) {
        LAST.set(columns);
    }

    /** What {@link #offer} last handed over on this thread, once; null when nothing was. */
    static List<Passed> take() {
        List<Passed> columns = LAST.get();
        LAST.remove();
        return columns;
    }

    private static Passed through(PgValidator validator, SqlValidatorScope scope, SqlIdentifier column, int depth) {
        try {
            SqlQualified qualified = scope.fullyQualify(column);
            if (qualified.namespace == null) {
                return null;
            }
            SqlValidatorTable table = qualified.namespace.getTable();
            if (table != null) {
                if (depth == 0 || qualified.suffix().size() != 1) {
                    return null;
                }
                List<String> origin = new ArrayList<>(table.getQualifiedName());
                origin.add(qualified.suffix().get(0));
                return new Passed(List.copyOf(origin), false);
            }
            List<String> names = qualified.namespace.getRowType().getFieldNames();
            int field = validator.getCatalogReader().nameMatcher().indexOf(names, Util.last(qualified.suffix()));
            return field < 0 ? null : ofField(validator, qualified.namespace, field, depth);
        } catch (RuntimeException unresolved) {
            // validation has resolved every select item; a shape this walk does not know passes nothing
            return null;
        }
    }

    /** The source of field {@code field} of the derived relation {@code namespace}. */
    private static Passed ofField(PgValidator validator, SqlValidatorNamespace namespace, int field, int depth) {
        if (depth > PgValidator.MAX_DERIVED_DEPTH) {
            return null;
        }
        SqlValidatorNamespace resolved = namespace.resolve();
        SqlNode node = resolved.getNode();
        SqlNode inner;
        if (node instanceof SqlSelect select) {
            SelectScope selectScope = validator.getRawSelectScope(select);
            List<SqlNode> items = selectScope == null ? null : selectScope.getExpandedSelectList();
            if (items == null || field >= items.size()) {
                return null;
            }
            SqlNode item = unaliased(items.get(field));
            if (item instanceof SqlIdentifier id) {
                return through(validator, validator.getSelectScope(select), id, depth + 1);
            }
            return ModifierCasts.isModifierCast(item) ? new Passed(null, true) : null;
        } else if (node instanceof SqlWithItem withItem) {
            inner = withItem.query;
        } else if (node instanceof SqlWith with) {
            inner = with.body;
        } else if (node instanceof SqlOrderBy order) {
            inner = order.query;
        } else if (node != null && node.getKind() == SqlKind.AS) {
            inner = ((SqlCall) node).operand(0);
        } else {
            return null;
        }
        SqlValidatorNamespace next = validator.getNamespace(inner);
        return next == null || next == resolved ? null : ofField(validator, next, field, depth + 1);
    }

    private static SqlNode unaliased(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }
}
