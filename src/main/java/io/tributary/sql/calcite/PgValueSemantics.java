package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgDateTimeInput;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.TypeKind;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

/**
 * Gives operators and functions whose meaning differs in Calcite PostgreSQL's answers:
 * {@code a ^ b} is exponentiation (Calcite: bitwise XOR; its precedence is set by
 * {@link PgOperatorPrecedence}); {@code concat(...)} skips NULL
 * arguments (Calcite: NULL if any is); {@code extract(dow ...)} and {@code date_part('dow', ...)}
 * count Sunday as 0 (Calcite: 1); {@code date_trunc('unit', ts)} with a literal unit is {@code FLOOR(ts TO unit)}
 * (Calcite's DATE_TRUNC takes BigQuery's arguments; {@link PgDateTrunc} computes the FLOOR with PostgreSQL's
 * units, {@link PgTruncUnits} reads the unit's word), a date constant or cast first made a timestamptz; a text literal cast to a float type beyond its range is 22003
 * (Calcite: Infinity); a text literal cast to bytea, or passed where a bytea function takes bytea
 * ({@link ByteaArguments}), is read as PostgreSQL's bytea input ({@code '\xdead'},
 * {@code 'a\001'}; Calcite: the text's bytes); {@code octet_length(text)} counts UTF-8 bytes (Calcite: bytes of its charset);
 * {@code substr} counts positions as {@code substring} does (Calcite: a negative start from the end); {@code %} and
 * {@code mod} of an operand cast to a float type are 42883, as PostgreSQL has none (Calcite: computed in
 * NUMERIC); a NULL argument of {@code starts_with} is a text NULL; a NULL argument of {@code generate_series} is an integer NULL ({@link SeriesArguments}); {@code pg_typeof} of a bare string literal is {@code unknown} ({@link PgTypeOf}) and {@code pg_column_size} of one is its C string's size ({@link PgColumnSize}); {@code to_char}, {@code to_date} and {@code to_timestamp} are PostgreSQL's ({@link PgFormattingCalls}; Calcite's take other templates).
 */
