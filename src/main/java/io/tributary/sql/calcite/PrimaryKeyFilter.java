package io.tributary.sql.calcite;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import io.tributary.batch.KeyRange;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

/**
 * Recognizes scan filters that pin every primary-key column to a constant or parameter
 * ({@code id = 5}, {@code id = $1}), so the scan becomes one point read. Only numeric, text and
 * boolean keys qualify; anything else scans. The filters stay in the plan, so Calcite re-checks
 * the row: this is an access path, never a change of result.
 */
final class PrimaryKeyFilter {
    private PrimaryKeyFilter() {}

    /**
     * The primary-key values the filters fix, in primary-key order, or null when they do not fix
     * all of them.
     *
     * @param columns for each Calcite field, the table column it shows
     */
    static Object[] pinnedKey(TableDef table, int[] columns, List<RexNode> filters, DataContext root) {
        int[] pk = table.primaryKey();
        Object[] values = new Object[pk.length];
        boolean[] found = new boolean[pk.length];
        for (RexNode filter : RexUtil.flattenAnd(filters)) {
            if (!(filter instanceof RexCall call) || call.getKind() != SqlKind.EQUALS) {
                continue;
            }
            RexNode left = call.getOperands().get(0);
            RexNode right = call.getOperands().get(1);
            if (!(left instanceof RexInputRef)) {
                RexNode swap = left;
                left = right;
                right = swap;
            }
            if (!(left instanceof RexInputRef ref)) {
                continue;
            }
            int column = columns[ref.getIndex()];
            for (int k = 0; k < pk.length; k++) {
                if (pk[k] == column && !found[k]) {
                    Object v = constant(right, table.columns().get(column).type(), root);
                    if (v == null) {
                        return null;
                    }
                    values[k] = v;
                    found[k] = true;
                }
            }
        }
        for (boolean f : found) {
            if (!f) {
                return null;
            }
        }
        return values;
    }

    /**
     * Bounds the filters put on the first primary-key column ({@code id >= 10}, {@code id BETWEEN
     * $1 AND $2}, {@code id < 5}), or null when they put none. Each bound is a canonical value or
     * null for unbounded. Any bound the filters imply is a superset of the matching rows, and the
     * filters stay in the plan, so the range only narrows what is read.
     */
    static KeyRange firstColumnRange(TableDef table, int[] columns, List<RexNode> filters, DataContext root) {
        int first = table.primaryKey()[0];
        DataType type = table.columns().get(first).type();
        Object low = null;
        Object high = null;
        boolean lowInclusive = true;
        boolean highInclusive = true;
        for (RexNode filter : RexUtil.flattenAnd(filters)) {
            if (!(filter instanceof RexCall call) || call.getOperands().size() != 2) {
                continue;
            }
            if (call.getKind() == SqlKind.SEARCH) {
                // BETWEEN and IN lists arrive as SEARCH(column, Sarg): bound by the Sarg's span
                if (call.getOperands().get(0) instanceof RexInputRef ref
                        && columns[ref.getIndex()] == first
                        && call.getOperands().get(1) instanceof RexLiteral literal
                        && literal.getValue() instanceof Sarg<?> sarg
                        && !sarg.rangeSet.isEmpty()) {
                    Range<?> span = sarg.rangeSet.span();
                    if (span.hasLowerBound()) {
                        Object v = fromRaw(span.lowerEndpoint(), type);
                        if (v != null) {
                            low = v;
                            lowInclusive = span.lowerBoundType() == BoundType.CLOSED;
                        }
                    }
                    if (span.hasUpperBound()) {
                        Object v = fromRaw(span.upperEndpoint(), type);
                        if (v != null) {
                            high = v;
                            highInclusive = span.upperBoundType() == BoundType.CLOSED;
                        }
                    }
                }
                continue;
            }
            SqlKind kind = call.getKind();
            RexNode left = call.getOperands().get(0);
            RexNode right = call.getOperands().get(1);
            if (!(left instanceof RexInputRef)) {
                RexNode swap = left;
                left = right;
                right = swap;
                kind = kind.reverse();
            }
            if (!(left instanceof RexInputRef ref) || columns[ref.getIndex()] != first) {
                continue;
            }
            boolean lower =
                    kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.EQUALS;
            boolean upper = kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL || kind == SqlKind.EQUALS;
            if (!lower && !upper) {
                continue;
            }
            Object v = constant(right, type, root);
            if (v == null) {
                continue;
            }
            if (lower) {
                low = v;
                lowInclusive = kind != SqlKind.GREATER_THAN;
            }
            if (upper) {
                high = v;
                highInclusive = kind != SqlKind.LESS_THAN;
            }
        }
        return low == null && high == null ? null : new KeyRange(low, lowInclusive, high, highInclusive);
    }

    /** The canonical value of a literal or bound parameter for a key column, or null if unsupported. */
    private static Object constant(RexNode node, DataType type, DataContext root) {
        Object raw;
        // a constant lifted into a parameter (CAST(? AS INTEGER)) is widened to the key's type
        while (node instanceof RexCall cast && widensInteger(cast)) {
            node = cast.getOperands().get(0);
        }
        if (node instanceof RexLiteral literal) {
            raw = literal.getValue();
        } else if (node instanceof RexDynamicParam param) {
            raw = root.get("?" + param.getIndex());
        } else {
            return null;
        }
        return fromRaw(raw, type);
    }

