package io.tributary.sql.calcite;

import static org.apache.calcite.util.Static.RESOURCE;

import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's refusal of a comparison, containment or overlap between arrays of two different
 * number types: it has {@code =}, {@code <>}, {@code <}, {@code @>}, {@code &&} ... only for two
 * arrays of one element type and converts no array implicitly, so {@code ARRAY[1.5] = ARRAY[1]}
 * ({@code numeric[] = integer[]}) and {@code int_array = bigint_array} are 42883 (operator does
 * not exist), also in IS DISTINCT FROM, IN and {@code = ANY (SELECT ...)}, where Calcite widens the
 * elements and answers. Number types only: Tributary holds text and varchar(n) alike, so their
 * arrays cannot be told apart here. Called by {@link PgValidator#deriveType} before Calcite types
 * the call, whose coercion would cast one array to the other's type; stateless.
 */
final class ArrayOperandTypes {
    /** The calls {@link PgOperatorText} makes of PostgreSQL's array operators, by the operator written. */
    private static final Map<String, String> OPERATOR_CALLS = Map.of(
            "pg_op_jsonb_contains", "@>",
            "pg_op_jsonb_contained", "<@",
            "pg_op_array_overlap", "&&");

    private ArrayOperandTypes() {}

    /**
     * Refuses {@code call} when it compares, contains or overlaps an array of one number type with
     * an array of another.
     *
     * @throws org.apache.calcite.runtime.CalciteContextException Calcite's "cannot apply" error,
     *     which {@link SqlErrors} gives as PostgreSQL's 42883
     */
    static void check(PgValidator validator, SqlValidatorScope scope, SqlCall call) {
        SqlKind kind = call.getKind();
        // PostgreSQL resolves a comparison as one operator between two operands of one array type
        if (ComparisonKinds.ALL.contains(kind) && call.operandCount() == 2) {
            // IS [NOT] DISTINCT FROM is PostgreSQL's = underneath, and named so in its error
            String operator = kind == SqlKind.IS_DISTINCT_FROM || kind == SqlKind.IS_NOT_DISTINCT_FROM
                    ? "="
                    : call.getOperator().getName();
            refuseMismatch(
                    validator,
                    call,
                    operator,
                    type(validator, scope, call.operand(0)),
                    type(validator, scope, call.operand(1)));
        } else if ((kind == SqlKind.IN || kind == SqlKind.NOT_IN || kind == SqlKind.SOME || kind == SqlKind.ALL)
                && call.operandCount() == 2) {
            String operator = call.getOperator() instanceof SqlQuantifyOperator quantify
                    ? quantify.comparisonKind.sql
                    : kind == SqlKind.NOT_IN ? "<>" : "=";
            RelDataType left = type(validator, scope, call.operand(0));
            SqlNode right = call.operand(1);
            if (right instanceof SqlNodeList list) {
                for (SqlNode value : list) {
                    refuseMismatch(validator, call, operator, left, type(validator, scope, value));
                }
            } else if (right.isA(SqlKind.QUERY)) {
                // as Calcite's IN types it: the sub-query's row
                RelDataType row = validator.deriveType(scope, right);
                if (row.isStruct() && row.getFieldCount() == 1) {
                    refuseMismatch(
                            validator,
                            call,
                            operator,
                            left,
                            row.getFieldList().get(0).getType());
                }
            }
        } else if (call.operandCount() == 2) {
            String operator = OPERATOR_CALLS.get(call.getOperator().getName().toLowerCase(java.util.Locale.ROOT));
            if (operator != null) {
                refuseMismatch(
                        validator,
                        call,
                        operator,
                        type(validator, scope, call.operand(0)),
                        type(validator, scope, call.operand(1)));
            }
        }
    }

    private static RelDataType type(PgValidator validator, SqlValidatorScope scope, SqlNode operand) {
        return operand instanceof SqlNodeList ? null : validator.deriveType(scope, operand);
    }

    private static void refuseMismatch(
            PgValidator validator, SqlCall call, String operator, RelDataType left, RelDataType right) {
        String leftElement = numberElement(left);
        String rightElement = numberElement(right);
        if (leftElement != null && rightElement != null && !leftElement.equals(rightElement)) {
            throw validator.newValidationError(
                    call,
                    RESOURCE.canNotApplyOp2Type(
                            operator, "'<" + left + "> " + operator + " <" + right + ">'", operator));
        }
    }

    /** PostgreSQL's name of the number type of {@code type}'s elements; null if it is no array of numbers. */
    private static String numberElement(RelDataType type) {
        if (type == null || type.getSqlTypeName() != SqlTypeName.ARRAY || type.getComponentType() == null) {
            return null;
        }
        return switch (type.getComponentType().getSqlTypeName()) {
            case TINYINT, SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DECIMAL -> "numeric";
            case REAL -> "real";
            case FLOAT, DOUBLE -> "double precision";
            default -> null;
        };
    }
}
