package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgArrayLiteral;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlInternalOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.TimeString;

/**
 * PostgreSQL's reading of a string constant (type {@code unknown}) among typed operands of a
 * comparison, an IN list, a CASE's or COALESCE's results, GREATEST's and LEAST's arguments, or an
 * {@code ARRAY[...]}'s elements ({@code ARRAY[i, '7']} is an integer array): it
 * takes the type of the typed operands and is read by that type's input function when the
 * statement is analysed, so {@code b IN ('t', 'yes')} holds booleans, {@code coalesce(d,
 * '2024-01-01')} is a date, and bad text is that type's input error (22P02, 22007, 22008) pointing
 * at the constant. Calcite would cast the text at run time, with its own readings ({@code 't'} is
 * no boolean to it) and no position. The constant is replaced by the typed literal it reads as;
 * one whose value has no such literal (a NaN, an infinity) is left to Calcite's cast. Beside an
 * interval column the constant becomes PostgreSQL's interval ({@code iv IN ('1 day')}, {@code
 * least(iv, '1 hour')}, {@code nullif(iv, '1 day')}). Beside an array the constant is PostgreSQL's
 * array text ({@link #array}): {@code a = '{}'} and {@code coalesce(a, '{1,2}')} compare with and
 * answer an array of {@code a}'s type.
 *
 * <p>A BETWEEN with a string constant bound is written as the two comparisons PostgreSQL's parser
 * makes of it ({@link #betweenAsComparisons}), which read the constant as above or, beside an
 * interval, as {@link IntervalOperands} does. Called by {@link PgValidator} on the validating
 * thread. Stateless.
 */
final class ConstructConstants {
    private ConstructConstants() {}

