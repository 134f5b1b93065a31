package io.tributary.sql.calcite;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * PostgreSQL's rules for the operands of its concatenations and text formatting, which take a
 * value of any type where Calcite's signatures ask for a string: {@code concat(1, 'a')}, {@code
 * concat_ws}, {@code format}; and {@code ||}, which is {@code anynonarray || text} and {@code text
 * || anynonarray}, so takes a number only beside a string ({@code 1 || 'a'}, not {@code 1 || 2}).
 * Called by {@link PgTypeCoercion#builtinFunctionCoercion}, which then leaves such a call's
 * operands to Calcite's coercion instead of refusing a non-string one. Stateless.
 */
final class ConcatenationOperands {
    /** Functions PostgreSQL declares with parameters of any type. */
    private static final Set<String> ANY_TYPE = Set.of("CONCAT", "CONCAT_WS", "FORMAT");

    private ConcatenationOperands() {}

    /**
     * Whether PostgreSQL takes {@code operandTypes} as they are for the function or operator
     * named {@code name}: true for {@code concat}, {@code concat_ws} and {@code format} whatever
     * their types, and for {@code ||} when one operand is a string; false for any other name, whose
     * operands PostgreSQL's implicit coercions apply to.
     */
    static boolean anyType(String name, List<RelDataType> operandTypes) {
        return ANY_TYPE.contains(name.toUpperCase(Locale.ROOT)) || (name.equals("||") && concatenation(operandTypes));
    }

    /** Whether one of the two operands {@code ||} is given is of a string type, so PostgreSQL has an operator for it. */
    private static boolean concatenation(List<RelDataType> operandTypes) {
        return operandTypes.stream().anyMatch(SqlTypeUtil::isCharacter);
    }
}
