package io.tributary.sql.calcite;

import java.util.Set;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * jsonb's {@code ||} (concatenation, {@link PgJsonbOperators#pg_op_jsonb_concat}) and {@code -}
 * (deletion by key, index or keys, {@link PgJsonbOperators#pg_op_jsonb_delete}), which Calcite's
 * validation refuses: how to rewrite such a refused call, given the operand types its refusal
 * names. Called by {@link DateArithmetic#rewrite} on the planning thread; stateless.
 */
final class JsonbOperands {
    private static final String JSONB = "JSONB";
    private static final Set<String> STRINGS = Set.of("CHAR", "VARCHAR");
    private static final Set<String> INDEXES = Set.of("INTEGER", "SMALLINT");
    private static final Set<String> KEY_ARRAYS = Set.of("CHAR ARRAY", "VARCHAR ARRAY");

    private JsonbOperands() {}

    /**
     * The rewrite of {@code left op right} (Calcite's type names, precision removed) for jsonb, or
     * null. A string beside jsonb is read as jsonb for {@code ||} only when it is a constant, as
     * PostgreSQL reads an unknown-typed constant; a text value there is text concatenation in
     * PostgreSQL, which this leaves refused.
     */
    static DateArithmetic.Rewrite rewrite(String op, String left, String right) {
        if (op.equals("||") && (left.equals(JSONB) || right.equals(JSONB))) {
            boolean leftFits = left.equals(JSONB) || STRINGS.contains(left);
            boolean rightFits = right.equals(JSONB) || STRINGS.contains(right);
            if (!leftFits || !rightFits) {
                return null;
            }
            return (a, b, pos) -> constantOrJsonb(a, left) && constantOrJsonb(b, right)
                    ? PgIntervals.call("pg_op_jsonb_concat", pos, a, b)
                    : null;
        }
        if (op.equals("-")
                && left.equals(JSONB)
                && (STRINGS.contains(right) || INDEXES.contains(right) || KEY_ARRAYS.contains(right))) {
            return (a, b, pos) -> PgIntervals.call("pg_op_jsonb_delete", pos, a, b);
        }
        return null;
    }

    private static boolean constantOrJsonb(SqlNode operand, String type) {
        return type.equals(JSONB) || operand instanceof SqlCharStringLiteral;
    }
}
