package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
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
 * PostgreSQL's type of a view's or derived table's column whose values Tributary holds as another
 * type, for {@link TypeOfArguments}: a column made of a {@code pg_typeof} call is {@code regtype}
 * (held as text), one made of an expression {@link TypeOfArguments#ofExpression} names ({@code
 * current_user}: {@code name}, a cast to {@code oid} ...) is that type. The type is read where it is
 * still written: the select item the column comes from, through derived tables, WITH queries and
 * expanded plain views, and for a materialized view, whose stored column keeps only the type its
 * values are held as, the select item of its stored query. Called during validation on the
 * validating thread; stateless.
 */
final class ViewColumnTypes {
    private ViewColumnTypes() {}

    /**
     * PostgreSQL's name of the type of the column {@code column} names in {@code scope}, when that
     * column passes on such a value; null otherwise, and for anything that does not resolve
     * (validation reports that where it always did).
     */
    static String of(PgValidator validator, SqlValidatorScope scope, SqlIdentifier column) {
        return of(validator, scope, column, 0);
    }

    /** PostgreSQL's name of the type a select item, as written, is known to have; null if not known. */
    static String ofItem(SqlNode item) {
        if (isTypeOfCall(item)) {
            return "regtype";
        }
        return TypeOfArguments.ofExpression(item);
    }

    private static String of(PgValidator validator, SqlValidatorScope scope, SqlIdentifier column, int depth) {
        try {
            SqlQualified qualified = scope.fullyQualify(column);
            if (qualified.namespace == null) {
                return null;
            }
            SqlValidatorTable table = qualified.namespace.getTable();
            if (table != null) {
                CatalogTable stored = table.unwrap(CatalogTable.class);
                return stored == null || !stored.table().isView()
                        ? null
                        : ofStoredView(stored.table(), Util.last(qualified.suffix()));
            }
            List<String> names = qualified.namespace.getRowType().getFieldNames();
            int field = validator.getCatalogReader().nameMatcher().indexOf(names, Util.last(qualified.suffix()));
            return field < 0 ? null : ofField(validator, qualified.namespace, field, depth);
        } catch (RuntimeException unresolved) {
            return null;
        }
    }

    /** The type of field {@code field} of the derived relation {@code namespace}, from its select item. */
    private static String ofField(PgValidator validator, SqlValidatorNamespace namespace, int field, int depth) {
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
            return item instanceof SqlIdentifier id
                    ? of(validator, validator.getSelectScope(select), id, depth + 1)
                    : ofItem(item);
        } else if (node instanceof SqlWithItem withItem) {
            inner = withItem.query;
        } else if (node instanceof SqlWith with) {
            inner = with.body;
        } else if (node != null && node.getKind() == SqlKind.AS) {
            inner = ((SqlCall) node).operand(0);
        } else {
            return null;
        }
        SqlValidatorNamespace next = validator.getNamespace(inner);
        return next == null || next == resolved ? null : ofField(validator, next, field, depth + 1);
    }

    /**
     * The type of materialized view {@code view}'s column {@code name}, from the select item of its
     * stored query that made it; null when that query's list has a star (the items do not line up
     * with the columns) or the item is of no such type.
     */
    private static String ofStoredView(TableDef view, String name) {
        int visible = 0;
        int position = -1;
        for (ColumnDef c : view.columns()) {
            if (c.name().equals(name)) {
                // a hidden column (the row id) is made by no select item
                position = c.hidden() ? -1 : visible;
                break;
            }
            if (!c.hidden()) {
                visible++;
            }
        }
        if (position < 0 || view.query() == null) {
            return null;
        }
        if (!(ColumnLabels.leftmostQuery(ViewExpansion.parse(view.query())) instanceof SqlSelect select)) {
            return null;
        }
        List<SqlNode> items = select.getSelectList().getList();
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                return null;
            }
        }
        return position < items.size() ? ofItem(unaliased(items.get(position))) : null;
    }

    private static SqlNode unaliased(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    /** Whether {@code node} calls {@code pg_typeof}, also as {@link TypeOfArguments} has rewritten it. */
    private static boolean isTypeOfCall(SqlNode node) {
        if (!(node instanceof SqlCall call) || !(call.getOperator() instanceof SqlFunction f)) {
            return false;
        }
        String name = f.getName();
        return name.equalsIgnoreCase(PgTypeOf.NAME)
                || name.equalsIgnoreCase(TypeOfArguments.NAMED)
                || name.equalsIgnoreCase(TypeOfArguments.NAMED_AFTER);
    }
}
