package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * PostgreSQL's array functions that keep their argument's element type ({@code array_append},
 * {@code array_prepend}, {@code array_cat}, {@code array_remove}, {@code array_replace}), {@code array_position},
 * {@code array_fill} (an array of its value's type), {@code array_dims} (text), the slice {@code
 * a[lo:hi]} ({@link #SLICE_NAME}) and the empty array ({@link #EMPTY_NAME}), as
 * Calcite operators typed from their arguments, which no reflective schema function can be. {@link
 * PgOperatorTable} offers them to every validator; generated code calls the {@link PgArrayOps}
 * method of the same name with boxed arguments, on the thread evaluating the expression. An
 * argument that is no array where an array belongs is 42883, as PostgreSQL's missing signature.
 * Immutable.
 */
final class ArrayFunctions extends SqlUserDefinedFunction {
    /** What each operator answers, as a function of its operand types. */
    private enum Shape {
        /** The array operand's type; never NULL. */
        GROWN,
        /** The array operand's type, NULL when the array is. */
        SAME,
        /** {@code integer}, NULL when not found. */
        POSITION,
        /** {@code ||}: {@code array_cat}'s type when both operands are arrays, else {@code GROWN}. */
        CONCAT,
        /** An array of the first operand's type; never NULL. */
        FILL,
        /** {@code text}, NULL for a NULL or empty array. */
        DIMS,
        /** The array operand's type, NULL when the array or another operand is. */
        SLICE,
        /** An unconstrained {@code numeric[]}, NULL when the array is. */
        NUMERIC
    }

    /**
     * {@code numeric[]} of a number array, each element keeping its own scale: what a CASE's or
     * COALESCE's number array results of different types pass through ({@link
     * CommonTypeResolution}), where Calcite's cast to one DECIMAL scale would print 16 decimals.
     */
    static final String NUMERIC_NAME = "pg_numeric_array";

    /** PostgreSQL's slice {@code a[lo:hi]} ({@link ArraySlices}). */
    static final String SLICE_NAME = "pg_array_slice";

    /**
     * {@code ||} with an array operand: {@code array_cat}, {@code array_append} or {@code
     * array_prepend} as the operand types say, which only validation knows (an array column looks
     * like any other column in the statement's text).
     */
    static final String CONCAT_NAME = "pg_array_concat";

    /**
     * An empty array of its one argument's type ({@code pg_empty_array(CAST(NULL AS integer))} is
     * an empty {@code integer[]}): what {@code ARRAY[]::int[]} and {@code '{}'::int[]} become
     * ({@link PgSyntaxText}) and {@code '{}'} beside an array ({@link ConstructConstants}), as
     * Calcite has no empty {@code ARRAY[]}.
     */
    static final String EMPTY_NAME = "pg_empty_array";

    /** An {@code arrayOperand} meaning "the first operand that is an array". */
    private static final int ANY_OPERAND = -1;

    /** An {@code arrayOperand} meaning "no operand is an array". */
    private static final int NO_OPERAND = -2;

    /** The operators by lower-case name. */
    private static final Map<String, SqlOperator> BY_NAME = Map.ofEntries(
            Map.entry("array_append", new ArrayFunctions("array_append", 0, 2, Shape.GROWN)),
            Map.entry("array_prepend", new ArrayFunctions("array_prepend", 1, 2, Shape.GROWN)),
            Map.entry("array_cat", new ArrayFunctions("array_cat", 0, 2, Shape.SAME)),
            Map.entry("array_remove", new ArrayFunctions("array_remove", 0, 2, Shape.SAME)),
            Map.entry("array_replace", new ArrayFunctions("array_replace", 0, 3, Shape.SAME)),
            Map.entry("array_position", new ArrayFunctions("array_position", 0, 2, Shape.POSITION)),
            Map.entry("array_fill", new ArrayFunctions("array_fill", 1, 2, Shape.FILL)),
            Map.entry("array_dims", new ArrayFunctions("array_dims", 0, 1, Shape.DIMS)),
            Map.entry(CONCAT_NAME, new ArrayFunctions(CONCAT_NAME, ANY_OPERAND, 2, Shape.CONCAT)),
            Map.entry(SLICE_NAME, new ArrayFunctions(SLICE_NAME, 0, 3, Shape.SLICE)),
            Map.entry(NUMERIC_NAME, new ArrayFunctions(NUMERIC_NAME, 0, 1, Shape.NUMERIC)),
            Map.entry(EMPTY_NAME, new ArrayFunctions(EMPTY_NAME, NO_OPERAND, 1, Shape.FILL)));

    /** The boxed class generated code holds a number of each type in. */
    private static final Map<SqlTypeName, Class<?>> NUMBER_CLASSES = Map.of(
            SqlTypeName.SMALLINT, Short.class,
            SqlTypeName.INTEGER, Integer.class,
            SqlTypeName.BIGINT, Long.class,
            SqlTypeName.DECIMAL, java.math.BigDecimal.class,
            SqlTypeName.REAL, Float.class,
            SqlTypeName.DOUBLE, Double.class);

    /** {@link #NUMBER_CLASSES}' types as Calcite's refusals spell them. */
    private static final java.util.Set<String> NUMBER_NAMES =
            java.util.Set.of("SMALLINT", "INTEGER", "BIGINT", "DECIMAL", "REAL", "DOUBLE", "FLOAT");

    private ArrayFunctions(String name, int arrayOperand, int arity, Shape shape) {
        super(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                binding -> type(binding, arrayOperand, shape),
                null,
                new Operands(arrayOperand, arity),
                new Implementation(name));
    }

    /** Every one of these operators. */
    static java.util.Collection<SqlOperator> all() {
        return BY_NAME.values();
    }

    /** The operator named {@code name} (any case), or null when it is none of these. */
    static SqlOperator named(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }

    /** Calcite's type {@code type} as a refusal spells it, or its elements' for an array. */
    private static String element(String type) {
        return type.endsWith(" ARRAY") ? type.substring(0, type.length() - " ARRAY".length()) : type;
    }

    /**
     * How to rewrite {@code left || right} that validation refused because an operand is an array
     * column or expression (which {@link PgArrayCalls} cannot tell from the text): {@link
     * #CONCAT_NAME}, as PostgreSQL's {@code anyarray || anyelement} and its kin, when both sides
     * have one element type. Called by {@link
     * DateArithmetic#rewrite} with the types of Calcite's refusal; null for other operators and
     * types. The rewrite gives null beside a string constant, which PostgreSQL reads as an array
     * (not done here: the refusal stands).
     */
    static DateArithmetic.Rewrite concatenation(String op, String left, String right) {
        if (!op.equals("||") || !(left.endsWith(" ARRAY") || right.endsWith(" ARRAY"))) {
            return null;
        }
        if (!element(left).equals(element(right))
                && !(NUMBER_NAMES.contains(element(left)) && NUMBER_NAMES.contains(element(right)))) {
            // integer[] || text has no operator in PostgreSQL; integer[] || numeric is numeric[]
            // there, as pg_array_concat's common element type gives
            return null;
        }
        return (a, b, pos) -> a instanceof org.apache.calcite.sql.SqlCharStringLiteral
                        || b instanceof org.apache.calcite.sql.SqlCharStringLiteral
                ? null
                : named(CONCAT_NAME).createCall(pos, a, b);
    }

    /**
     * Before validation derives {@code call}'s type: {@code a || b} of two arrays ({@code types}
     * tells, as an array column's name does not) of one element type, or of two number types,
     * becomes {@code array_cat(a, b)}, as PostgreSQL resolves it: a NULL operand adds nothing, and
     * {@code integer[] || numeric[]} is numeric[] with every element kept (Calcite's own array
     * concatenation answered NULL and misread the integers). Other operands are left alone.
     * Called by {@link PgValidator} on the validating thread.
     */
    static void resolveConcatenation(
            org.apache.calcite.sql.SqlBasicCall call,
            java.util.function.Function<org.apache.calcite.sql.SqlNode, RelDataType> types) {
        if (!call.getOperator().getName().equals("||") || call.operandCount() != 2) {
            return;
        }
        RelDataType a = types.apply(call.operand(0)).getComponentType();
        RelDataType b = types.apply(call.operand(1)).getComponentType();
        if (a != null
                && b != null
                && (a.getSqlTypeName() == b.getSqlTypeName()
                        || NUMBER_CLASSES.containsKey(a.getSqlTypeName())
                                && NUMBER_CLASSES.containsKey(b.getSqlTypeName()))) {
            call.setOperator(named("array_cat"));
        }
    }

    private static RelDataType type(SqlOperatorBinding binding, int arrayOperand, Shape shape) {
        RelDataTypeFactory types = binding.getTypeFactory();
        RelDataType array = binding.getOperandType(
                arrayOperand != ANY_OPERAND || binding.getOperandType(0).getSqlTypeName() == SqlTypeName.ARRAY
                        ? Math.max(arrayOperand, 0)
                        : 1);
        if (shape == Shape.CONCAT) {
            shape = binding.getOperandType(0).getSqlTypeName() == SqlTypeName.ARRAY
                            && binding.getOperandType(1).getSqlTypeName() == SqlTypeName.ARRAY
                    ? Shape.SAME
                    : Shape.GROWN;
        }
        if (arrayOperand == ANY_OPERAND || binding.getOperator().getName().equals("array_cat")) {
            array = commonArray(types, array, binding.getOperandType(0), binding.getOperandType(1));
        }
        if (binding.getOperator().getName().equals("array_replace")) {
            // array_replace(integer[], 2, 3.5) is numeric[]: the common type of the elements and both values
            array = commonArray(types, array, array, binding.getOperandType(1));
            array = commonArray(types, array, array, binding.getOperandType(2));
        }
        return switch (shape) {
            case GROWN -> types.createTypeWithNullability(array, false);
            case SAME ->
                binding.getOperandCount() == 2
                                && binding.getOperandType(0).getSqlTypeName() == SqlTypeName.ARRAY
                                && binding.getOperandType(1).getSqlTypeName() == SqlTypeName.ARRAY
                        ? types.createTypeWithNullability(
                                array,
                                binding.getOperandType(0).isNullable()
                                        && binding.getOperandType(1).isNullable())
                        : array;
            case POSITION -> types.createTypeWithNullability(types.createSqlType(SqlTypeName.INTEGER), true);
            case FILL -> types.createArrayType(types.createTypeWithNullability(binding.getOperandType(0), true), -1);
            case DIMS -> types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true);
            case SLICE -> types.createTypeWithNullability(array, true);
            case NUMERIC ->
                types.createTypeWithNullability(
                        types.createArrayType(
                                types.createTypeWithNullability(
                                        types.createSqlType(
                                                SqlTypeName.DECIMAL,
                                                TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                                                TypeMapping.UNCONSTRAINED_NUMERIC_SCALE),
                                        true),
                                -1),
                        array.isNullable());
            case CONCAT -> throw new IllegalStateException("resolved above");
        };
    }

    /**
     * {@code array}, or an array of the common type of its elements and {@code other}'s (elements)
     * when both are numbers of different types, as PostgreSQL resolves {@code integer[] ||
     * numeric} (numeric[]) and {@code array_cat(integer[], bigint[])} (bigint[]).
     */
    private static RelDataType commonArray(
            RelDataTypeFactory types, RelDataType array, RelDataType first, RelDataType second) {
        RelDataType a = first.getComponentType() != null ? first.getComponentType() : first;
        RelDataType b = second.getComponentType() != null ? second.getComponentType() : second;
        if (!NUMBER_CLASSES.containsKey(a.getSqlTypeName())
                || !NUMBER_CLASSES.containsKey(b.getSqlTypeName())
                || a.getSqlTypeName() == b.getSqlTypeName()) {
            return array;
        }
        RelDataType common = types.leastRestrictive(List.of(a, b));
        if (common == null) {
            return array;
        }
        if (common.getSqlTypeName() == SqlTypeName.DECIMAL) {
            // numeric[] keeps each element's own scale, as PostgreSQL's unconstrained numeric does
            common = types.createSqlType(
                    SqlTypeName.DECIMAL,
                    types.getTypeSystem().getMaxNumericPrecision(),
                    types.getTypeSystem().getMaxNumericScale());
        }
        RelDataType element = types.createTypeWithNullability(common, true);
        return types.createTypeWithNullability(types.createArrayType(element, -1), array.isNullable());
    }

    /** {@code arity} operands, the one at {@code arrayOperand} (if any) an array (42883 otherwise). */
    private record Operands(int arrayOperand, int arity) implements SqlOperandMetadata {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            boolean ok = arrayOperand == NO_OPERAND
                    || (arrayOperand == ANY_OPERAND
                            ? binding.getOperandType(0).getSqlTypeName() == SqlTypeName.ARRAY
                                    || binding.getOperandType(1).getSqlTypeName() == SqlTypeName.ARRAY
                            : binding.getOperandType(arrayOperand).getSqlTypeName() == SqlTypeName.ARRAY
                                    || binding.getOperandType(arrayOperand).getSqlTypeName() == SqlTypeName.NULL);
            if (!ok && throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return ok;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(arity);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(anyarray, anyelement)";
        }

        @Override
        public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
            return List.of();
        }

        @Override
        public List<String> paramNames() {
            return List.of();
        }
    }

    /** Generates {@code PgArrayOps.name(boxed arguments...)}. */
    private record Implementation(String name) implements ImplementableFunction {
        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }

        @Override
        public CallImplementor getImplementor() {
            return (translator, call, nullAs) -> {
                String name = name();
                if (name.equals(CONCAT_NAME)) {
                    boolean left = call.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.ARRAY;
                    boolean right = call.getOperands().get(1).getType().getSqlTypeName() == SqlTypeName.ARRAY;
                    name = left && right ? "array_cat" : left ? "array_append" : "array_prepend";
                }
                String method = name;
                Class<?>[] parameters = java.util.Arrays.stream(PgArrayOps.class.getMethods())
                        .filter(m -> m.getName().equals(method))
                        .findFirst()
                        .orElseThrow()
                        .getParameterTypes();
                List<org.apache.calcite.rex.RexNode> operands = call.getOperands();
                RelDataType component = call.getType().getComponentType() != null
                        ? call.getType().getComponentType()
                        : operands.stream()
                                .map(org.apache.calcite.rex.RexNode::getType)
                                .filter(t -> t.getComponentType() != null)
                                .map(RelDataType::getComponentType)
                                .findFirst()
                                .orElse(null);
                List<Expression> translated = translator.translateList(operands);
                // array_fill's dimensions are integers whatever its value's type
                Class<?> elementClass = component == null || name.equals("array_fill")
                        ? null
                        : NUMBER_CLASSES.get(component.getSqlTypeName());
                List<Expression> arguments = new ArrayList<>();
                for (int i = 0; i < operands.size(); i++) {
                    Expression value = Expressions.box(translated.get(i));
                    RelDataType own = operands.get(i).getType().getComponentType();
                    if (own != null && elementClass != null && own.getSqlTypeName() != component.getSqlTypeName()) {
                        // an integer[] joining a numeric element or array is a numeric[] (each element widened)
                        value = Expressions.call(
                                PgArrayOps.class, "widened", value, Expressions.constant(elementClass, Class.class));
                    }
                    // an element joining a numeric array takes the array's element class (an integer joining a
                    // numeric[] is a BigDecimal)
                    if (operands.get(i).getType().getComponentType() == null
                            && elementClass != null
                            && operands.get(i).getType().getSqlTypeName() != SqlTypeName.NULL) {
                        value = org.apache.calcite.adapter.enumerable.EnumUtils.convert(value, elementClass);
                    }
                    arguments.add(Expressions.convert_(value, parameters[i]));
                }
                return nullAs.handle(Expressions.call(PgArrayOps.class, method, arguments));
            };
        }
    }
}
