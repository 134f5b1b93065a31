package io.tributary.sql.calcite;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A USING or NATURAL join's merged column named by a client outside the select list's own
 * expressions, written as the one expression Calcite's select-list expansion gives it ({@code
 * COALESCE(p.g, q.g)}): in WHERE, HAVING and ORDER BY, and, in a grouped query, as a select item of
 * its own. Calcite resolves such a name there to one side's column or finds it ambiguous, so {@code
 * ... JOIN q USING (g) WHERE g > 0} was 42702 and {@code SELECT g, count(*) ... GROUP BY g ORDER BY
 * g} (or {@code HAVING g > 0}) was 42803, where PostgreSQL reads the merged column. Sub-queries are
 * left alone (their own names come first). Used by {@link PgValidator#validateWhereClause} on the
 * validating thread, before Calcite validates any of these clauses.
 */
final class MergedColumnReferences {
    private final SqlNameMatcher matcher;

    /** The merged columns' names of the select's FROM (its USING lists and NATURAL joins' columns). */
    private final List<String> names;

    /** The merged expression Calcite gives a simple identifier; null when it is not a merged column. */
    private final Function<SqlIdentifier, @Nullable SqlNode> merged;

    MergedColumnReferences(
            SqlNameMatcher matcher, List<String> names, Function<SqlIdentifier, @Nullable SqlNode> merged) {
        this.matcher = matcher;
        this.names = names;
        this.merged = merged;
    }

    /** Rewrites {@code select}'s references to merged columns in place. */
    void rewrite(SqlSelect select) {
        if (names.isEmpty()) {
            return;
        }
        Set<String> outputNames = new HashSet<>();
        for (SqlNode item : select.getSelectList()) {
            String alias = SqlValidatorUtil.alias(item);
            if (alias != null) {
                outputNames.add(alias);
            }
        }
        SqlNodeList group = select.getGroup();
        if (group != null) {
            for (int i = 0; i < group.size(); i++) {
                group.set(i, ordinalItem(select, group.get(i)).accept(new Replacer()));
            }
        }
        if (select.getWhere() != null) {
            select.setWhere(select.getWhere().accept(new Replacer()));
        }
        if (select.getHaving() != null) {
            select.setHaving(select.getHaving().accept(new Replacer()));
        }
        SqlNodeList order = select.getOrderList();
        if (order != null) {
            for (int i = 0; i < order.size(); i++) {
                SqlNode key = order.get(i);
                if (!namesOutputColumn(key, outputNames)) {
                    order.set(i, key.accept(new Replacer()));
                }
            }
        }
    }

    /**
     * The select item a GROUP BY ordinal names when that item is a column name alone ({@code GROUP
     * BY 1} of {@code SELECT g}), which Calcite would resolve to one side's column; else {@code key}.
     */
    private SqlNode ordinalItem(SqlSelect select, SqlNode key) {
        if (key instanceof SqlNumericLiteral literal && literal.isInteger()) {
            int ordinal = literal.intValue(false);
            SqlNodeList items = select.getSelectList();
            if (ordinal >= 1
                    && ordinal <= items.size()
                    && items.get(ordinal - 1) instanceof SqlIdentifier id
                    && mergedOrNull(id) != null) {
                return id.clone(id.getParserPosition());
            }
        }
        return key;
    }

    /** Whether an ORDER BY key is an output column's name alone, which PostgreSQL reads first. */
    private boolean namesOutputColumn(SqlNode key, Set<String> outputNames) {
        SqlNode bare = key;
        while (bare.getKind() == SqlKind.DESCENDING
                || bare.getKind() == SqlKind.NULLS_FIRST
                || bare.getKind() == SqlKind.NULLS_LAST) {
            bare = ((SqlCall) bare).operand(0);
        }
        if (!(bare instanceof SqlIdentifier id) || !id.isSimple()) {
            return false;
        }
        for (String name : outputNames) {
            if (matcher.matches(name, id.getSimple())) {
                return true;
            }
        }
        return false;
    }

    private @Nullable SqlNode mergedOrNull(SqlIdentifier id) {
        if (!id.isSimple() || matcher.indexOf(names, id.getSimple()) < 0) {
            return null;
        }
        SqlNode expression = merged.apply(id);
        return expression == null ? null : SqlUtil.stripAs(expression);
    }

    /** Replaces merged-column names in an expression, not within sub-queries, windows or aliases. */
    private final class Replacer extends SqlShuttle {
        @Override
        public @Nullable SqlNode visit(SqlIdentifier id) {
            SqlNode expression = mergedOrNull(id);
            return expression == null ? id : expression;
        }

        @Override
        public @Nullable SqlNode visit(SqlCall call) {
            if (call.isA(SqlKind.QUERY) || call.getKind() == SqlKind.WINDOW || call.getKind() == SqlKind.OVER) {
                return call;
            }
            if (call.getKind() == SqlKind.AS) {
                SqlNode operand = call.operand(0).accept(this);
                if (operand != call.operand(0)) {
                    call.setOperand(0, operand);
                }
                return call;
            }
            return super.visit(call);
        }
    }
}