    /**
     * Removes from {@code filters} the one filter that the key access path ({@link #pinnedKey} or
     * {@link #firstColumnRange}) answers exactly, so Calcite does not compile and evaluate it again
     * for every execution, a cost that bounded repeated statements such as {@code UPDATE ... WHERE
     * id BETWEEN $1 AND $2}. Only for a single-column SMALLINT, INTEGER or BIGINT key, where the
     * key read is exact, and only when one filter holds every comparison of the key with a
     * constant: that filter must be nothing but such comparisons, an {@code =} alone or at most one
     * lower and one upper bound, each with an integer constant. Anything else stays in the list.
     */
    static void removeAnswered(TableDef table, int[] columns, List<RexNode> filters, DataContext root) {
        int[] pk = table.primaryKey();
        if (pk.length != 1) {
            return;
        }
        TypeKind kind = table.columns().get(pk[0]).type().kind();
        if (kind != TypeKind.SMALLINT && kind != TypeKind.INTEGER && kind != TypeKind.BIGINT) {
            return;
        }
        int owner = -1;
        for (int f = 0; f < filters.size(); f++) {
            for (RexNode conjunct : RexUtil.flattenAnd(List.of(filters.get(f)))) {
                if (comparesKey(conjunct, columns, pk[0])) {
                    if (owner >= 0 && owner != f) {
                        return;
                    }
                    owner = f;
                }
            }
        }
        if (owner < 0) {
            return;
        }
        int equal = 0;
        int lower = 0;
        int upper = 0;
        List<RexNode> conjuncts = RexUtil.flattenAnd(List.of(filters.get(owner)));
        for (RexNode conjunct : conjuncts) {
            if (!comparesKey(conjunct, columns, pk[0])) {
                return;
            }
            RexCall call = (RexCall) conjunct;
            SqlKind k = call.getOperands().get(0) instanceof RexInputRef
                    ? call.getKind()
                    : call.getKind().reverse();
            RexNode other = call.getOperands().get(0) instanceof RexInputRef
                    ? call.getOperands().get(1)
                    : call.getOperands().get(0);
            if (!(exactInteger(other, root))) {
                return;
            }
            switch (k) {
                case EQUALS -> equal++;
                case GREATER_THAN, GREATER_THAN_OR_EQUAL -> lower++;
                case LESS_THAN, LESS_THAN_OR_EQUAL -> upper++;
                default -> {
                    return;
                }
            }
        }
        if (equal == 1 && conjuncts.size() == 1 || equal == 0 && lower <= 1 && upper <= 1) {
            filters.remove(owner);
        }
    }

    /** Whether {@code node} compares the key column with something that is not a column (or is a SEARCH on it). */
    private static boolean comparesKey(RexNode node, int[] columns, int key) {
        if (!(node instanceof RexCall call) || call.getOperands().size() != 2) {
            return false;
        }
        boolean comparison = switch (call.getKind()) {
            case EQUALS, GREATER_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, SEARCH -> true;
            default -> false;
        };
        if (!comparison) {
            return false;
        }
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexInputRef ref && columns[ref.getIndex()] == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code node} is a literal or bound parameter (seen through widening integer casts)
     * whose value is an integer: the key read then matches the comparison exactly.
     */
    private static boolean exactInteger(RexNode node, DataContext root) {
        while (node instanceof RexCall cast && widensInteger(cast)) {
            node = cast.getOperands().get(0);
        }
        if (integerWidth(node.getType().getSqlTypeName()) == 0) {
            return false;
        }
        Object raw = node instanceof RexLiteral literal
                ? literal.getValue()
                : node instanceof RexDynamicParam param ? root.get("?" + param.getIndex()) : null;
        return raw instanceof Long
                || raw instanceof Integer
                || raw instanceof Short
                || raw instanceof Byte
                || raw instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0;
    }

    /** Whether {@code call} casts an integer to an integer type at least as wide: the value stays the same. */
    private static boolean widensInteger(RexCall call) {
        if (call.getKind() != SqlKind.CAST) {
            return false;
        }
        int from = integerWidth(call.getOperands().get(0).getType().getSqlTypeName());
        int to = integerWidth(call.getType().getSqlTypeName());
        return from > 0 && to >= from;
    }

    /** Bytes of an integer type, 0 for other types. */
    private static int integerWidth(SqlTypeName type) {
        return switch (type) {
            case TINYINT -> 1;
            case SMALLINT -> 2;
            case INTEGER -> 4;
            case BIGINT -> 8;
            default -> 0;
        };
    }

    /** A literal's value (number, string, boolean) as the canonical value of a key column, or null. */
    private static Object fromRaw(Object raw, DataType type) {
        TypeKind kind = type.kind();
        if (!(kind.isNumeric() || kind.isString() || kind == TypeKind.BOOLEAN)) {
            return null;
        }
        if (raw instanceof NlsString s) {
            raw = s.getValue();
        }
        if (raw == null || !(raw instanceof Number || raw instanceof String || raw instanceof Boolean)) {
            return null;
        }
        if (raw instanceof Number n
                && kind != TypeKind.NUMERIC
                && kind != TypeKind.REAL
                && kind != TypeKind.DOUBLE
                && new BigDecimal(n.toString()).stripTrailingZeros().scale() > 0) {
            // id = 1.5 on an integer key matches nothing; rounding it to a key would be wrong
            return null;
        }
        try {
            return Values.assign(raw, null, type);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
