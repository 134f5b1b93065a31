package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * Which select items of a statement are casts to a type with a modifier ({@code x::numeric(5,2)},
 * {@code CAST(x AS character(3))}), decided from the select list as written (as {@link
 * ColumnLabels} names the columns). PostgreSQL's {@code exprTypmod} keeps such a cast's modifier,
 * so its result column (and a view's column made of it) is {@code numeric(5,2)}, where Calcite's
 * type alone cannot tell it from arithmetic's DECIMAL(p,s), which PostgreSQL types plain {@code
 * numeric}. Stateless.
 */
final class ModifierCasts {
    private ModifierCasts() {}

    /**
     * One flag per select item of {@code query}'s leftmost select (false for the star item),
     * aligned with {@link ColumnLabels#of}'s labels; null when the query is no select.
     */
    static List<Boolean> of(SqlNode query) {
        return ColumnLabels.perItem(query, ModifierCasts::isModifierCast);
    }

    /**
     * Whether result column {@code column} (0-based, of {@code width}) is made by such a cast.
     *
     * @param casts {@link #of}'s list, or null
     * @param labels {@link ColumnLabels#of}'s labels for the same query, which place the star
     */
    static boolean isCast(List<Boolean> casts, List<String> labels, int column, int width) {
        return ColumnLabels.atColumn(casts, labels, column, width, false);
    }

    /** Whether {@code node} is such a cast, also as validated. */
    static boolean isModifierCast(SqlNode node) {
        return node instanceof SqlCall call
                && call.getKind() == SqlKind.CAST
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getCollectionsTypeName() == null
                && spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
                && (basic.getPrecision() > 0 || basic.getPrecision() == 0 && isTime(basic));
    }

    /** time(0) and timestamp(0) have a modifier, 0 (numeric(0) and varchar(0) are errors). */
    private static boolean isTime(SqlBasicTypeNameSpec spec) {
        String name = spec.getTypeName().getSimple();
        return name.startsWith("TIME");
    }
}
