package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * PostgreSQL's {@code extract(field FROM value)} and {@code date_part('field', value)} of a
 * timestamp, date, time or timestamptz, for every field: Calcite's BIGINT {@code EXTRACT} has
 * neither PostgreSQL 14's types ({@code numeric} for extract, {@code double precision} for
 * date_part) nor the fractions of {@code second}, {@code milliseconds}, {@code microseconds} and
 * {@code epoch}, the {@code timezone} fields, {@code isoyear} (which Calcite's {@code date_part}
 * cannot name), the infinities, or PostgreSQL's refusal of a date's time-of-day fields. {@link
 * #rewrite} validates the query text once with each call replaced by a number made of its value (to
 * learn the value's type), and writes each call over those types as a call of {@link
 * PgExtractFunctions}; over a timestamptz, of its local time in the session's zone (the epoch: of
 * its instant). Calls over other types (intervals) are left to the paths that handle them. Queries
 * and view definitions alike. Stateless; planning threads.
 */
final class ExtractCalls {
    /** PostgreSQL's words for the fields (its {@code DecodeUnits} tables), by their first ten characters, to the name the functions take. */
    private static final Map<String, String> FIELDS = new HashMap<>();

    static {
        words("second", "second", "seconds", "s", "sec", "secs");
        words("milliseconds", "millisecon", "ms", "msec", "msecond", "mseconds", "msecs");
        words("microseconds", "microsecon", "us", "usec", "usecond", "useconds", "usecs");
        // PostgreSQL reads field words by their first ten characters too: timezone_hour is timezone_h
        words("timezone", "timezone");
        words("timezone_hour", "timezone_h");
        words("timezone_minute", "timezone_m");
        words("epoch", "epoch");
        words("julian", "julian", "j", "jd");
        // Calcite's date_part cannot name it (its monotonicity check failed with XX000)
        words("isoyear", "isoyear");
        words("minute", "minute", "minutes", "m", "min", "mins");
        words("hour", "hour", "hours", "h", "hr", "hrs");
        words("day", "day", "days", "d");
        words("week", "week", "weeks", "w");
        words("month", "month", "months", "mon", "mons");
        words("quarter", "quarter", "qtr");
        words("year", "year", "years", "y", "yr", "yrs");
        words("decade", "decade", "decades", "dec", "decs");
        words("century", "century", "centuries", "c", "cent");
        words("millennium", "millennium", "millennia", "mil", "mils");
        words("dow", "dow");
        words("isodow", "isodow");
        words("doy", "doy");
    }

    /**
     * The fields that builds before session 40 rewrote (the others were Calcite's BIGINT {@code
     * EXTRACT}, typed bigint): only for planning a view such a build created ({@link
     * CalciteViewPlanner#planAsEarlierBuild}). Of {@link #TIME_OF_DAY}, only {@code extract} over a date.
     */
    private static final Set<String> EARLIER_BUILD_FIELDS = Set.of(
            "second",
            "milliseconds",
            "microseconds",
            "timezone",
            "timezone_hour",
            "timezone_minute",
            "epoch",
            "julian",
            "isoyear");

    /** The fields of a time of day that earlier builds rewrote in {@code extract} over a date (0A000 there). */
    private static final Set<String> TIME_OF_DAY = Set.of("hour", "minute");

    private static void words(String field, String... words) {
        for (String w : words) {
            FIELDS.put(w, field);
        }
    }

    private ExtractCalls() {}

    /**
     * {@code text} with each call above written as a {@link PgExtractFunctions} call, or {@code
     * text} itself when it has none or does not validate here (Calcite then reports what is wrong).
     * Called by the frontend before it prepares a query and by the view planner before it plans a
     * view's; {@code validators} makes the caller's validator, used once.
     */
    static String rewrite(String text, Validators validators) {
        return rewrite(text, validators, UnaryOperator.identity(), true, false);
    }

