package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Casts to and from array types as PostgreSQL answers them: an array cast to text printed as
 * {@code array_out} does, and the casts Calcite's code would answer otherwise refused. Called by
 * {@link PgValidator#deriveType} for each cast before Calcite derives its type; validating thread,
 * stateless.
 */
final class ArrayCasts {
    private ArrayCasts() {}

    /**
     * Refuses a cast to an array type that Calcite's code would answer otherwise than PostgreSQL:
     * of text (Calcite cannot read PostgreSQL's array text at run time; an array constant is read
     * while parsing, {@link PgSyntaxText}), and of an array to another element type (Calcite's
     * cast truncates numbers, drops a numeric's scale, prints booleans in capitals and fails on a
     * NULL element; an {@code ARRAY[...]} constructor's elements are cast one by one instead,
     * {@link ArrayElementCasts}).
     *
     * @throws TributaryException 0A000 for such a cast
     */
    static void refuseToArray(PgValidator validator, SqlValidatorScope scope, SqlCall cast) {
        if (cast.operandCount() != 2
                || !(cast.operand(1) instanceof SqlDataTypeSpec spec)
                || !(spec.getTypeNameSpec() instanceof SqlCollectionTypeNameSpec)) {
            return;
        }
        RelDataType from = validator.deriveType(scope, cast.operand(0));
        if (SqlTypeUtil.isCharacter(from)) {
            throw TributaryException.notSupported(
                    "casting text to an array type (other than an array constant such as '{1,2}'::int[])");
        }
        RelDataType to = spec.deriveType(validator);
        if (from.getComponentType() != null
                && to.getComponentType() != null
                && from.getComponentType().getSqlTypeName()
                        != to.getComponentType().getSqlTypeName()) {
            throw TributaryException.notSupported("casting " + PgTypeOf.name(from) + " to " + PgTypeOf.name(to)
                    + " (other than an ARRAY[...] constructor's elements)");
        }
    }

    /**
     * Puts the operand of a cast of an array to a string type through {@code pg_array_text}, which
     * prints it as PostgreSQL's {@code array_out} does ({@code ARRAY[1,2]::text} is {@code {1,2}});
     * Calcite has no such cast (42846).
     *
     * @throws TributaryException 0A000 for an array of elements whose run-time values do not tell
     *     their type (dates, times, timestamps, intervals)
     */
    static void printAsText(PgValidator validator, SqlValidatorScope scope, SqlCall cast) {
        if (cast.operandCount() != 2
                || !(cast.operand(1) instanceof SqlDataTypeSpec spec)
                || spec.getTypeNameSpec() instanceof SqlCollectionTypeNameSpec
                || !SqlTypeUtil.isCharacter(spec.deriveType(validator))) {
            return;
        }
        RelDataType from = validator.deriveType(scope, cast.operand(0));
        if (from.getComponentType() == null) {
            return;
        }
        PgScalarCalls.refuseUnprintableElements(from, "a cast to text");
        SqlParserPos pos = cast.operand(0).getParserPosition();
        SqlFunction text = new SqlUnresolvedFunction(
                new SqlIdentifier(List.of("pg_array_text"), pos),
                null,
                null,
                null,
                null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
        cast.setOperand(0, new SqlBasicCall(text, List.of(cast.operand(0)), pos));
    }
}
