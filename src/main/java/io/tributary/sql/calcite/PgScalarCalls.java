package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The scalar calls and casts of a validated plan whose Calcite runtime answers differently from
 * PostgreSQL, replaced by calls of {@link PgScalarFunctions} of the same type (so row types stay as
 * validated): float, numeric, timestamp, time and boolean to text (PostgreSQL's float text, a
 * numeric's leading 0, the fraction of a second, {@code true}/{@code false} where Calcite prints
 * {@code TRUE}), text to date, time, timestamp, the floats and bytea (PostgreSQL's input forms and SQLSTATEs), {@code
 * date ± days} (22008 past PostgreSQL's dates), float to
 * boolean (42846), {@code round} of a float (half to even), {@code sqrt}, {@code power} and
 * {@code ^}, {@code ln} and {@code log} (base 10; with two arguments the base first) with
 * PostgreSQL's errors, {@code regexp_replace} without flags (first match only), {@code substr} and
 * {@code substring} of text (PostgreSQL's positions, 22011 for a negative length), {@code upper}
 * and {@code lower} in the C locale, {@code chr} (54000 for 0, a surrogate or past U+10FFFF), {@code FLOOR} of a timestamp
 * ({@code date_trunc}, {@link PgDateTrunc}), {@code lpad} and {@code rpad} ({@link PgPadFunctions}: PostgreSQL pads nothing
 * with an empty fill, which Calcite refuses, and spaces without one), {@code overlay} ({@link PgOverlayFunction})
 * and {@code split_part} ({@link PgSplitPartFunction}) of text (the last three only for views of this build), and through {@link PgFloatCalls} comparisons (and searches) of floats and casts of floats to
 * real or numeric. Called by {@link PgArithmetic} for each call it visits, so
 * queries and views answer alike. Planning thread.
 */
final class PgScalarCalls {
    private static final Set<SqlTypeName> FLOATS = Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT);
    private static final Set<SqlTypeName> TEXTS = Set.of(SqlTypeName.CHAR, SqlTypeName.VARCHAR);
    private static final Set<SqlTypeName> INTEGERS =
            Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

    private static final SqlOperator FLOAT8_TEXT = function("float8Text");
    private static final SqlOperator FLOAT4_TEXT = function("float4Text");
    private static final SqlOperator NUMERIC_TEXT = function("numericText");
    private static final SqlOperator TIMESTAMP_TEXT = function("timestampText");
    private static final SqlOperator TIME_TEXT = function("timeText");
    private static final SqlOperator DATE_TEXT = function("dateText");
    private static final SqlOperator BOOL_TEXT = function("boolText");
    private static final SqlOperator NUMERIC_NULLABLE = function("numericNullable");
    private static final SqlOperator TEXT_DATE = function("textDate");
    private static final SqlOperator DATE_PLUS = function("datePlusMillis");
    private static final SqlOperator DATE_MINUS = function("dateMinusMillis");
    private static final SqlOperator TEXT_TIME = function("textTime");
    private static final SqlOperator TEXT_TIMESTAMP = function("textTimestamp");
    private static final SqlOperator TEXT_FLOAT8 = function("textFloat8");
    private static final SqlOperator TEXT_FLOAT4 = function("textFloat4");
    private static final SqlOperator TEXT_BYTEA = function("textBytea");
    private static final SqlOperator NUMERIC_FLOAT8 = function("numericFloat8");
    private static final SqlOperator NUMERIC_FLOAT4 = function("numericFloat4");
    private static final SqlOperator FLOAT8_ROUND = function("float8Round");
    private static final SqlOperator FLOAT8_SQRT = function("float8Sqrt");
    private static final SqlOperator FLOAT8_POWER = function("float8Power");
    private static final SqlOperator FLOAT8_LN = function("float8Ln");
    private static final SqlOperator FLOAT8_LOG10 = function("float8Log10");
    private static final SqlOperator FLOAT8_LOG_BASE = function("float8LogBase");
    private static final SqlOperator REGEXP_REPLACE_FIRST = function("regexpReplaceFirst");
    private static final SqlOperator SUBSTR = function("substr");
    private static final SqlOperator SUBSTR_FROM = function("substrFrom");
    private static final SqlOperator UPPER = function("upper");
    private static final SqlOperator CHR = function("chr");
    private static final SqlOperator SIMILAR_DOTS = PgArithmetic.function(SimilarDots.class, "literalDots");
    private static final SqlOperator SIMILAR_DOTS_ESCAPED =
            PgArithmetic.function(SimilarDots.class, "literalDotsEscaped");
    private static final SqlOperator LOWER = function("lower");
    private static final SqlOperator LEFT = function("left");
    private static final SqlOperator RIGHT = function("right");
    private static final SqlOperator LTRIM = PgArithmetic.function(PgTextFunctions.class, "ltrim");
    private static final SqlOperator RTRIM = PgArithmetic.function(PgTextFunctions.class, "rtrim");
    private static final SqlOperator LPAD = PgArithmetic.function(PgPadFunctions.class, "lpad");
    private static final SqlOperator RPAD = PgArithmetic.function(PgPadFunctions.class, "rpad");
    private static final SqlOperator OVERLAY = PgArithmetic.function(PgOverlayFunction.class, "overlay");
    private static final SqlOperator OVERLAY_FROM = PgArithmetic.function(PgOverlayFunction.class, "overlayFrom");
    private static final SqlOperator SPLIT_PART = PgArithmetic.function(PgSplitPartFunction.class, "split_part");

    /** Element types whose run-time values {@link PgArrayFunctions#pg_array_to_string} prints as PostgreSQL does. */
    private static final Set<SqlTypeName> PRINTABLE_ELEMENTS = Set.of(
            SqlTypeName.CHAR,
            SqlTypeName.VARCHAR,
            SqlTypeName.BOOLEAN,
            SqlTypeName.TINYINT,
            SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER,
            SqlTypeName.BIGINT,
            SqlTypeName.DECIMAL,
            SqlTypeName.DOUBLE,
            SqlTypeName.FLOAT,
            SqlTypeName.REAL,
            SqlTypeName.BINARY,
            SqlTypeName.VARBINARY,
            SqlTypeName.NULL);

    /** Kinds of the comparisons whose numeric array operands compare through {@link PgNumericArrayKey}. */
    private static final Set<SqlKind> ARRAY_EQUALITIES =
            Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM);

    private final RexBuilder rexBuilder;
    /** Null where floats keep Java's comparisons and casts (a view planned as an earlier build). */
    private final PgFloatCalls floatCalls;
    /** Whether numeric arrays compare by value, not with their elements' scales (false: an earlier build's view). */
    private final boolean pgNumericArrays;
    /** Whether lpad/rpad without a fill and overlay are PostgreSQL's (false: an earlier build's view). */
    private final boolean pgTextEdges;
    /** Whether a SIMILAR TO pattern that is no constant has literal dots too (false: an earlier build's view). */
    private final boolean pgSimilarColumns;

    /** @param build whose comparisons and casts to give (this build's, or an earlier one's for its views) */
    PgScalarCalls(RexBuilder rexBuilder, ViewPlanningBuild build) {
        this.rexBuilder = rexBuilder;
        this.floatCalls = build.pgFloats() ? new PgFloatCalls(rexBuilder) : null;
        this.pgNumericArrays = build.pgNumericArrays();
        this.pgTextEdges = build.pgTextEdges();
        this.pgSimilarColumns = build.pgSimilarColumns();
    }

    /**
     * 0A000 for {@code array_to_string} of dates, times, timestamps or intervals: their elements
     * reach the function as bare numbers, which it could not print as PostgreSQL does.
     */
    static void refuseUnprintableElements(RelDataType array, String what) {
        RelDataType element = array.getComponentType();
        while (element != null && element.getComponentType() != null) {
            element = element.getComponentType();
        }
        if (element != null && !PRINTABLE_ELEMENTS.contains(element.getSqlTypeName())) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    what + " of an array of dates, times, timestamps, intervals, uuids or json values is"
                            + " not supported");
        }
    }

    /**
     * PostgreSQL's form of {@code call} (operands already visited), or {@code null} when Calcite's
     * answer is PostgreSQL's.
     *
     * @throws TributaryException 42846 for a cast of a float to boolean
     */
    RexNode replace(RexCall call) {
        RexNode floats = floatCalls == null ? null : floatCalls.replace(call);
        if (floats != null) {
            return floats;
        }
        if (call.getKind() == SqlKind.CAST) {
            return cast(call);
        }
        if (pgNumericArrays && ARRAY_EQUALITIES.contains(call.getKind()) && NumericArrayKeyPlans.keyed(call)) {
            // {2} = {2.0}, as numeric's equality holds 2 = 2.0; the comparison stays an equality of
            // two operands, so a join's keys stay keys (their hashes are scale-blind too)
            return call.clone(call.getType(), NumericArrayKeyPlans.keys(rexBuilder, call.getOperands()));
        }
        RexNode truncated = PgDateTrunc.replace(call, rexBuilder);
        if (truncated != null) {
            return truncated;
        }
        if (pgTextEdges && call.getKind() == SqlKind.SIMILAR) {
            return similarDots(call);
        }
        SqlTypeName type = call.getType().getSqlTypeName();
        List<RexNode> operands = call.getOperands();
        if (type == SqlTypeName.DATE
                && (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS)
                && operands.size() == 2
                && operands.get(0).getType().getSqlTypeName() == SqlTypeName.DATE
                && operands.get(1).getType().getSqlTypeName() == SqlTypeName.INTERVAL_DAY) {
            // date ± integer (DateArithmetic's d ± n days): PostgreSQL's range, 22008 where Calcite's int wraps
            return rexBuilder.makeCall(
                    call.getType(), call.getKind() == SqlKind.PLUS ? DATE_PLUS : DATE_MINUS, operands);
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (name.equals("PG_ARRAY_TO_STRING") && !operands.isEmpty()) {
            refuseUnprintableElements(operands.get(0).getType(), "array_to_string");
            return null;
        }
        if (type == SqlTypeName.DOUBLE) {
            SqlOperator op = switch (name) {
                case "ROUND" -> operands.size() == 1 ? FLOAT8_ROUND : null;
                case "SQRT" -> operands.size() == 1 ? FLOAT8_SQRT : null;
                case "POWER" -> operands.size() == 2 ? FLOAT8_POWER : null;
                case "LN" -> operands.size() == 1 ? FLOAT8_LN : null;
                case "LOG10" -> operands.size() == 1 ? FLOAT8_LOG10 : null;
                case "LOG" -> operands.size() == 1 ? FLOAT8_LOG10 : operands.size() == 2 ? FLOAT8_LOG_BASE : null;
                default -> null;
            };
            if (op == null) {
                return null;
            }
            // Calcite's two-argument LOG is (value, base); float8LogBase reads PostgreSQL's (base, value)
            return rexBuilder.makeCall(
                    call.getType(),
                    op,
                    operands.stream().map(o -> as(o, SqlTypeName.DOUBLE)).toList());
        }
        if (!TEXTS.contains(type) || !operands.stream().allMatch(o -> isText(o) || isInteger(o))) {
            return null;
        }
        boolean textFirst = !operands.isEmpty() && isText(operands.get(0));
        return switch (name) {
            case "REGEXP_REPLACE" ->
                operands.size() == 3 && operands.stream().allMatch(PgScalarCalls::isText)
                        ? rexBuilder.makeCall(call.getType(), REGEXP_REPLACE_FIRST, operands)
                        : null;
            case "SUBSTRING", "SUBSTR" ->
                textFirst
                                && (operands.size() == 2 || operands.size() == 3)
                                && operands.subList(1, operands.size()).stream().allMatch(PgScalarCalls::isInteger)
                        ? rexBuilder.makeCall(
                                call.getType(),
                                operands.size() == 2 ? SUBSTR_FROM : SUBSTR,
                                operands.stream()
                                        .map(o -> o == operands.get(0) ? o : as(o, SqlTypeName.INTEGER))
                                        .toList())
                        : null;
            case "CHR" ->
                operands.size() == 1 && isInteger(operands.get(0))
                        ? rexBuilder.makeCall(call.getType(), CHR, List.of(as(operands.get(0), SqlTypeName.INTEGER)))
                        : null;
            case "UPPER" ->
                textFirst && operands.size() == 1 ? rexBuilder.makeCall(call.getType(), UPPER, operands) : null;
            case "LOWER" ->
                textFirst && operands.size() == 1 ? rexBuilder.makeCall(call.getType(), LOWER, operands) : null;
            case "LEFT", "RIGHT" ->
                // Calcite's give "" for a negative count, PostgreSQL all but that many
                textFirst && operands.size() == 2 && isInteger(operands.get(1))
                        ? rexBuilder.makeCall(
                                text(call),
                                name.equals("LEFT") ? LEFT : RIGHT,
                                List.of(operands.get(0), as(operands.get(1), SqlTypeName.INTEGER)))
                        : null;
            case "LTRIM", "RTRIM" ->
                // PostgreSQL's text, where Calcite's type is its argument's bounded varchar
                textFirst && operands.size() == 1
                        ? rexBuilder.makeCall(
                                text(call),
                                name.equals("LTRIM") ? LTRIM : RTRIM,
                                List.of(operands.get(0), rexBuilder.makeLiteral(" ")))
                        : null;
            case "LPAD", "RPAD" ->
                textFirst
                                && (operands.size() == 3 && isText(operands.get(2))
                                        || operands.size() == 2 && pgTextEdges)
                                && isInteger(operands.get(1))
                        ? rexBuilder.makeCall(
                                call.getType(),
                                name.equals("LPAD") ? LPAD : RPAD,
                                List.of(
                                        operands.get(0),
                                        as(operands.get(1), SqlTypeName.INTEGER),
                                        operands.size() == 3 ? operands.get(2) : rexBuilder.makeLiteral(" ")))
                        : null;
            case "SPLIT_PART" ->
                pgTextEdges
                                && textFirst
                                && operands.size() == 3
                                && isText(operands.get(1))
                                && isInteger(operands.get(2))
                        ? rexBuilder.makeCall(
                                text(call),
                                SPLIT_PART,
                                List.of(operands.get(0), operands.get(1), as(operands.get(2), SqlTypeName.INTEGER)))
                        : null;
            case "OVERLAY" ->
                pgTextEdges
                                && textFirst
                                && operands.size() >= 3
                                && isText(operands.get(1))
                                && operands.subList(2, operands.size()).stream().allMatch(PgScalarCalls::isInteger)
                        ? rexBuilder.makeCall(
                                text(call),
                                operands.size() == 3 ? OVERLAY_FROM : OVERLAY,
                                java.util.stream.IntStream.range(0, operands.size())
                                        .mapToObj(
                                                i -> i < 2 ? operands.get(i) : as(operands.get(i), SqlTypeName.INTEGER))
                                        .toList())
                        : null;
            default -> null;
        };
    }

    /**
     * A cast of a float, numeric, timestamp or time to text, of text to a date, time, timestamp,
     * double precision or real (PostgreSQL's input), of a numeric to a float (22003 out of range), or of a float to boolean; else {@code null}.
     */
    private RexNode cast(RexCall cast) {
        RexNode operand = cast.getOperands().get(0);
        SqlTypeName from = operand.getType().getSqlTypeName();
        SqlTypeName to = cast.getType().getSqlTypeName();
        if (to == SqlTypeName.BOOLEAN && (FLOATS.contains(from) || from == SqlTypeName.REAL)) {
            throw new TributaryException(
                    SqlState.CANNOT_COERCE,
                    "cannot cast type " + (from == SqlTypeName.REAL ? "real" : "double precision") + " to boolean");
        }
        if (from == SqlTypeName.DECIMAL
                && cast.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                && rexBuilder
                        .getTypeFactory()
                        .createTypeWithNullability(operand.getType(), true)
                        .equals(rexBuilder.getTypeFactory().createTypeWithNullability(cast.getType(), true))) {
            // only the nullability changes: keep the value's scale (a window's sum of numeric)
            return rexBuilder.makeCall(cast.getType(), NUMERIC_NULLABLE, List.of(operand));
        }
        RexNode bool = roundedBoolean(operand);
        if (bool != null && INTEGERS.contains(to)) {
            return booleanToInteger(bool, cast);
        }
        if (from == SqlTypeName.DECIMAL && (FLOATS.contains(to) || to == SqlTypeName.REAL)) {
            // 22003 past the float's range, where Calcite's conversion gives Infinity or 0
            return rexBuilder.makeCall(
                    cast.getType(), to == SqlTypeName.REAL ? NUMERIC_FLOAT4 : NUMERIC_FLOAT8, List.of(operand));
        }
        if (TEXTS.contains(from)) {
            SqlOperator input = switch (to) {
                case DATE -> TEXT_DATE;
                case TIME -> TEXT_TIME;
                case TIMESTAMP -> TEXT_TIMESTAMP;
                case DOUBLE, FLOAT -> TEXT_FLOAT8;
                case REAL -> TEXT_FLOAT4;
                case BINARY, VARBINARY -> TEXT_BYTEA;
                default -> null;
            };
            // PostgreSQL's input forms and errors (22007, 22008; 'inf', 'nan' and 22003 for floats)
            // where Calcite's reads only its own; bytea input (hex or escape form) where Calcite's
            // takes the characters' UTF-16 bytes and cuts them to the type's length
            return input == null ? null : rexBuilder.makeCall(cast.getType(), input, List.of(operand));
        }
        if (!TEXTS.contains(to)) {
            return null;
        }
        SqlOperator op = FLOATS.contains(from)
                ? FLOAT8_TEXT
                : from == SqlTypeName.REAL
                        ? FLOAT4_TEXT
                        : from == SqlTypeName.DECIMAL
                                ? NUMERIC_TEXT
                                : from == SqlTypeName.TIMESTAMP
                                        ? TIMESTAMP_TEXT
                                        : from == SqlTypeName.TIME
                                                ? TIME_TEXT
                                                : from == SqlTypeName.DATE
                                                        ? DATE_TEXT
                                                        : from == SqlTypeName.BOOLEAN ? BOOL_TEXT : null;
        if (op == null) {
            return null;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RelDataType text = types.createTypeWithNullability(
                types.createSqlType(SqlTypeName.VARCHAR), operand.getType().isNullable());
        RexNode asText = rexBuilder.makeCall(text, op, List.of(operand));
        // a length (varchar(3), char(3)) truncates or pads PostgreSQL's text, as it did Calcite's
        return cast.getType().equals(text) ? asText : rexBuilder.makeCast(cast.getType(), asText);
    }

    /**
     * The boolean value inside {@code pg_round(x)} (which {@link NumericCast} puts before every cast
     * to an integer type, when the operand's type is not yet known), or {@code null} when {@code
     * operand} is no such call. Calcite reaches the text overload of {@code pg_round} through an
     * implicit cast of the boolean to text, which {@link #cast} has made PostgreSQL's boolean text.
     */
    private static RexNode roundedBoolean(RexNode operand) {
        if (!(operand instanceof RexCall round)
                || !round.getOperator().getName().equalsIgnoreCase("pg_round")) {
            return null;
        }
        RexNode inner = round.getOperands().get(0);
        if (inner.getKind() == SqlKind.CAST || inner instanceof RexCall text && text.getOperator() == BOOL_TEXT) {
            inner = ((RexCall) inner).getOperands().get(0);
        }
        return inner.getType().getSqlTypeName() == SqlTypeName.BOOLEAN ? inner : null;
    }

    /**
     * PostgreSQL's cast of a boolean to an integer type: to {@code integer} 1 or 0 (NULL stays NULL);
     * to any other integer type there is no cast.
     *
     * @throws TributaryException 42846 for a cast to smallint or bigint, as in PostgreSQL
     */
    private RexNode booleanToInteger(RexNode bool, RexCall cast) {
        SqlTypeName to = cast.getType().getSqlTypeName();
        if (to != SqlTypeName.INTEGER) {
            throw new TributaryException(
                    SqlState.CANNOT_COERCE,
                    "cannot cast type boolean to " + (to == SqlTypeName.BIGINT ? "bigint" : "smallint"));
        }
        RexNode one = rexBuilder.makeExactLiteral(java.math.BigDecimal.ONE, cast.getType());
        RexNode zero = rexBuilder.makeExactLiteral(java.math.BigDecimal.ZERO, cast.getType());
        RexNode value = rexBuilder.makeCall(SqlStdOperatorTable.CASE, bool, one, zero);
        if (!bool.getType().isNullable()) {
            return value;
        }
        RexNode isNull = rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, bool);
        return rexBuilder.makeCall(SqlStdOperatorTable.CASE, isNull, rexBuilder.makeNullLiteral(cast.getType()), value);
    }

    /**
     * {@code s [NOT] SIMILAR TO 'pattern' [ESCAPE 'e']} with the constant pattern's dots literal
     * ({@link SimilarDots}), or a pattern that is no constant made so as each row reads it ({@link
     * SimilarDots#literalDots}); {@code null} when the escape is no constant or the constant pattern
     * has no dot.
     */
    private RexNode similarDots(RexCall call) {
        List<RexNode> operands = call.getOperands();
        int escape = '\\';
        if (operands.size() == 3) {
            String given = operands.get(2) instanceof RexLiteral e ? e.getValueAs(String.class) : null;
            if (given == null || given.length() > 1) {
                return null;
            }
            escape = given.isEmpty() ? -1 : given.charAt(0);
        }
        if (!(operands.get(1) instanceof RexLiteral pattern)) {
            if (!pgSimilarColumns) {
                return null;
            }
            List<RexNode> replaced = new java.util.ArrayList<>(operands);
            replaced.set(
                    1,
                    operands.size() == 3
                            ? rexBuilder.makeCall(SIMILAR_DOTS_ESCAPED, operands.get(1), operands.get(2))
                            : rexBuilder.makeCall(SIMILAR_DOTS, operands.get(1)));
            return call.clone(call.getType(), replaced);
        }
        if (pattern.getValueAs(String.class) == null) {
            return null;
        }
        String text = pattern.getValueAs(String.class);
        String literal = SimilarDots.literal(text, escape);
        if (literal.equals(text)) {
            return null;
        }
        List<RexNode> replaced = new java.util.ArrayList<>(operands);
        replaced.set(1, rexBuilder.makeLiteral(literal));
        return call.clone(call.getType(), replaced);
    }

    private static boolean isText(RexNode node) {
        return TEXTS.contains(node.getType().getSqlTypeName());
    }

    private static boolean isInteger(RexNode node) {
        return INTEGERS.contains(node.getType().getSqlTypeName());
    }

    /** {@code operand} as {@code type}, keeping its nullability. */
    private RexNode as(RexNode operand, SqlTypeName type) {
        if (operand.getType().getSqlTypeName() == type) {
            return operand;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        return rexBuilder.makeCast(
                types.createTypeWithNullability(
                        types.createSqlType(type), operand.getType().isNullable()),
                operand);
    }

    /** Unbounded text (PostgreSQL's {@code text}) with {@code call}'s nullability. */
    private RelDataType text(RexCall call) {
        var types = rexBuilder.getTypeFactory();
        return types.createTypeWithNullability(
                types.createSqlType(SqlTypeName.VARCHAR), call.getType().isNullable());
    }

    /** A call of the {@link PgScalarFunctions} method {@code method}, typed by the call it replaces. */
    private static SqlOperator function(String method) {
        return PgArithmetic.function(PgScalarFunctions.class, method);
    }
}
