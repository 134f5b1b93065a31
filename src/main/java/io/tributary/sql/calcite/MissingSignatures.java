package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Refuses, with PostgreSQL's 42883, calls that Calcite's validation accepts but PostgreSQL has no
 * function for, because PostgreSQL casts the argument to the parameter's type only by assignment or
 * explicitly: a bigint, numeric or float count for {@code left}, {@code right}, {@code lpad},
 * {@code rpad} and {@code repeat} or position for {@code substr} (they take integer), and a float where {@link PgNumberFunctions} takes numeric ({@code
 * min_scale(1.5::float8)}; not {@code width_bucket}, which has a float8 form). A value that is not
 * text where a text function takes text ({@code ltrim(5, '5')}) reaches here already cast to text,
 * so it is not refused yet (README's known limits). Called by {@link PgArithmetic} for each call of a
 * validated plan and of a view's expressions; stateless.
 */
final class MissingSignatures {
    /** Calcite's or Tributary's calls whose second argument PostgreSQL declares integer. */
    private static final Set<String> INTEGER_COUNT = Set.of("LEFT", "RIGHT", "LPAD", "RPAD", "REPEAT");

    private MissingSignatures() {}

    /**
     * Returns when PostgreSQL has a function for {@code call}'s argument types.
     *
     * @throws TributaryException 42883 naming the call with PostgreSQL's argument type names
     */
    static void check(RexCall call, RelDataTypeFactory types) {
        if (call.getOperator() instanceof SqlUserDefinedFunction function
                && function.getFunction() instanceof ScalarFunctionImpl scalar) {
            Class<?> declaring = scalar.method.getDeclaringClass();
            String name = scalar.method.getName();
            // width_bucket has PostgreSQL's float8 form
            if (declaring != PgNumberFunctions.class || name.equals("width_bucket")) {
                return;
            }
            for (int i = 0; i < call.getOperands().size(); i++) {
                SqlTypeName parameter = function.getFunction()
                        .getParameters()
                        .get(i)
                        .getType(types)
                        .getSqlTypeName();
                SqlTypeName argument = call.getOperands().get(i).getType().getSqlTypeName();
                if (parameter == SqlTypeName.DECIMAL && SqlTypeName.APPROX_TYPES.contains(argument)) {
                    throw refusal(name, call);
                }
            }
            return;
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (INTEGER_COUNT.contains(name)
                && call.getOperands().size() >= 2
                && !implicitlyInteger(call.getOperands().get(1))) {
            throw refusal(name.toLowerCase(Locale.ROOT), call);
        }
        if ((name.equals("SUBSTRING") || name.equals("SUBSTR"))
                && call.getOperands().size() >= 2) {
            for (RexNode operand :
                    call.getOperands().subList(1, call.getOperands().size())) {
                if (!implicitlyInteger(operand)) {
                    throw refusal("substr", call);
                }
            }
        }
    }

    /**
     * Whether PostgreSQL converts {@code operand} to integer implicitly: a smallint or integer (and
     * a NULL or a value of a type Calcite leaves open), not a bigint, numeric or float, which
     * convert by assignment only (Calcite could not implement {@code lpad('a', 3::numeric)}: an
     * internal error).
     */
    private static boolean implicitlyInteger(RexNode operand) {
        SqlTypeName type = operand.getType().getSqlTypeName();
        return !(type == SqlTypeName.BIGINT || type == SqlTypeName.DECIMAL || SqlTypeName.APPROX_TYPES.contains(type));
    }

    private static TributaryException refusal(String name, RexCall call) {
        String arguments = call.getOperands().stream()
                .map(RexNode::getType)
                .map(t -> NoMatchingSignature.pgName(t.getFullTypeString()))
                .collect(Collectors.joining(", "));
        return NoMatchingSignature.noFunction(name + "(" + arguments + ")", 0);
    }
}
