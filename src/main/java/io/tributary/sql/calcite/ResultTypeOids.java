package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlNode;

/**
 * The type OIDs a statement's result columns are described with where PostgreSQL's type is one
 * Tributary holds its values as another type, decided from the select list as written (as {@link
 * ColumnLabels} names the columns): a {@code pg_typeof} call is PostgreSQL's {@code regtype}
 * (2206), whose text is the type's name, what Tributary's text value holds; a session function
 * PostgreSQL types {@code name} ({@code current_user}, {@code current_schema},
 * {@code current_database()} ...) and a cast to name are {@code name} (19), whose text and binary
 * forms are text's ({@link TypeOfArguments#ofExpression}). Stateless.
 */
final class ResultTypeOids {
    private static final int REGTYPE_OID = 2206;
    private static final int NAME_OID = 19;

    private ResultTypeOids() {}

    /**
     * One OID per select item of {@code query}'s leftmost select (0 to keep the column's own type,
     * and for the star item), aligned with {@link ColumnLabels#of}'s labels; null when the query
     * is no select.
     */
    static List<Integer> of(SqlNode query) {
        return ColumnLabels.perItem(query, value -> isTypeOf(value) ? REGTYPE_OID : ofExpression(value));
    }

    /**
     * The OID to describe expression {@code value} (as written) with when it is no {@code pg_typeof}
     * call: {@code name}'s for what {@link TypeOfArguments#ofExpression} types {@code name}, else 0.
     */
    static int ofExpression(SqlNode value) {
        return "name".equals(TypeOfArguments.ofExpression(value)) ? NAME_OID : 0;
    }

    /**
     * The OID to describe result column {@code column} (0-based, of {@code width}) with, or 0 to
     * keep its type's.
     *
     * @param oids {@link #of}'s list, or null
     * @param labels {@link ColumnLabels#of}'s labels for the same query, which place the star
     */
    static int of(List<Integer> oids, List<String> labels, int column, int width) {
        return ColumnLabels.atColumn(oids, labels, column, width, 0);
    }

    /** Whether {@code oid}, one {@link #of} answered, is {@code name}'s. */
    static boolean isName(int oid) {
        return oid == NAME_OID;
    }

    private static boolean isTypeOf(SqlNode node) {
        return node instanceof SqlCall call
                && call.getOperator() instanceof SqlFunction f
                && call.operandCount() == 1
                && f.getName().equalsIgnoreCase(PgTypeOf.NAME);
    }
}
