package io.tributary.sql.calcite;

import static org.apache.calcite.util.Static.RESOURCE;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.impl.ReflectiveFunctionBase;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercions narrowed to PostgreSQL's. PostgreSQL converts a string constant
 * ({@code '5'}, of type unknown until then), a NULL and a parameter to whatever type a function
 * or operator needs, but never a typed string (a column, a cast, a function's result) to a
 * number, date or interval, nor a number, date or boolean to a string. Calcite does all of these: {@code upper(int_col)} answered, {@code sum(text_col)} cast
 * the text at run time and failed at its first non-number. Refusing such a coercion here makes
 * Calcite's validator report that the call does not match its operator, which {@link SqlErrors}
 * gives as PostgreSQL's 42883 ({@code function upper(integer) does not exist}). Coercions
 * PostgreSQL also makes (integer to numeric, date to timestamp, constants) are Calcite's. The
 * rules this applies are in classes of their own: a string constant's type beside typed operands
 * ({@link UnknownConstants}) and among a construct's results ({@link CommonTypeResolution}), the
 * operands of {@code ||} and {@code concat} ({@link ConcatenationOperands}).
 *
 * <p>Installed by {@link #narrowed} in every validator Tributary makes: the JDBC connection's
 * ({@link PgPrepare}), the view planner's ({@link ViewQueryConverter}) and the rewrites'
 * ({@link DateIntervalSums#validator}). One instance per validator, used by the thread validating.
 */
final class PgTypeCoercion extends TypeCoercionImpl {
    private final CommonTypeResolution common;

    private PgTypeCoercion(RelDataTypeFactory factory, SqlValidator validator) {
        super(factory, validator);
        this.common = new CommonTypeResolution(this, factory, validator);
    }

    /** {@code config} with PostgreSQL's implicit coercions in place of Calcite's wider ones. */
    static SqlValidator.Config narrowed(SqlValidator.Config config) {
        return config.withTypeCoercionFactory(PgTypeCoercion::new).withTypeCoercionRules(CASTS);
    }

    /**
     * Calcite's cast rules, plus casts of its opaque {@code OTHER} values (json and jsonb) to
     * text, which {@link JsonPlans} then writes as calls of their output function.
     */
    private static final org.apache.calcite.sql.type.SqlTypeCoercionRule CASTS = withCastsToText(
            org.apache.calcite.sql.type.SqlTypeCoercionRule.instance().getTypeMapping());

    private static org.apache.calcite.sql.type.SqlTypeCoercionRule withCastsToText(
            java.util.Map<SqlTypeName, com.google.common.collect.ImmutableSet<SqlTypeName>> calcite) {
        java.util.Map<SqlTypeName, com.google.common.collect.ImmutableSet<SqlTypeName>> rules =
                new java.util.HashMap<>(calcite);
        for (SqlTypeName text : List.of(SqlTypeName.VARCHAR, SqlTypeName.CHAR)) {
            rules.put(
                    text,
                    com.google.common.collect.ImmutableSet.<SqlTypeName>builder()
                            .addAll(calcite.get(text))
                            .add(SqlTypeName.OTHER)
                            .build());
        }
        return org.apache.calcite.sql.type.SqlTypeCoercionRule.instance(rules);
    }

    @Override
    public boolean builtinFunctionCoercion(
            SqlCallBinding binding, List<RelDataType> operandTypes, List<SqlTypeFamily> expectedFamilies) {
        String name = binding.getOperator().getName();
        boolean anyType = ConcatenationOperands.anyType(name, operandTypes);
        if (!anyType) {
            for (int i = 0; i < operandTypes.size(); i++) {
                if (refused(binding.operand(i), operandTypes.get(i), expectedFamilies.get(i))) {
                    return false;
                }
            }
        }
        List<RelDataType> types = operandTypes;
        boolean coerced = false;
        for (int i = 0; i < operandTypes.size(); i++) {
            if (expectedFamilies.get(i) == SqlTypeFamily.BOOLEAN
                    && binding.operand(i) instanceof SqlCharStringLiteral text) {
                // PostgreSQL resolves the string constant of 'f' AND x as boolean input ('t', 'yes', 'off', ...,
                // 22P02 otherwise); Calcite casts no string to boolean implicitly
                Boolean value = (Boolean) io.tributary.common.types.PgTextFormat.parse(
                        io.tributary.common.types.DataType.BOOLEAN, text.getValueAs(String.class));
                org.apache.calcite.sql.SqlLiteral bool =
                        org.apache.calcite.sql.SqlLiteral.createBoolean(value, text.getParserPosition());
                RelDataType booleanType = factory.createSqlType(SqlTypeName.BOOLEAN);
                binding.getCall().setOperand(i, bool);
                updateInferredType(bool, booleanType);
                if (types == operandTypes) {
                    types = new ArrayList<>(operandTypes);
                }
                types.set(i, booleanType);
                coerced = true;
            }
        }
        SqlTypeName argument = UnknownConstants.numericArgument(name, operandTypes.size());
        if (argument != null) {
            // the type PostgreSQL resolves a string constant argument to
            RelDataType target = factory.createSqlType(argument);
            types = new ArrayList<>(types);
            for (int i = 0; i < types.size(); i++) {
                SqlTypeFamily family = expectedFamilies.get(i);
                if (binding.operand(i) instanceof SqlCharStringLiteral
                        && (family == SqlTypeFamily.NUMERIC || family == SqlTypeFamily.INTEGER)) {
                    coerced |= coerceOperandType(binding.getScope(), binding.getCall(), i, target);
                    types.set(i, target);
                }
            }
        }
        return super.builtinFunctionCoercion(binding, types, expectedFamilies) || coerced;
    }

    /**
     * Refuses a number where one of PostgreSQL's text functions that Tributary defines ({@link
     * PgTextFunctions}, {@code length}, {@link PgRegexpMatches}) takes text: PostgreSQL has no {@code ltrim(integer, unknown)}
     * or {@code length(integer)} (42883), where Calcite casts the number to text and answers. Not
     * {@code quote_nullable}, whose PostgreSQL form takes any element.
     */
    @Override
    public boolean userDefinedFunctionCoercion(SqlValidatorScope scope, SqlCall call, SqlFunction function) {
        if (function instanceof SqlUserDefinedFunction udf
                && udf.getFunction() instanceof ReflectiveFunctionBase reflective
                && (reflective.method.getDeclaringClass() == PgTextFunctions.class
                        || reflective.method.getDeclaringClass() == PgRegexpMatches.class
                        || reflective.method.getName().equals("pg_length"))
                // PostgreSQL's quote_nullable takes anyelement: quote_nullable(5) is '5'
                && !reflective.method.getName().equals("quote_nullable")) {
            Class<?>[] parameters = reflective.method.getParameterTypes();
            for (int i = 0; i < call.operandCount() && i < parameters.length; i++) {
                SqlNode operand = call.operand(i);
                if (parameters[i] == String.class
                        && !unknownTyped(operand)
                        && SqlTypeUtil.isNumeric(validator.deriveType(scope, operand))) {
                    return false;
                }
            }
        }
        return super.userDefinedFunctionCoercion(scope, call, function);
    }

    @Override
    public boolean binaryArithmeticCoercion(SqlCallBinding binding) {
        if (mismatched(binding)) {
            return false;
        }
        if (UnknownConstants.intervalBesideConstant(binding)) {
            // refused here, rewritten from the refusal (IntervalOperands)
            throw noOperator(
                    binding, binding.getOperator().getName(), binding.getOperandType(0), binding.getOperandType(1));
        }
        boolean resolved = UnknownConstants.resolveNumeric(binding);
        return super.binaryArithmeticCoercion(binding) || resolved;
    }

    /**
     * Calcite's validator takes a string as comparable to a number, date or boolean even when
     * nothing casts it (run time then fails, or codegen), so a mismatch is reported here.
     *
     * @throws org.apache.calcite.runtime.CalciteContextException for a typed string compared with a non-string
     */
    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        if (!quantified(binding) && mismatched(binding)) {
            String operator = binding.getOperator().getKind() == SqlKind.BETWEEN
                    ? ">="
                    : binding.getOperator().getName();
            throw noOperator(binding, operator, binding.getOperandType(0), binding.getOperandType(1));
        }
        if (!quantified(binding) && UnknownConstants.intervalBesideConstant(binding)) {
            // refused here, rewritten from the refusal (IntervalOperands)
            throw noOperator(
                    binding, binding.getOperator().getName(), binding.getOperandType(0), binding.getOperandType(1));
        }
        if (!quantified(binding) && binding.getOperandCount() == 2) {
            // bytea beside a string constant compares bytes (PostgreSQL's unknown resolved as bytea);
            // Calcite would compare the bytea's text with the string
            for (int i = 0; i < 2; i++) {
                if (binding.operand(i) instanceof SqlCharStringLiteral
                        && SqlTypeUtil.isBinary(binding.getOperandType(1 - i))) {
                    return readAsBytea(binding.getCall(), i);
                }
            }
        }
        return super.binaryComparisonCoercion(binding);
    }

    /**
     * PostgreSQL's resolution of a CASE's or COALESCE's result type ({@link
     * CommonTypeResolution#caseOrEquivalent}), else Calcite's.
     *
     * @throws CalciteContextException for a typed string beside a non-string result
     */
    @Override
    public boolean caseOrEquivalentCoercion(SqlCallBinding binding) {
        return common.caseOrEquivalent(binding) || super.caseOrEquivalentCoercion(binding);
    }

    /** The rules of CASE, COALESCE, GREATEST, set operations' and VALUES' result types, for {@link PgValidator}. */
    CommonTypeResolution commonTypes() {
        return common;
    }

    /**
     * A string constant that an operator or function takes as bytea ({@code b = '\x0102'}) becomes
     * the bytes PostgreSQL's bytea input reads from it (22P02 or 22023 for malformed input); Calcite's
     * cast, folded into a constant, would take its characters' UTF-16 bytes. Other coercions are Calcite's.
     */
    @Override
    protected boolean coerceOperandType(SqlValidatorScope scope, SqlCall call, int index, RelDataType targetType) {
        if (SqlTypeUtil.isBinary(targetType) && call.operand(index) instanceof SqlCharStringLiteral) {
            return readAsBytea(call, index);
        }
        return super.coerceOperandType(scope, call, index, targetType);
    }

    /** Replaces string constant {@code index} of {@code call} with the bytes of its bytea input; true. */
    private boolean readAsBytea(SqlCall call, int index) {
        SqlCharStringLiteral text = call.operand(index);
        org.apache.calcite.sql.SqlLiteral bytes = org.apache.calcite.sql.SqlLiteral.createBinaryString(
                io.tributary.common.types.PgTextFormat.parseBytea(text.getValueAs(String.class)),
                text.getParserPosition());
        call.setOperand(index, bytes);
        updateInferredType(bytes, bytes.createSqlType(factory));
        return true;
    }

    /** {@link #coerceOperandType}, for {@link CommonTypeResolution}. */
    boolean coerceOperand(SqlValidatorScope scope, SqlCall call, int index, RelDataType target) {
        return coerceOperandType(scope, call, index, target);
    }

    /** {@link #coerceColumnType}, for {@link CommonTypeResolution}. */
    boolean coerceColumn(SqlValidatorScope scope, SqlNodeList list, int index, RelDataType target) {
        return coerceColumnType(scope, list, index, target);
    }

    /**
     * Puts {@code replacement} where item {@code index} of {@code select}'s list (an input of a set
     * operation already validated) has its value, keeping its alias, and types it and the input's
     * column as {@code type}: for {@link CommonTypeResolution}, which swaps a Calcite interval
     * constant for PostgreSQL's beside an interval column.
     */
    void replaceColumn(SqlSelect select, int index, SqlNode replacement, RelDataType type) {
        SqlNodeList items = select.getSelectList();
        SqlNode item = items.get(index);
        if (item.getKind() == SqlKind.AS) {
            ((SqlCall) item).setOperand(0, replacement);
        } else {
            items.set(index, replacement);
        }
        SqlValidatorScope scope = validator.getSelectScope(select);
        validator.deriveType(scope, replacement);
        updateInferredColumnType(scope, select, index, type);
    }

    /** PostgreSQL has no {@code =} or {@code <} between boolean and a number ({@code b = 1}). */
    @Override
    protected boolean booleanEquality(SqlCallBinding binding, RelDataType left, RelDataType right) {
        return false;
    }

    @Override
    public boolean inOperationCoercion(SqlCallBinding binding) {
        SqlNode left = binding.operand(0);
        SqlNode right = binding.operand(1);
        if (left.getKind() != SqlKind.ROW && !quantified(binding)) {
            RelDataType leftType = binding.getOperandType(0);
            if (right instanceof SqlNodeList list) {
                for (SqlNode value : list) {
                    RelDataType valueType = validator.deriveType(binding.getScope(), value);
                    if (mismatched(left, leftType, value, valueType)) {
                        throw noOperator(binding, "=", leftType, valueType);
                    }
                }
            } else {
                // a sub-query's column has a type: a constant in its select list is text
                RelDataType rightType = binding.getOperandType(1);
                if (rightType.isStruct() && rightType.getFieldCount() == 1) {
                    RelDataType column = rightType.getFieldList().get(0).getType();
                    if (mismatched(left, leftType, null, column)) {
                        throw noOperator(binding, "=", leftType, column);
                    }
                }
            }
        }
        return super.inOperationCoercion(binding);
    }

    /**
     * Calcite's error for a call of {@code operator} on {@code left} and {@code right}, which
     * {@link SqlErrors} gives as PostgreSQL's {@code operator does not exist}.
     */
    private CalciteContextException noOperator(
            SqlCallBinding binding, String operator, RelDataType left, RelDataType right) {
        return validator.newValidationError(
                binding.getCall(),
                RESOURCE.canNotApplyOp2Type(operator, "'<" + left + "> " + operator + " <" + right + ">'", operator));
    }

    /**
     * Whether PostgreSQL refuses to convert {@code operand}, of type {@code type}, to a type of
     * {@code family} implicitly: a typed string to anything but a string, anything else to a
     * string. (An interval, Calcite's OTHER, is left to Calcite: Tributary's interval rewrites
     * rely on its coercions, as for {@code -iv}.)
     */
    private static boolean refused(SqlNode operand, RelDataType type, SqlTypeFamily family) {
        SqlTypeName name = type.getSqlTypeName();
        if (family == SqlTypeFamily.ANY
                || family.getTypeNames().contains(name)
                || name == SqlTypeName.NULL
                || name == SqlTypeName.ANY
                || unknownTyped(operand)) {
            return false;
        }
        boolean toText = family.getTypeNames().contains(SqlTypeName.VARCHAR);
        return SqlTypeUtil.isCharacter(type) != toText;
    }

    /**
     * Whether the call is {@code x op ANY/ALL (v)}. Left to Calcite: the catalog's vector columns
     * ({@code pg_partitioned_table.partclass}, an {@code oidvector}) are strings to Calcite, and
     * pg_dump compares an OID with their elements.
     */
    private static boolean quantified(SqlCallBinding binding) {
        SqlKind kind = binding.getOperator().getKind();
        return kind == SqlKind.SOME || kind == SqlKind.ALL;
    }

    /** Whether two operands of a binary operator (or BETWEEN's value and a bound) are a typed string and a non-string. */
    private boolean mismatched(SqlCallBinding binding) {
        int count = binding.getOperandCount();
        if (count < 2) {
            return false;
        }
        SqlNode first = binding.operand(0);
        RelDataType firstType = binding.getOperandType(0);
        for (int i = 1; i < count; i++) {
            if (mismatched(first, firstType, binding.operand(i), binding.getOperandType(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether PostgreSQL has no operator between {@code a} and {@code b}: one is a typed string,
     * the other not a string; a null {@code bNode} is a typed value.
     */
    private static boolean mismatched(SqlNode aNode, RelDataType a, SqlNode bNode, RelDataType b) {
        if (unknownTyped(aNode) || (bNode != null && unknownTyped(bNode)) || untyped(a) || untyped(b)) {
            return false;
        }
        return SqlTypeUtil.isCharacter(a) != SqlTypeUtil.isCharacter(b);
    }

    /** A NULL or a value whose type Calcite leaves open: no type category to match. */
    static boolean untyped(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.NULL || type.getSqlTypeName() == SqlTypeName.ANY;
    }

    /** A string constant, NULL or parameter: PostgreSQL gives it the type its use needs. */
    static boolean unknownTyped(SqlNode node) {
        return node instanceof SqlCharStringLiteral
                || node instanceof SqlDynamicParam
                || SqlUtil.isNullLiteral(node, false);
    }
}