    /**
     * Replaces the string constants among {@code call}'s typed operands by the literals of the
     * operands' type, when all typed ones are of one type this reads ({@link #literal}); {@code
     * typeOf} gives an operand's validated type. Other calls, and constants beside text, mixed
     * types or only constants, are left alone.
     *
     * @throws TributaryException the type's input error at a constant it refuses
     */
    static void resolve(SqlCall call, Function<SqlNode, RelDataType> typeOf) {
        SqlKind kind = call.getKind();
        if ((UnknownConstants.COMPARISONS.contains(kind) || DISTINCT.contains(kind)) && call.operandCount() == 2) {
            RelDataType type = commonType(call.getOperandList(), typeOf);
            if (type != null && DISTINCT.contains(kind) && type.getSqlTypeName() != SqlTypeName.ARRAY) {
                type = null; // left to Calcite as before; an array's text only this reads
            }
            for (int i = 0; type != null && i < 2; i++) {
                call.setOperand(i, read(call.operand(i), type));
            }
        } else if (kind == SqlKind.IN || kind == SqlKind.NOT_IN) {
            if (call.operand(0).getKind() != SqlKind.ROW && call.operand(1) instanceof SqlNodeList list) {
                IntervalConstantKinds.besidePgIntervals(IntervalConstantKinds.inSlots(call), typeOf, false);
                List<SqlNode> operands = new ArrayList<>(list.getList());
                operands.add(call.operand(0));
                RelDataType type = commonType(operands, typeOf);
                for (int i = 0; type != null && i < list.size(); i++) {
                    list.set(i, read(list.get(i), type));
                }
            }
        } else if (call instanceof SqlCase sqlCase && sqlCase.getValueOperand() == null) {
            IntervalConstantKinds.besidePgIntervals(IntervalConstantKinds.results(sqlCase), typeOf, false);
            List<SqlNode> results = new ArrayList<>(sqlCase.getThenOperands().getList());
            results.add(sqlCase.getElseOperand());
            RelDataType type = commonType(results, typeOf);
            SqlNodeList thens = sqlCase.getThenOperands();
            for (int i = 0; type != null && i < thens.size(); i++) {
                thens.set(i, read(thens.get(i), type));
            }
            if (type != null) {
                sqlCase.setOperand(3, read(sqlCase.getElseOperand(), type));
            }
        } else if (kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || kind == SqlKind.GREATEST
                || kind == SqlKind.LEAST
                || call.getOperator().getName().equalsIgnoreCase("GREATEST")
                || call.getOperator().getName().equalsIgnoreCase("LEAST")) {
            IntervalConstantKinds.besidePgIntervals(IntervalConstantKinds.Slot.operands(call), typeOf, false);
            RelDataType type = commonType(call.getOperandList(), typeOf);
            if (type != null
                    && kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                    && !printsAsArrayElement(type)
                    && call.getOperandList().stream().anyMatch(ConstructConstants::stringConstant)) {
                // arrays of Calcite's intervals print Java's text, of numerics one scale: refused until right
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "ARRAY[...] of "
                                + (SqlTypeUtil.isInterval(type) || type.getSqlTypeName() == SqlTypeName.OTHER
                                        ? "interval"
                                        : "numeric")
                                + " values beside string constants is not supported yet");
            }
            for (int i = 0; type != null && i < call.operandCount(); i++) {
                call.setOperand(i, read(call.operand(i), type));
            }
        }
    }

    /** Whether an array of {@code type} prints its elements as PostgreSQL does (not Calcite's interval nor numeric). */
    private static boolean printsAsArrayElement(RelDataType type) {
        return type.getSqlTypeName() != SqlTypeName.DECIMAL
                && (type.getSqlTypeName() != SqlTypeName.OTHER || PgIntervals.isInterval(type))
                && !SqlTypeUtil.isInterval(type);
    }

    /**
     * {@code a BETWEEN b AND c} as {@code a >= b AND a <= c} ({@code NOT BETWEEN}: {@code a < b
     * OR a > c}), as PostgreSQL's parser writes it, when a bound is a string constant; null for
     * another node, and a SYMMETRIC BETWEEN.
     */
    static SqlNode betweenAsComparisons(SqlNode node) {
        if (!(node instanceof SqlCall call)
                || !(call.getOperator() instanceof SqlBetweenOperator between)
                || between.flag != SqlBetweenOperator.Flag.ASYMMETRIC
                || call.operandCount() != 3
                || !(stringConstant(call.operand(1)) || stringConstant(call.operand(2)))) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        SqlNode value = call.operand(0);
        if (between.isNegated()) {
            return SqlStdOperatorTable.OR.createCall(
                    pos,
                    SqlStdOperatorTable.LESS_THAN.createCall(pos, value, call.operand(1)),
                    SqlStdOperatorTable.GREATER_THAN.createCall(
                            pos, value.clone(value.getParserPosition()), call.operand(2)));
        }
        return SqlStdOperatorTable.AND.createCall(
                pos,
                SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(pos, value, call.operand(1)),
                SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(
                        pos, value.clone(value.getParserPosition()), call.operand(2)));
    }

    /**
     * {@code tree} with each BETWEEN {@link #betweenAsComparisons} rewrites so rewritten: the
     * tree validation sees, for {@link DateArithmetic#rewrite} to find a refused comparison in.
     */
    static SqlNode betweensAsComparisons(SqlNode tree) {
        return tree.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                SqlNode comparisons = betweenAsComparisons(visited);
                return comparisons == null ? visited : comparisons;
            }
        });
    }

    /**
     * The one type of the typed operands among {@code operands} when a string constant is among
     * them and this reads that type ({@link #literal}); null otherwise.
     */
    private static RelDataType commonType(List<SqlNode> operands, Function<SqlNode, RelDataType> typeOf) {
        RelDataType common = null;
        boolean constant = false;
        for (SqlNode operand : operands) {
            SqlNode node = notNullCastRemoved(operand);
            if (node instanceof SqlCharStringLiteral) {
                constant = true;
                continue;
            }
            if (node == null || node instanceof SqlDynamicParam || SqlUtil.isNullLiteral(node, false)) {
                continue;
            }
            RelDataType type = typeOf.apply(node);
            if (!READ.contains(type.getSqlTypeName())
                    && !PgIntervals.isInterval(type)
                    && type.getSqlTypeName() != SqlTypeName.ARRAY) {
                return null;
            }
            if (common == null) {
                common = type;
            } else if (common.getSqlTypeName() != type.getSqlTypeName()
                    || type.getComponentType() != null
                            && type.getComponentType().getSqlTypeName()
                                    != common.getComponentType().getSqlTypeName()) {
                return null;
            }
        }
        return constant ? common : null;
    }

    /** {@code IS [NOT] DISTINCT FROM}, whose string constant beside an array is read as one. */
    private static final Set<SqlKind> DISTINCT = Set.of(SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM);

    /** The types {@link #literal} reads a constant as; and an interval ({@link PgIntervals}), {@link #interval}. */
    private static final Set<SqlTypeName> READ = Set.of(
            SqlTypeName.BOOLEAN,
            SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER,
            SqlTypeName.BIGINT,
            SqlTypeName.DECIMAL,
            SqlTypeName.DATE,
            SqlTypeName.TIME,
            SqlTypeName.TIMESTAMP);

    /** {@code node}, a string constant read as {@code type}, inside Calcite's {@code CAST NOT NULL} too. */
    private static SqlNode read(SqlNode node, RelDataType type) {
        if (node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL) {
            call.setOperand(0, read(call.operand(0), type));
            return call;
        }
        if (!(node instanceof SqlCharStringLiteral text)) {
            return node;
        }
        SqlNode literal = PgIntervals.isInterval(type)
                ? interval(text)
                : type.getComponentType() != null
                        ? array(text, type.getComponentType())
                        : literal(text, type.getSqlTypeName());
        return literal == null ? node : literal;
    }

    /**
     * The array of element type {@code element} that the array text {@code text} reads as: an
     * {@code ARRAY[...]} of the elements read as {@link #literal} reads them (as text for a string
     * type, cast to it), or for {@code '{}'} an empty array of that type ({@link
     * ArrayFunctions#EMPTY_NAME}, whatever the type); null, leaving the constant to Calcite, for
     * elements of another type, or whose value has no literal.
     *
     * @throws TributaryException 22P02 for text that is no array constant, or an element's input
     *     error, at the constant
     */
    private static SqlNode array(SqlCharStringLiteral text, RelDataType element) {
        SqlParserPos pos = text.getParserPosition();
        List<String> texts;
        try {
            texts = PgArrayLiteral.elements(text.getValueAs(String.class));
        } catch (TributaryException e) {
            throw PositionedError.at(pos, e.sqlState(), e.getMessage(), e.hint());
        }
        SqlDataTypeSpec spec = SqlTypeUtil.convertTypeToSpec(element);
        if (texts.isEmpty()) {
            return ArrayFunctions.named(ArrayFunctions.EMPTY_NAME)
                    .createCall(pos, SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createNull(pos), spec));
        }
        SqlTypeName type = element.getSqlTypeName();
        boolean string = SqlTypeUtil.isCharacter(element);
        if (!string && !READ.contains(type)) {
            return null;
        }
        List<SqlNode> elements = new ArrayList<>(texts.size());
        for (String e : texts) {
            SqlNode value = e == null
                    ? SqlLiteral.createNull(pos)
                    : string ? SqlLiteral.createCharString(e, pos) : literal(SqlLiteral.createCharString(e, pos), type);
            if (value == null) {
                return null;
            }
            // a string keeps its own length (ARRAY['a', 'bb'] would pad 'a'), a NULL takes the type
            elements.add(e == null || string ? SqlStdOperatorTable.CAST.createCall(pos, value, spec) : value);
        }
        return SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(pos, elements);
    }

    /**
     * The literal of type {@code type} (one of {@link #READ}) that {@code text} reads as with
     * PostgreSQL's input function; null when Calcite has no literal of that value.
     *
     * @throws TributaryException the input function's error, at the constant
     */
    private static SqlNode literal(SqlCharStringLiteral text, SqlTypeName type) {
        SqlParserPos pos = text.getParserPosition();
        return switch (type) {
            case BOOLEAN -> SqlLiteral.createBoolean((Boolean) parse(text, DataType.BOOLEAN), pos);
            case SMALLINT -> cast(number(new BigDecimal((Short) parse(text, DataType.SMALLINT)), pos), type, pos);
            case INTEGER -> number(new BigDecimal((Integer) parse(text, DataType.INTEGER)), pos);
            case BIGINT -> cast(number(new BigDecimal((Long) parse(text, DataType.BIGINT)), pos), type, pos);
            case DECIMAL ->
                text.getValueAs(String.class).strip().equalsIgnoreCase("NaN")
                        ? null
                        : number((BigDecimal) parse(text, DataType.NUMERIC), pos);
            case DATE -> moment("DATE", (Integer) parse(text, DataType.DATE), pos);
            case TIMESTAMP -> moment("TIMESTAMP", (Long) parse(text, DataType.TIMESTAMP), pos);
            case TIME -> time(PgTextFormat.formatTime((Long) parse(text, DataType.TIME)), pos);
            default -> null;
        };
    }

    /**
     * {@code text} as PostgreSQL's interval, a {@code pg_interval} call: the type of an interval
     * column, which Calcite's interval literals are not.
     *
     * @throws TributaryException the interval's input error, at the constant
     */
    static SqlNode interval(SqlCharStringLiteral text) {
        parse(text, DataType.INTERVAL);
        return PgIntervals.call("pg_interval", text.getParserPosition(), text);
    }

    /**
     * The DATE or TIMESTAMP literal ({@code tag}) of {@code value} (days or microseconds since
     * 1970-01-01 as {@link PgTextFormat} keeps them); null for one Calcite's literal has not (an
     * infinity, a date BC).
     */
    private static SqlNode moment(String tag, long value, SqlParserPos pos) {
        String text;
        try {
            text = tag.equals("DATE") ? PgTextFormat.formatDate((int) value) : PgTextFormat.formatTimestamp(value);
        } catch (java.time.DateTimeException e) {
            return null;
        }
        return ProlepticLiterals.resolve((SqlUnknownLiteral) SqlLiteral.createUnknown(tag, text, pos));
    }

    private static SqlNode time(String clock, SqlParserPos pos) {
        if (clock.startsWith("24:")) {
            return null; // PostgreSQL's end of day, which Calcite's time has not
        }
        int point = clock.indexOf('.');
        return SqlLiteral.createTime(new TimeString(clock), point < 0 ? 0 : clock.length() - point - 1, pos);
    }

    /**
     * The value of {@code type} PostgreSQL's input function reads from {@code text}.
     *
     * @throws TributaryException its error (22P02, 22007, 22008), at the constant
     */
    static Object parse(SqlCharStringLiteral text, DataType type) {
        try {
            return PgTextFormat.parse(type, text.getValueAs(String.class));
        } catch (TributaryException e) {
            throw PositionedError.at(text.getParserPosition(), e.sqlState(), e.getMessage(), e.hint());
        }
    }

    private static SqlNode number(BigDecimal value, SqlParserPos pos) {
        SqlNumericLiteral magnitude = SqlLiteral.createExactNumeric(value.abs().toPlainString(), pos);
        return value.signum() < 0 ? SqlLiteral.createNegative(magnitude, pos) : magnitude;
    }

    /** {@code CAST(node AS type)}: the literal of a SMALLINT or BIGINT, which a number alone is not. */
    private static SqlNode cast(SqlNode node, SqlTypeName type, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
    }

    private static boolean stringConstant(SqlNode node) {
        return node instanceof SqlCharStringLiteral;
    }

    private static SqlNode notNullCastRemoved(SqlNode node) {
        return node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL
                ? call.operand(0)
                : node;
    }
}
