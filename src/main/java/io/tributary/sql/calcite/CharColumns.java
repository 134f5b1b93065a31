package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Util;

/**
 * Tells which identifiers name a table's {@code character(n)} column, directly or through derived
 * tables, WITH queries and views, for {@link BpcharText}: a column made of a string constant is
 * CHAR to Calcite too but text in PostgreSQL, which is why the type alone does not tell. Called by
 * {@link PgValidator#deriveType} on the validating thread; stateless.
 */
final class CharColumns {
    private CharColumns() {}

    /**
     * Whether {@code node} names a {@code character(n)} column: an identifier of type CHAR that
     * {@code scope} resolves to a table, or to a derived table's, WITH query's or (expanded) view's
     * column that is itself such a column, possibly renamed ({@link #isCharField}). False for
     * anything it cannot resolve: validation reports that where it always did.
     */
    static boolean isCharColumn(PgValidator validator, SqlValidatorScope scope, SqlNode node) {
        try {
            SqlQualified qualified = scope.fullyQualify((SqlIdentifier) node);
            if (qualified.namespace == null || validator.deriveType(scope, node).getSqlTypeName() != SqlTypeName.CHAR) {
                return false;
            }
            if (qualified.namespace.getTable() != null) {
                return true;
            }
            List<String> names = qualified.namespace.getRowType().getFieldNames();
            int field = validator.getCatalogReader().nameMatcher().indexOf(names, Util.last(qualified.suffix()));
            return field >= 0 && isCharField(validator, qualified.namespace, field, 0);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether field {@code field} of the derived relation {@code namespace} is a table's {@code
     * character(n)} column passed through: the field's select item (past derived tables' column
     * lists, WITH items and WITH bodies) is an identifier, aliased or not, that {@link
     * #isCharColumn} takes in its SELECT's scope. Anything else (a constant, an expression, a set
     * operation, VALUES) is false: PostgreSQL's type of those is not bpchar, or not here.
     */
    private static boolean isCharField(PgValidator validator, SqlValidatorNamespace namespace, int field, int depth) {
        if (depth > PgValidator.MAX_DERIVED_DEPTH) {
            return false;
        }
        SqlValidatorNamespace resolved = namespace.resolve();
        if (resolved.getTable() != null) {
            return true;
        }
        SqlNode node = resolved.getNode();
        SqlNode inner;
        if (node instanceof SqlSelect select) {
            SelectScope selectScope = validator.getRawSelectScope(select);
            List<SqlNode> items = selectScope == null ? null : selectScope.getExpandedSelectList();
            if (items == null || field >= items.size()) {
                return false;
            }
            SqlNode item = items.get(field);
            if (item.getKind() == SqlKind.AS) {
                item = ((SqlCall) item).operand(0);
            }
            return item instanceof SqlIdentifier && isCharColumn(validator, validator.getSelectScope(select), item);
        } else if (node instanceof SqlWithItem withItem) {
            inner = withItem.query;
        } else if (node instanceof SqlWith with) {
            inner = with.body;
        } else if (node != null && node.getKind() == SqlKind.AS) {
            inner = ((SqlCall) node).operand(0);
        } else {
            return false;
        }
        SqlValidatorNamespace next = validator.getNamespace(inner);
        return next != null && next != resolved && isCharField(validator, next, field, depth + 1);
    }
}
