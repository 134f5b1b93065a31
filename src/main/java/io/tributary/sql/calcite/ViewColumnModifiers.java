package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's types, with their modifiers, of a materialized view's columns. PostgreSQL's {@code
 * exprTypmod} keeps a modifier only for a column read as it is and for a cast to a type with one
 * ({@code x::numeric(5,2)}, {@code x::char(3)}); arithmetic's numeric has none ({@code n + 1} of a
 * numeric(12,2) is {@code numeric}). Calcite's DECIMAL(p,s) of arithmetic and its CHAR(n), which
 * {@link TypeMapping#fromRelType} holds as text, would otherwise become the view's column types. As
 * {@link CalcitePreparedQuery} describes a query's result columns. Stateless.
 */
final class ViewColumnModifiers {
    private ViewColumnModifiers() {}

    /**
     * The types of {@code root}'s result columns as the view's columns, given the types Tributary
     * holds them as ({@code planned}, one per column of {@code root.fields}): a numeric(p,s) that
     * keeps no modifier is {@code numeric}, a CHAR(n) that keeps one is {@code character(n)}, any
     * other type is the planned one. Types differ only in modifiers and in character(n) against
     * text, whose values are the same padded strings, so the view's rows are unchanged.
     *
     * @param casts {@link ModifierCasts#of} of the query as written, or null
     * @param labels {@link ColumnLabels#of}'s labels of the same query
     */
    static List<DataType> of(RelRoot root, List<Boolean> casts, List<String> labels, List<DataType> planned) {
        int width = root.fields.size();
        List<RelDataType> validated = root.validatedRowType.getFieldList().stream()
                .map(f -> f.getType())
                .toList();
        List<DataType> types = new ArrayList<>(planned.size());
        for (int i = 0; i < planned.size(); i++) {
            DataType type = planned.get(i);
            boolean keepsModifier = isColumnAsItIs(root, i) || ModifierCasts.isCast(casts, labels, i, width);
            if (type.kind() == TypeKind.NUMERIC && type.precision() > 0 && !keepsModifier) {
                type = DataType.NUMERIC;
            } else if (type.kind() == TypeKind.TEXT
                    && keepsModifier
                    && i < validated.size()
                    && validated.get(i).getSqlTypeName() == SqlTypeName.CHAR) {
                type = DataType.bpchar(validated.get(i).getPrecision());
            }
            types.add(type);
        }
        return types;
    }

    /** Whether result column {@code column} is a relation's column read as it is (not derived from it). */
    private static boolean isColumnAsItIs(RelRoot root, int column) {
        RelColumnOrigin origin = root.rel
                .getCluster()
                .getMetadataQuery()
                .getColumnOrigin(root.rel, root.fields.get(column).getKey());
        return origin != null && !origin.isDerived();
    }
}
