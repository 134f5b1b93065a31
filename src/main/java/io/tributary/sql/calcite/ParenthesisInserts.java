package io.tributary.sql.calcite;

import java.util.Collections;
import java.util.List;

/**
 * Puts parentheses into a statement's text at given offsets, for the text rewrites that make
 * PostgreSQL syntax Babel's grammar cannot read parse ({@link WindowCastText}, {@link
 * BetweenBoundText}). Stateless.
 */
final class ParenthesisInserts {
    private ParenthesisInserts() {}

    /**
     * {@code sql} with a parenthesis inserted at each of {@code inserts}: an opening one encoded as
     * {@code 2 * offset}, a closing one as {@code 2 * offset + 1}, in any order (sorted here, so a
     * closing and an opening one at one offset come out as ")(" and nested pairs nest).
     *
     * @return {@code sql} itself when there is nothing to insert
     */
    static String apply(String sql, List<Long> inserts) {
        if (inserts.isEmpty()) {
            return sql;
        }
        Collections.sort(inserts);
        StringBuilder out = new StringBuilder(sql.length() + inserts.size());
        int copied = 0;
        for (long insert : inserts) {
            int at = (int) (insert >> 1);
            out.append(sql, copied, at).append((insert & 1) == 0 ? '(' : ')');
            copied = at;
        }
        return out.append(sql, copied, sql.length()).toString();
    }
}