final class PgValueSemantics extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        if (call.getOperator().getName().equals("^") && call.operandCount() == 2) {
            return rewritten(SqlStdOperatorTable.POWER.createCall(
                    pos, call.operand(0).accept(this), call.operand(1).accept(this)));
        }
        if (call.getOperator().getName().equalsIgnoreCase("generate_series") && call.operandCount() == 3) {
            SqlLiteral[] bounds = seriesBounds(call);
            long[] step = bounds == null ? null : seriesStep(call.operand(2));
            if (step != null) {
                return rewritten(timestampSeries(call, bounds[0], bounds[1], step));
            }
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (name.equals("generate_series")
                && call.getOperandList().stream().anyMatch(o -> SqlUtil.isNullLiteral(o, false))) {
            return rewritten(SeriesArguments.typedNulls(call));
        }
        if (name.equals(PgTypeOf.NAME) && call.operandCount() == 1 && PgTypeOf.isStringLiteral(call.operand(0))) {
            // PostgreSQL's unknown, as of NULL: Calcite would type the literal CHAR(n), as any string expression
            return rewritten(call.getOperator().createCall(pos, SqlLiteral.createNull(pos)));
        }
        if (name.equals(PgColumnSize.NAME) && call.operandCount() == 1 && PgTypeOf.isStringLiteral(call.operand(0))) {
            // PostgreSQL's unknown, sized as the C string it is; Calcite would type the literal CHAR(n)
            String text = ((SqlLiteral) call.operand(0)).getValueAs(String.class);
            return rewritten(SqlLiteral.createExactNumeric(String.valueOf(PgColumnSize.unknownLiteral(text)), pos));
        }
        if ((name.equals("starts_with") || name.equals("pg_op_starts_with"))
                && call.getOperandList().stream().anyMatch(o -> SqlUtil.isNullLiteral(o, false))) {
            // PostgreSQL reads a bare NULL as text here; Calcite's generated call fails on an untyped one
            return rewritten(call.getOperator()
                    .createCall(
                            pos,
                            call.getOperandList().stream()
                                    .map(o -> SqlUtil.isNullLiteral(o, false)
                                            ? SqlStdOperatorTable.CAST.createCall(
                                                    pos,
                                                    o,
                                                    new SqlDataTypeSpec(
                                                            new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos))
                                            : o.accept(this))
                                    .toArray(SqlNode[]::new)));
        }
        SqlCall formatting = PgFormattingCalls.rename(
                call,
                call.getOperandList().stream()
                        .map(o -> o == null ? null : o.accept(this))
                        .toList());
        if (formatting != null) {
            return rewritten(formatting);
        }
        if ((call.getKind() == SqlKind.MOD || name.equals("mod")) && call.operandCount() == 2) {
            rejectFloatRemainder(call);
        }
        if (name.equals("bit_length") && call.operandCount() == 1) {
            // of text or bytea alike: its octets times eight (a bare NULL: NULL)
            SqlNode operand = call.operand(0);
            SqlNode octets = SqlUtil.isNullLiteral(operand, true)
                    ? operand
                    : userFunction("pg_octet_length", pos, operand.accept(this));
            return rewritten(SqlStdOperatorTable.MULTIPLY.createCall(
                    pos, octets, org.apache.calcite.sql.SqlLiteral.createExactNumeric("8", pos)));
        }
        if ((name.equals("octet_length") || name.equals("length"))
                && call.operandCount() == 1
                && !SqlUtil.isNullLiteral(call.operand(0), true)) {
            // a bare NULL has no type to choose the overload by; Calcite's answers NULL
            return rewritten(userFunction("pg_" + name, pos, call.operand(0).accept(this)));
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP && isAscending(call, "percentile_cont", 1)) {
            return rewritten(percentileCont(call));
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP && isAscending(call, "percentile_disc", 1)) {
            SqlNode fraction = ((SqlCall) call.operand(0)).operand(0).accept(this);
            return rewritten(userFunction(PgOrderedSets.PERCENTILE_DISC, pos, orderKey(call), asDouble(fraction, pos)));
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP && isAscending(call, "mode", 0)) {
            return rewritten(userFunction(PgOrderedSets.MODE, pos, orderKey(call)));
        }
        if (call.getKind() == SqlKind.OTHER_FUNCTION
                && call.getOperator().getName().equalsIgnoreCase("substring")
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlCharStringLiteral) {
            // substring(s FROM 'pattern') is PostgreSQL's regular-expression form; Calcite reads the
            // pattern as a start position
            return rewritten(
                    userFunction(PgRegexpMatch.SUBSTRING, pos, call.operand(0).accept(this), call.operand(1)));
        }
        if (call.getKind() == SqlKind.OTHER_FUNCTION
                && call.getOperator().getName().equalsIgnoreCase("substring")
                && call.operandCount() == 3
                && call.operand(1) instanceof SqlCharStringLiteral
                && call.operand(2) instanceof SqlCharStringLiteral) {
            // substring(s FROM 'pattern' FOR 'escape') is PostgreSQL's SQL regular-expression form
            return rewritten(userFunction(
                    PgSimilarSubstring.NAME, pos, call.operand(0).accept(this), call.operand(1), call.operand(2)));
        }
        if (name.equals("substr") && (call.operandCount() == 2 || call.operandCount() == 3)) {
            // Calcite's SUBSTR counts a negative start from the end; PostgreSQL's is SUBSTRING's positions
            return rewritten(SqlStdOperatorTable.SUBSTRING.createCall(
                    pos, call.getOperandList().stream().map(o -> o.accept(this)).toArray(SqlNode[]::new)));
        }
        SqlCall jsonAggregate = JsonAggregates.wrapArguments(call, o -> o.accept(this));
        if (jsonAggregate != null) {
            return rewritten(jsonAggregate);
        }
        if (call.getKind() == SqlKind.OTHER_FUNCTION
                && call.getOperator().getName().equalsIgnoreCase("concat")
                && call.operandCount() > 0) {
            return rewritten(concat(call));
        }
        if (name.equals("format") && call.operandCount() >= 2 && call.operandCount() <= 9) {
            // PostgreSQL formats each argument's text, whatever its type: a boolean as t/f (PgConcatText)
            java.util.List<SqlNode> operands = new java.util.ArrayList<>();
            operands.add(call.operand(0).accept(this));
            for (SqlNode arg : call.getOperandList().subList(1, call.operandCount())) {
                operands.add(PgConcatText.call(
                        SqlStdOperatorTable.CAST.createCall(
                                pos,
                                arg.accept(this),
                                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos)),
                        pos));
            }
            return rewritten(call.getOperator().createCall(call.getFunctionQuantifier(), pos, operands));
        }
        if (call.getOperator().getName().equalsIgnoreCase("date_trunc")
                && call.operandCount() == 2
                && call.operand(0) instanceof SqlLiteral unit
                && unit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
            TimeUnit timeUnit = PgTruncUnits.of(unit.getValueAs(String.class));
            SqlNode value = call.operand(1).accept(this);
            if (isDate(value)) {
                // PostgreSQL truncates a date as the timestamptz of its midnight in the session's zone
                value = SqlStdOperatorTable.CAST.createCall(
                        pos,
                        value,
                        new SqlDataTypeSpec(
                                new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, pos), pos));
            }
            // typed by validation as FLOOR; PgDateTrunc computes it with PostgreSQL's units
            return rewritten(
                    SqlStdOperatorTable.FLOOR.createCall(pos, value, new SqlIntervalQualifier(timeUnit, null, pos)));
        }
        if (call.getKind() == SqlKind.EXTRACT && isDayOfWeek(call.operand(0))) {
            SqlCall extract = call.getOperator()
                    .createCall(pos, call.operand(0), call.operand(1).accept(this));
            return rewritten(
                    SqlStdOperatorTable.MINUS.createCall(pos, extract, SqlLiteral.createExactNumeric("1", pos)));
        }
        SqlCall byteaArguments = ByteaArguments.rewrite(call);
        if (byteaArguments != null) {
            return rewritten(super.visit(byteaArguments));
        }
        if (call.getKind() == SqlKind.CAST
                && call.operand(0) instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
            checkFloatRange(lit, spec);
            if (spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("bytea")) {
                // PostgreSQL reads the text as bytea input (hex or escape format); Calcite would take its characters'
                // bytes
                // bytes, typed bytea (VARBINARY without a length): a BINARY(n) literal would make a VALUES list
                // or set operation cut the other rows' values to its n bytes
                byte[] bytes = io.tributary.common.types.PgTextFormat.parseBytea(lit.getValueAs(String.class));
                return rewritten(call.getOperator()
                        .createCall(
                                pos,
                                SqlLiteral.createBinaryString(bytes, pos),
                                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARBINARY, pos), pos)));
            }
            if (spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("uuid")) {
                // PostgreSQL's uuid input (braces, no hyphens, upper case) and its 22P02; Calcite's is Java's
                return rewritten(SqlLiteral.createUuid(
                        io.tributary.common.types.PgUuidText.parse(lit.getValueAs(String.class)), pos));
            }
            if (isBooleanType(spec)) {
                // PostgreSQL's boolean input ('t', 'yes', 'on', ' 1 ', prefixes ...); Calcite takes only true/false
                Boolean value = (Boolean) io.tributary.common.types.PgTextFormat.parse(
                        io.tributary.common.types.DataType.BOOLEAN, lit.getValueAs(String.class));
                return rewritten(call.getOperator().createCall(pos, SqlLiteral.createBoolean(value, pos), spec));
            }
        }
        return super.visit(call);
    }

    /** {@code aggregate(...) WITHIN GROUP (ORDER BY x)} with {@code arguments} direct arguments and one ascending key. */
    private static boolean isAscending(SqlCall withinGroup, String aggregateName, int arguments) {
        return withinGroup.operand(0) instanceof SqlCall aggregate
                && aggregate.getOperator().getName().equalsIgnoreCase(aggregateName)
                && aggregate.operandCount() == arguments
                && withinGroup.operand(1) instanceof org.apache.calcite.sql.SqlNodeList order
                && order.size() == 1
                && order.get(0).getKind() != SqlKind.DESCENDING
                && order.get(0).getKind() != SqlKind.NULLS_FIRST
                && order.get(0).getKind() != SqlKind.NULLS_LAST;
    }

    /** {@code pg_percentile_cont(CAST(x AS DOUBLE), CAST(f AS DOUBLE))}: {@link PgPercentiles}. */
    private SqlNode percentileCont(SqlCall withinGroup) {
        SqlParserPos pos = withinGroup.getParserPosition();
        SqlNode fraction = ((SqlCall) withinGroup.operand(0)).operand(0).accept(this);
        return userFunction("pg_percentile_cont", pos, asDouble(orderKey(withinGroup), pos), asDouble(fraction, pos));
    }

    /** The one ORDER BY key of a {@code WITHIN GROUP}, rewritten. */
    private SqlNode orderKey(SqlCall withinGroup) {
        return ((org.apache.calcite.sql.SqlNodeList) withinGroup.operand(1))
                .get(0)
                .accept(this);
    }

    /** A call of Tributary's aggregate or function {@code name} ({@link CatalogSchema} registers it). */
    private static SqlNode userFunction(String name, SqlParserPos pos, SqlNode... operands) {
        return PgIntervals.call(name, pos, operands);
    }

    private static SqlNode asDouble(SqlNode node, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
    }

    /**
     * {@code concat(a, b)} as {@code COALESCE(CAST(a AS VARCHAR), '') || COALESCE(CAST(b AS VARCHAR), '')}:
     * NULLs add nothing and the result is never NULL, as in PostgreSQL. A boolean literal adds
     * {@code t} or {@code f}, PostgreSQL's text for it; so does a boolean expression, through
     * {@link PgConcatText}.
     */
    private SqlNode concat(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        SqlNode out = null;
        for (SqlNode arg : call.getOperandList()) {
            SqlNode text;
            if (arg instanceof SqlLiteral lit && lit.getValue() instanceof Boolean b) {
                text = SqlLiteral.createCharString(b ? "t" : "f", pos);
            } else {
                SqlNode cast = SqlStdOperatorTable.CAST.createCall(
                        pos,
                        arg.accept(this),
                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
                text = SqlStdOperatorTable.COALESCE.createCall(
                        pos, PgConcatText.call(cast, pos), SqlLiteral.createCharString("", pos));
            }
            out = out == null ? text : SqlStdOperatorTable.CONCAT.createCall(pos, out, text);
        }
        return out;
    }

    /**
     * {@code node} as a DATE or TIMESTAMP literal, resolved (the parser leaves {@code TIMESTAMP
     * '...'} unresolved until validation); null when it is none.
     */
    private static SqlLiteral dateTime(SqlNode node) {
        if (node instanceof SqlUnknownLiteral unknown) {
            String tag = unknown.tag.toUpperCase(Locale.ROOT);
            if (!tag.equals("DATE") && !tag.equals("TIMESTAMP")) {
                return null;
            }
            SqlLiteral proleptic = ProlepticLiterals.resolve(unknown);
            if (proleptic != null) {
                return proleptic;
            }
            try {
                return dateTime(unknown.resolve(SqlTypeName.valueOf(tag)));
            } catch (CalciteContextException badText) {
                // not a constant this rewrite can use; validation reports the text as PostgreSQL does (22007)
                return null;
            }
        }
        return node instanceof SqlLiteral lit
                        && (lit.getTypeName() == SqlTypeName.DATE || lit.getTypeName() == SqlTypeName.TIMESTAMP)
                ? lit
                : null;
    }

    /**
     * {@code generate_series(a, b, step)} over date or timestamp literals as a call of {@link
     * TimestampSeries}: timestamptz rows when both bounds are dates (PostgreSQL's choice), else
     * timestamp rows.
     */
    private static SqlNode timestampSeries(SqlCall call, SqlLiteral start, SqlLiteral stop, long[] step) {
        SqlParserPos pos = call.getParserPosition();
        boolean zoned = start.getTypeName() == SqlTypeName.DATE && stop.getTypeName() == SqlTypeName.DATE;
        long months = step[0];
        long millis = step[1];
        return new org.apache.calcite.sql.SqlBasicCall(
                new org.apache.calcite.sql.SqlUnresolvedFunction(
                        new org.apache.calcite.sql.SqlIdentifier(
                                zoned ? "pg_timestamptz_series" : "pg_timestamp_series", pos),
                        null,
                        null,
                        null,
                        null,
                        org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION),
                java.util.List.of(
                        SqlLiteral.createExactNumeric(Long.toString(epochMillis(start)), pos),
                        SqlLiteral.createExactNumeric(Long.toString(epochMillis(stop)), pos),
                        SqlLiteral.createExactNumeric(Long.toString(months), pos),
                        SqlLiteral.createExactNumeric(Long.toString(millis), pos)),
                pos);
    }

    /**
     * The bounds of a {@code generate_series} call over date or timestamp constants, or null. A
     * string constant beside a timestamp constant is read as a timestamp, as PostgreSQL resolves
     * its unknown-typed argument ({@code generate_series(TIMESTAMP '2024-01-01', '2024-01-02',
     * ...)}); bad text is 22007 as there.
     */
    private static SqlLiteral[] seriesBounds(SqlCall call) {
        SqlLiteral start = dateTime(call.operand(0));
        SqlLiteral stop = dateTime(call.operand(1));
        if (start == null && stop != null && stop.getTypeName() == SqlTypeName.TIMESTAMP) {
            start = timestampText(call.operand(0));
        } else if (stop == null && start != null && start.getTypeName() == SqlTypeName.TIMESTAMP) {
            stop = timestampText(call.operand(1));
        }
        return start != null && stop != null ? new SqlLiteral[] {start, stop} : null;
    }

    /** A string constant read as PostgreSQL's timestamp input, as a timestamp literal; null for any other node. */
    private static SqlLiteral timestampText(SqlNode node) {
        if (!(node instanceof SqlCharStringLiteral text)) {
            return null;
        }
        long micros = PgDateTimeInput.parseTimestamp(text.getValueAs(String.class), false, PgTimeZone.UTC);
        return SqlLiteral.createTimestamp(
                SqlTypeName.TIMESTAMP,
                TimestampString.fromMillisSinceEpoch(Math.floorDiv(micros, 1000L)),
                3,
                node.getParserPosition());
    }

    /**
     * A series step as {months, milliseconds}: an interval constant, or a string constant read as
     * PostgreSQL's interval text (its days as 24 hours each, which a timestamp series without a
     * zone is); null for any other node.
     */
    private static long[] seriesStep(SqlNode node) {
        if (node instanceof SqlIntervalLiteral step) {
            SqlIntervalLiteral.IntervalValue value = step.getValueAs(SqlIntervalLiteral.IntervalValue.class);
            boolean yearMonth = value.getIntervalQualifier().isYearMonth();
            return new long[] {
                yearMonth ? SqlParserUtil.intervalToMonths(value) : 0,
                yearMonth ? 0 : SqlParserUtil.intervalToMillis(value)
            };
        }
        if (node instanceof SqlCharStringLiteral text) {
            Interval value =
                    (Interval) PgTextFormat.parse(DataType.of(TypeKind.INTERVAL), text.getValueAs(String.class));
            return new long[] {value.months(), value.days() * 86_400_000L + Math.floorDiv(value.micros(), 1000L)};
        }
        return null;
    }

    private static long epochMillis(SqlLiteral lit) {
        return lit.getTypeName() == SqlTypeName.DATE
                ? lit.getValueAs(org.apache.calcite.util.DateString.class).getMillisSinceEpoch()
                : lit.getValueAs(org.apache.calcite.util.TimestampString.class).getMillisSinceEpoch();
    }

    /** Whether {@code node} is a date constant or a cast to date, whose type is known before validation. */
    private static boolean isDate(SqlNode node) {
        if (node instanceof SqlUnknownLiteral unknown) {
            return unknown.tag.equalsIgnoreCase("DATE");
        }
        if (node instanceof SqlLiteral lit) {
            return lit.getTypeName() == SqlTypeName.DATE;
        }
        return node.getKind() == SqlKind.CAST
                && ((SqlCall) node).operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("date");
    }

    private static boolean isDayOfWeek(SqlNode unit) {
        if (unit instanceof SqlIntervalQualifier q) {
            return q.timeUnitRange.startUnit == TimeUnit.DOW;
        }
        return unit instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER
                && lit.getValueAs(String.class).trim().equalsIgnoreCase("dow");
    }

    /**
     * PostgreSQL has no {@code %} or {@code mod} for floats (42883). An operand written as a cast to
     * a float type is refused here, before validation: Calcite would cast it to NUMERIC to fit its
     * {@code %} and fold a constant so that {@link PgArithmetic}, which refuses float columns, never
     * sees the float.
     */
    private static void rejectFloatRemainder(SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
            if (operand.getKind() == SqlKind.CAST
                    && ((SqlCall) operand).operandCount() == 2
                    && ((SqlCall) operand).operand(1) instanceof SqlDataTypeSpec spec
                    && isFloatType(spec)) {
                throw new TributaryException(
                        SqlState.UNDEFINED_FUNCTION,
                        "operator does not exist: "
                                + call.getOperator().getName().toLowerCase(Locale.ROOT)
                                + " with a double precision operand");
            }
        }
    }

    private static boolean isBooleanType(SqlDataTypeSpec spec) {
        String type = spec.getTypeNameSpec().getTypeName().getSimple().toLowerCase(Locale.ROOT);
        return type.equals("boolean") || type.equals("bool");
    }

    private static boolean isFloatType(SqlDataTypeSpec spec) {
        String type = spec.getTypeNameSpec().getTypeName().getSimple().toLowerCase(Locale.ROOT);
        io.tributary.common.types.DataType pg = io.tributary.sql.PgTypeNames.lookup(type);
        return pg != null
                ? pg.kind() == io.tributary.common.types.TypeKind.DOUBLE
                        || pg.kind() == io.tributary.common.types.TypeKind.REAL
                : type.equals("double") || type.equals("float") || type.equals("real");
    }

    /** PostgreSQL rejects a float literal beyond the type's range; Calcite would make it Infinity. */
    private static void checkFloatRange(SqlLiteral lit, SqlDataTypeSpec spec) {
        String type = spec.getTypeNameSpec().getTypeName().getSimple().toLowerCase(Locale.ROOT);
        boolean isDouble = type.equals("float8") || type.equals("double");
        boolean isReal = type.equals("float4") || type.equals("real");
        if (!isDouble && !isReal) {
            return;
        }
        String text = lit.getValueAs(String.class).trim();
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return;
        }
        boolean infinite = isDouble ? Double.isInfinite(value) : Float.isInfinite((float) value);
        if (infinite && !text.toLowerCase(Locale.ROOT).contains("inf")) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "\"" + text + "\" is out of range for type " + (isDouble ? "double precision" : "real"));
        }
    }
}
