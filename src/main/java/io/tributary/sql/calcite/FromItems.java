package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * The walk over one FROM clause that the rewrites giving FROM items their PostgreSQL meaning share:
 * into both sides of every join, down to each item, whose {@code AS} (if any) is handed over with
 * it, so a rewrite may replace the relation, its alias, or both. Sub-queries, LATERAL items, WITH
 * and set operations are not entered here: the {@link StatementRewrite} calling this visits each
 * SELECT they hold as a call of its own, and so walks its FROM clause in turn. Stateless; any
 * thread.
 */
final class FromItems {
    private FromItems() {}

    /** What a rewrite does with one FROM item. */
    @FunctionalInterface
    interface Replacer {
        /**
         * @param relation the item without its alias
         * @param alias the {@code AS} call whose first operand is {@code relation}, or null when the
         *     item has no alias
         * @return what stands in the FROM clause instead of the whole item (alias included): {@link
         *     #unchanged} to keep it
         */
        SqlNode replace(SqlNode relation, SqlCall alias);
    }

    /**
     * Replaces each item of {@code select}'s FROM clause (when it has one) through {@code replacer},
     * in the order they are written (a join's left side before its right).
     */
    static void replaceIn(SqlSelect select, Replacer replacer) {
        if (select.getFrom() != null) {
            select.setFrom(replace(select.getFrom(), replacer));
        }
    }

    /**
     * {@code from} (a FROM clause, or one item such as a DML target) with each of its items
     * replaced through {@code replacer}; joins are changed in place and kept.
     */
    static SqlNode replace(SqlNode from, Replacer replacer) {
        if (from instanceof SqlJoin join) {
            join.setLeft(replace(join.getLeft(), replacer));
            join.setRight(replace(join.getRight(), replacer));
            return join;
        }
        if (from instanceof SqlCall as && as.getKind() == SqlKind.AS) {
            return replacer.replace(as.operand(0), as);
        }
        return replacer.replace(from, null);
    }

    /** The whole item {@link Replacer#replace} was given, for a rewrite that leaves it. */
    static SqlNode unchanged(SqlNode relation, SqlCall alias) {
        return alias != null ? alias : relation;
    }

    /** The item with {@code relation} in place of its relation, under the alias it had (if any). */
    static SqlNode withRelation(SqlCall alias, SqlNode relation) {
        if (alias == null) {
            return relation;
        }
        alias.setOperand(0, relation);
        return alias;
    }
}