    /**
     * As {@link #rewrite(String, Validators)}, the parsed text passed through {@code treeRewrites}
     * before the probe is made of it: the rewrites that the caller's own validation comes after (the
     * view planner's {@link StatementRewrite}s, which the frontend applies before its text reaches
     * here), so that what they rewrite ({@code date_trunc('milliseconds', ts)}) does not fail the probe.
     *
     * @param dayOfWeekShifted whether {@code text} has had {@link PgValueSemantics}' rewrite, which
     *     writes {@code extract(dow ...)} as Calcite's less 1 (the frontend's text has): the less 1
     *     is dropped where the call is rewritten here
     * @param earlierBuild whether to rewrite only what builds before session 40 did ({@link
     *     #EARLIER_BUILD_FIELDS}), as the view planner does for a view such a build created
     */
    static String rewrite(
            String text,
            Validators validators,
            UnaryOperator<SqlNode> treeRewrites,
            boolean dayOfWeekShifted,
            boolean earlierBuild) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (!lower.contains("extract") && !lower.contains("date_part")) {
            return text;
        }
        Map<SqlParserPos, SqlTypeName> values = new HashMap<>();
        try {
            SqlNode probe = treeRewrites.apply(parse(text)).accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlCall call) {
                    SqlNode visited = super.visit(call);
                    // every extract is a number here, the others too: one over an interval, which
                    // validation refuses until its own rewrite, would fail the probe for all of them
                    if (visited instanceof SqlCall c && isExtract(c)) {
                        if (field(c) != null) {
                            values.put(value(c).getParserPosition(), SqlTypeName.ANY);
                        }
                        // a number still, so the expression around it validates, that types the value
                        SqlParserPos pos = c.getParserPosition();
                        return SqlStdOperatorTable.CHAR_LENGTH.createCall(
                                pos,
                                SqlStdOperatorTable.CAST.createCall(
                                        pos,
                                        value(c),
                                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos)));
                    }
                    return visited;
                }
            });
            if (values.isEmpty()) {
                return text;
            }
            SqlValidator validator = validators.get();
            SqlNode validated = validator.validate(probe);
            validated.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall call) {
                    typeOf(call);
                    return super.visit(call);
                }

                @Override
                public Void visit(SqlIdentifier id) {
                    typeOf(id);
                    return null;
                }

                @Override
                public Void visit(SqlLiteral literal) {
                    typeOf(literal);
                    return null;
                }

                private void typeOf(SqlNode node) {
                    if (values.get(node.getParserPosition()) == SqlTypeName.ANY) {
                        RelDataType type = validator.getValidatedNodeTypeIfKnown(node);
                        if (type != null) {
                            values.put(node.getParserPosition(), type.getSqlTypeName());
                        }
                    }
                }
            });
        } catch (java.sql.SQLException | SqlParseException | RuntimeException e) {
            // a rewrite's refusal carries positions in the caller's tree: the caller meets it again
            if (e instanceof TributaryException te && !(e instanceof PositionedError)) {
                throw te;
            }
            return text;
        }
        SqlNode rewritten;
        try {
            rewritten = parse(text).accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlCall call) {
                    SqlNode visited = super.visit(call);
                    if (!(visited instanceof SqlCall c)) {
                        return visited;
                    }
                    if (dayOfWeekShifted
                            && isShiftedDayOfWeek(call)
                            && !(c.operand(0) instanceof SqlCall e && isExtract(e))) {
                        // the day of the week rewritten here counts from Sunday as 0 already
                        return c.operand(0);
                    }
                    String field = field(c);
                    SqlTypeName type = field == null ? null : values.get(value(c).getParserPosition());
                    boolean datePart = c.getOperator().getName().equalsIgnoreCase("date_part");
                    if (type == null || earlierBuild && !rewrittenByEarlierBuilds(field, type, datePart)) {
                        return visited;
                    }
                    SqlParserPos pos = c.getParserPosition();
                    SqlNode value = value(c);
                    String suffix = "timestamp";
                    if (type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && field.startsWith("timezone")) {
                        // the session zone's offset at the instant: its local time less its UTC time
                        return PgIntervals.call(
                                datePart ? "pg_date_part_zone" : "pg_extract_zone",
                                pos,
                                SqlLiteral.createCharString(field, pos),
                                SqlStdOperatorTable.CAST.createCall(
                                        pos,
                                        value,
                                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos)),
                                PgIntervals.call(
                                        AtTimeZoneCalls.LOCAL, pos, SqlLiteral.createCharString("UTC", pos), value));
                    }
                    if (type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                        // the epoch counts from the instant (its UTC time); other fields read the local time
                        value = field.equals("epoch")
                                ? PgIntervals.call(
                                        AtTimeZoneCalls.LOCAL, pos, SqlLiteral.createCharString("UTC", pos), value)
                                : SqlStdOperatorTable.CAST.createCall(
                                        pos,
                                        value,
                                        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos));
                    } else if (type == SqlTypeName.DATE && !earlierBuild) {
                        // its midnight's microseconds: a java.sql.Date argument would pass through the
                        // hybrid calendar, 10 days off in 1582's gap; date_part reads a date so anyway
                        value = SqlStdOperatorTable.CAST.createCall(
                                pos,
                                value,
                                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos));
                        suffix = datePart ? "timestamp" : "midnight";
                    } else if (type == SqlTypeName.DATE || type == SqlTypeName.TIME) {
                        suffix = type == SqlTypeName.DATE ? "date" : "time";
                    } else if (type != SqlTypeName.TIMESTAMP) {
                        return visited;
                    }
                    return PgIntervals.call(
                            (datePart ? "pg_date_part_" : "pg_extract_") + suffix,
                            pos,
                            SqlLiteral.createCharString(field, pos),
                            value);
                }
            });
        } catch (SqlParseException e) {
            return text;
        }
        return CalciteFrontend.unparse(rewritten);
    }

    /** Makes the validator that types the values of the calls: the caller's, as it validates statements. */
    @FunctionalInterface
    interface Validators {
        SqlValidator get() throws java.sql.SQLException;
    }

    private static SqlNode parse(String text) throws SqlParseException {
        return SqlParser.create(text, CalciteSettings.PARSER).parseStmt();
    }

    /** Whether {@code call} is {@code extract(field FROM value)} or {@code date_part('field', value)}. */
    private static boolean isExtract(SqlCall call) {
        if (call.operandCount() != 2) {
            return false;
        }
        return call.getKind() == SqlKind.EXTRACT && call.operand(0) instanceof SqlIntervalQualifier
                || call.getOperator().getName().equalsIgnoreCase("date_part")
                        && call.operand(0) instanceof SqlLiteral lit
                        && lit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER;
    }

    /** The normalized field of an {@code extract} or {@code date_part} call handled here, else null. */
    private static String field(SqlCall call) {
        String token = word(call);
        return token == null ? null : FIELDS.get(token.length() > 10 ? token.substring(0, 10) : token);
    }

    /** Whether {@code call} is {@link PgValueSemantics}' {@code extract(dow ...) - 1}. */
    private static boolean isShiftedDayOfWeek(SqlCall call) {
        return call.getKind() == SqlKind.MINUS
                && call.operand(0) instanceof SqlCall e
                && "dow".equals(field(e))
                && call.operand(1) instanceof SqlLiteral one
                && "1".equals(one.toValue());
    }

    /** Whether builds before session 40 rewrote a call of {@code field} over a value of {@code type}. */
    private static boolean rewrittenByEarlierBuilds(String field, SqlTypeName type, boolean datePart) {
        return EARLIER_BUILD_FIELDS.contains(field)
                || !datePart && type == SqlTypeName.DATE && TIME_OF_DAY.contains(field);
    }

    /** The lower-case field word of an {@code extract} or {@code date_part} call, else null. */
    private static String word(SqlCall call) {
        if (!isExtract(call)) {
            return null;
        }
        String word = call.operand(0) instanceof SqlIntervalQualifier q
                ? (q.timeFrameName != null ? q.timeFrameName : q.timeUnitRange.name())
                : ((SqlLiteral) call.operand(0)).getValueAs(String.class);
        return word == null ? null : word.toLowerCase(Locale.ROOT);
    }

    private static SqlNode value(SqlCall call) {
        return call.operand(1);
    }
}
