package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * PostgreSQL's check that a USING or NATURAL join's common column is one column on each side: in
 * {@code a CROSS JOIN b JOIN c USING (k)} where {@code a} and {@code b} both have {@code k} the left
 * side has two, which PostgreSQL refuses (42702). Calcite numbers the second apart ({@code k0})
 * before it looks, so it found one {@code k} and answered. Sides are counted by the columns' own
 * names, a join side having its inputs' columns with each merged common column once. Used by {@link
 * PgValidator#validateJoin} on the validating thread.
 */
final class JoinCommonColumns {
    private final SqlNameMatcher matcher;

    /** The own names of a join input's columns; null when they are not known (then nothing is checked). */
    private final Function<SqlNode, List<String>> inputNames;

    /** The merged columns of a join: its USING list or NATURAL columns; null for other joins. */
    private final Function<SqlJoin, List<String>> commonNames;

    JoinCommonColumns(
            SqlNameMatcher matcher,
            Function<SqlNode, List<String>> inputNames,
            Function<SqlJoin, List<String>> commonNames) {
        this.matcher = matcher;
        this.inputNames = inputNames;
        this.commonNames = commonNames;
    }

    /**
     * Checks {@code join}'s common columns, after Calcite validated it.
     *
     * @throws TributaryException 42702 for a common column a side has more than once
     */
    void check(SqlJoin join) {
        List<String> common = commonNames.apply(join);
        if (common == null || common.isEmpty()) {
            return;
        }
        checkSide(common, names(join.getLeft()), "left");
        checkSide(common, names(join.getRight()), "right");
    }

    private void checkSide(List<String> common, List<String> side, String which) {
        if (side == null) {
            return;
        }
        for (String name : common) {
            int count = 0;
            for (String column : side) {
                if (matcher.matches(column, name)) {
                    count++;
                }
            }
            if (count > 1) {
                throw new TributaryException(
                        SqlState.AMBIGUOUS_COLUMN,
                        "common column name \"" + name + "\" appears more than once in " + which + " table");
            }
        }
    }

    /** The own names of {@code node}'s columns; null when one of its inputs' is not known. */
    private List<String> names(SqlNode node) {
        if (!(node instanceof SqlJoin join)) {
            return inputNames.apply(node);
        }
        List<String> left = names(join.getLeft());
        List<String> right = names(join.getRight());
        if (left == null || right == null) {
            return null;
        }
        List<String> common = commonNames.apply(join);
        List<String> all = new ArrayList<>();
        if (common != null) {
            all.addAll(common);
            removeOnce(left, common);
            removeOnce(right, common);
        }
        all.addAll(left);
        all.addAll(right);
        return all;
    }

    private void removeOnce(List<String> names, List<String> common) {
        for (String name : common) {
            for (int i = 0; i < names.size(); i++) {
                if (matcher.matches(names.get(i), name)) {
                    names.remove(i);
                    break;
                }
            }
        }
    }
}
