package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.ConstantInputPositions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.ParseException;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImplConstants;
import org.apache.calcite.sql.parser.babel.Token;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Translates Calcite's exceptions into the errors PostgreSQL would report for the same mistake,
 * with SQLSTATE, a PostgreSQL-style message and the position in the client's statement.
 */
final class SqlErrors {
    /** Text PostgreSQL reads as an integer: refused by Java only when out of the type's range. */
    /** A window frame with an offset in the client's text. */
    private static final Pattern RANGE_OFFSET =
            Pattern.compile("(?is)\\bRANGE\\s+BETWEEN\\b.*\\b(PRECEDING|FOLLOWING)\\b");

    private static final Pattern INTEGER_TEXT = Pattern.compile("\\s*[+-]?[0-9]+\\s*");

    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line");

    /**
     * Text ending in an ARRAY constructor's opening bracket: a {@code [} that fails to parse after it
     * opens a nested list, a multidimensional array ({@code ARRAY[[1, 2], [3, 4]]}).
     */
    private static final Pattern NESTED_ARRAY_END = Pattern.compile("(?i)\\barray\\s*\\[\\s*$");

    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
    private static final Pattern OBJECT_NOT_FOUND_IN_SCHEMA =
            Pattern.compile("Object '([^']*)' not found within '([^']*)'");
    private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found");
    private static final Pattern UNKNOWN_TARGET = Pattern.compile("Unknown target column '([^']*)'");
    private static final Pattern NO_FUNCTION =
            Pattern.compile("No match found for function signature (\\w+)\\((.*)\\)");
    /** Calcite's word for a DESCRIPTOR column (a window's time column) the relation lacks. */
    private static final Pattern UNKNOWN_IDENTIFIER = Pattern.compile("Unknown identifier '(.*?)'");
    /** The text before a cast's type name: {@code x::} or {@code CAST(x AS}. */
    private static final Pattern TYPE_NAME_BEFORE = Pattern.compile("(?i)(?:::|(?<![a-z0-9_$])AS)\\s*$");

    /** AvgScale's and VarianceCalls' argument {@code x * 1::numeric(1,0)}: group 1 is x's type. */
    private static final Pattern SCALED_ARGUMENT = Pattern.compile("<(.*)> \\* <DECIMAL\\(1, 0\\)>");

    /** The aggregates AvgScale and VarianceCalls rewrite, as the client may write them. */
    private static final Pattern SCALED_AGGREGATE =
            Pattern.compile("(?i)avg|variance|var_samp|var_pop|stddev|stddev_samp|stddev_pop");

    private static final Pattern SCALED_AGGREGATE_CALL =
            Pattern.compile("(?i)\\b(" + SCALED_AGGREGATE.pattern().substring(4) + ")\\s*\\(");

    /** A variance or standard deviation aggregate as the client may write it. */
    private static final Pattern VARIANCE_CALL =
            Pattern.compile("(?i)\\b(variance|var_samp|var_pop|stddev|stddev_samp|stddev_pop)\\s*\\(");

    /** One of Calcite's {@code <TYPE>}s in a function signature. */
    private static final Pattern SIGNATURE_TYPE = Pattern.compile("<([^<>]+)>");

    private static final Pattern CANNOT_APPLY = Pattern.compile("Cannot apply '(.*?)' to arguments of type '(.*?)'");
    private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']*)' is ambiguous");
    /** Calcite's refusal of WITHIN GROUP after an aggregate that is no ordered-set one ({@code string_agg}). */
    private static final Pattern NOT_ORDERED_SET =
            Pattern.compile("Aggregate expression '(\\w+)' must not contain a WITHIN GROUP clause");

    private static final Pattern NOT_GROUPED = Pattern.compile("Expression '(.*?)' is not being grouped");

    /** Calcite's refusal of GREATEST or LEAST over types with no common type: the function and the types. */
    private static final Pattern NO_COMMON_TYPE =
            Pattern.compile("Cannot infer return type for (GREATEST|LEAST); operand types: \\[(.*)\\]");

    /** A comma between two of Calcite's type names, not inside {@code DECIMAL(10, 2)}. */
    private static final Pattern TYPE_SEPARATOR = Pattern.compile(",\\s*(?![^()]*\\))");

    private SqlErrors() {}

    /**
     * PostgreSQL's message for GREATEST or LEAST ({@code function}) over Calcite's {@code types}:
     * the first typed argument's type and the first later one that is a string beside a
     * non-string ({@code CHAR(n)} is a string constant, which takes any type); Calcite's words
     * when there is no such pair (a date beside a number).
     */
    private static String unmatchedArguments(String function, String types) {
        String first = null;
        for (String type : TYPE_SEPARATOR.split(types)) {
            String name = NoMatchingSignature.pgName(type);
            if (name.equals("unknown") || type.startsWith("NULL")) {
                continue;
            }
            if (first == null) {
                first = name;
            } else if (isText(first) != isText(name)) {
                return function + " types " + first + " and " + name + " cannot be matched";
            }
        }
        return "Cannot infer return type for " + function + "; operand types: [" + types + "]";
    }

    private static boolean isText(String pgType) {
        return pgType.equals("text") || pgType.equals("character varying");
    }

    /** The error for a failure while preparing or running {@code sql}, positions counting in {@code sql}. */
    static TributaryException translate(Throwable error, String sql) {
        return translate(error, StatementPositions.of(sql));
    }

    /**
     * The error for a failure while preparing or running a statement, its position in the client's
     * text as {@code positions} finds it.
     */
    static TributaryException translate(Throwable error, StatementPositions positions) {
        return ConstantInputPositions.placed(translated(error, positions), positions.client());
    }

    private static TributaryException translated(Throwable error, StatementPositions positions) {
        String sql = positions.client();
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof PositionedError pe) {
                return pe.in(positions);
            }
            if (t instanceof TributaryException te) {
                return te;
            }
            for (Throwable suppressed : t.getSuppressed()) {
                // an error a function's code generation raised (PgFormattingCalls), kept by Calcite's implementor
                if (suppressed instanceof TributaryException te) {
                    return te;
                }
            }
            if (t instanceof SqlParseException pe) {
                return parseError(pe, positions);
            }
            if (t instanceof CalciteContextException ce) {
                return validationError(ce, positions);
            }
            if (t instanceof PatternSyntaxException pse) {
                // a pattern Calcite's own regex operators (~, ~*, regexp_replace) compiled at run time
                return new TributaryException(
                        SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: " + pse.getDescription());
            }
            if (String.valueOf(t.getMessage()).startsWith("Invalid escape sequence '")) {
                // Calcite's LIKE translation refuses a pattern ending in its escape character
                return new TributaryException(
                        SqlState.INVALID_ESCAPE_SEQUENCE, "LIKE pattern must not end with escape character");
            }
            if (t instanceof ArithmeticException ae) {
                String m = String.valueOf(ae.getMessage());
                // no message: the JVM's own integer division by zero, once hot code throws its
                // preallocated exception (OmitStackTraceInFastThrow)
                if (ae.getMessage() == null || m.contains("by zero") || m.contains("Division undefined")) {
                    return new TributaryException(SqlState.DIVISION_BY_ZERO, "division by zero");
                }
                // checked integer arithmetic (CheckedArithmetic) reports Math.*Exact's messages
                if (m.startsWith("integer overflow: Value") && m.endsWith("SMALLINT")) {
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range");
                }
                if (m.equals("integer overflow")) {
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
                }
                if (m.equals("long overflow")) {
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
                }
                if (m.contains("cannot be represented as a DECIMAL")) {
                    // a value too large for numeric(p, s): Calcite's cast check
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow: " + m);
                }
                if (m.startsWith("Value ") && m.endsWith(" out of range")) {
                    // a cast to an integer type of a value beyond it (Calcite's cast check)
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "v" + m.substring(1));
                }
                if (m.toLowerCase().contains("overflow")) {
                    return new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: " + m);
                }
                return new TributaryException(SqlState.DATA_EXCEPTION, m);
            }
            if (t instanceof AssertionError
                    && t.getStackTrace().length > 0
                    && t.getStackTrace()[0].getClassName().endsWith("implicit.AbstractTypeCoercion")) {
                // Calcite's implicit casts assert on argument types they were not written for
                return TributaryException.notSupported("these argument types (implicit casts between them)");
            }
            if (t instanceof NumberFormatException nfe) {
                String m = String.valueOf(nfe.getMessage());
                Matcher range =
                        Pattern.compile("Value out of range\\. Value:\"(.*)\"").matcher(m);
                if (range.find()) {
                    // Java's integer parsing of text cast to an integer type (Short.parseShort's
                    // message): the digits are valid
                    return new TributaryException(
                            SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                            "value \"" + range.group(1) + "\" is out of range for type " + integerType(nfe));
                }
                Matcher input = Pattern.compile("For input string: \"(.*)\"").matcher(m);
                String value = input.find() ? input.group(1) : m;
                if (INTEGER_TEXT.matcher(value).matches()) {
                    // digits Integer.parseInt or Long.parseLong refused: too many for the type
                    return new TributaryException(
                            SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                            "value \"" + value + "\" is out of range for type " + integerType(nfe));
                }
                return new TributaryException(
                        SqlState.INVALID_TEXT_REPRESENTATION,
                        "invalid input syntax for type " + parsedType(nfe) + ": \"" + value + "\"");
            }
        }
        String message = rootMessage(error);
        TributaryException known = knownRuntimeError(message, sql);
        if (known != null) {
            return known;
        }
        if (message.contains("SqlFunctions.greater(java.lang.Object")
                || message.contains("SqlFunctions.lesser(java.lang.Object")) {
            // Calcite's max and min have no code for an opaque type: PostgreSQL's interval (PgIntervals)
            return TributaryException.notSupported("max() and min() of an interval");
        }
        if (causedBy(error, "Redeclaration of \"compare(Object o0, Object o1)\"")) {
            // Calcite's generated join comparator for an opaque key: PostgreSQL's interval (PgIntervals)
            return TributaryException.notSupported("a join on an interval column");
        }
        if (message.contains("more than one value in agg SINGLE_VALUE")) {
            // Calcite's scalar sub-query check, as in SET v = (SELECT w FROM u WHERE u.id = t.id)
            return new TributaryException(
                    SqlState.CARDINALITY_VIOLATION, "more than one row returned by a subquery used as an expression");
        }
        if (message.contains("step size cannot equal zero")) {
            return new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        if (message.startsWith("Illegal TIMESTAMP")
                || message.startsWith("Illegal DATE")
                || message.startsWith("Illegal TIME")) {
            return new TributaryException(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax: " + message);
        }
        if (message.contains("Invalid character for cast")
                || message.contains("Invalid DATE")
                || message.contains("Invalid TIMESTAMP")
                || message.contains("Invalid TIME")) {
            return new TributaryException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax: " + message);
        }
        return new TributaryException(SqlState.INTERNAL_ERROR, "internal error: " + message, error);
    }

    /**
     * PostgreSQL's error for a failure Calcite reports only by its message (date fields out of
     * range, logarithms of zero, aggregates it cannot implement), or null.
     */
    private static TributaryException knownRuntimeError(String message, String sql) {
        if (message.startsWith("Value of DAY field is out of range")
                || message.startsWith("Value of MONTH field is out of range")) {
            return new TributaryException(
                    SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: " + message);
        }
        if (message.startsWith("Year out of range")) {
            return new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range");
        }
        if (message.startsWith("Cannot take logarithm of zero or negative number")) {
            return new TributaryException(
                    SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of zero or a negative number");
        }
        if (message.contains("(pad pattern) for LPAD/RPAD must not be empty")) {
            return TributaryException.notSupported("lpad and rpad with an empty fill text");
        }
        if (message.startsWith("Cannot invoke \"java.lang.")
                && message.contains("Value()\" because")
                && RANGE_OFFSET.matcher(sql).find()) {
            // RangeFrameCheck let an integer key through; Calcite's frame code cannot take its NULLs
            return TributaryException.notSupported(
                    "RANGE with offset PRECEDING/FOLLOWING over an ORDER BY column that holds NULL");
        }
        if (message.startsWith("Unable to implement") && message.contains(") WITHIN GROUP (")) {
            // Calcite's expansion of DISTINCT aggregates turns an ordered one beside them into an
            // ordered MIN over the grouping sets' rows, which it has no code for
            return TributaryException.notSupported(
                    "an aggregate with its own ORDER BY beside a DISTINCT aggregate in one SELECT");
        }
        if (message.contains("Missing conversion is LogicalAggregate")) {
            return TributaryException.notSupported(
                    sql.toLowerCase(java.util.Locale.ROOT).contains("within group")
                            ? "ordered-set aggregates (WITHIN GROUP), such as percentile_cont"
                            : "this aggregate");
        }
        return null;
    }

    /**
     * PostgreSQL's name of the integer type Java was parsing when it threw {@code nfe}: Calcite
     * parses text cast to smallint with {@code Short.parseShort}, which calls {@code Integer.parseInt}.
     */
    private static String integerType(NumberFormatException nfe) {
        for (StackTraceElement frame : nfe.getStackTrace()) {
            if (frame.getClassName().equals("java.lang.Short")) {
                return "smallint";
            }
            if (frame.getClassName().equals("java.lang.Long")) {
                return "bigint";
            }
        }
        return "integer";
    }

    /**
     * The error for {@link VarianceCalls}' final function refused over {@code signature} (an
     * interval's sums, which {@link PgTypeCoercion} does not cast): 42883 for the client's first
     * variance or deviation aggregate in {@code sql}, of the first argument's type ({@code
     * function stddev(interval) does not exist}); null when {@code sql} has none.
     */
    private static TributaryException varianceOf(String signature, String sql) {
        Matcher type = SIGNATURE_TYPE.matcher(signature);
        Matcher call = VARIANCE_CALL.matcher(sql);
        if (!type.find() || !call.find()) {
            return null;
        }
        String function = call.group(1).toLowerCase(java.util.Locale.ROOT);
        return NoMatchingSignature.noFunction(
                function + "(" + NoMatchingSignature.pgName(type.group(1)) + ")", call.start(1) + 1);
    }

    /**
     * PostgreSQL's name of the type Java was parsing text as when it threw {@code nfe}: an integer
     * type by {@link #integerType} when an integer parser threw it ({@code SELECT 1 UNION SELECT
     * 'x'} casts the text to integer), else {@code numeric}.
     */
    private static String parsedType(NumberFormatException nfe) {
        for (StackTraceElement frame : nfe.getStackTrace()) {
            String name = frame.getClassName();
            if (name.equals("java.lang.Integer") || name.equals("java.lang.Long") || name.equals("java.lang.Short")) {
                return integerType(nfe);
            }
        }
        return "numeric";
    }

    private static String rootMessage(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private static TributaryException parseError(SqlParseException pe, StatementPositions positions) {
        String sql = positions.client();
        Token wrong = wrongToken(pe);
        if (wrong != null && wrong.image.equals("[")) {
            // ARRAY[[1, 2], [3, 4]]: PostgreSQL's multidimensional arrays, which Tributary does not hold
            int at = positions.offset(new SqlParserPos(wrong.beginLine, wrong.beginColumn));
            if (at > 0 && NESTED_ARRAY_END.matcher(sql.substring(0, at - 1)).find()) {
                return new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "multidimensional arrays are not supported",
                        at,
                        null,
                        null,
                        null);
            }
        }
        if (wrong != null) {
            // PostgreSQL names the first token no statement can continue with; at the end, one past the text
            return wrong.kind == SqlBabelParserImplConstants.EOF
                    ? new TributaryException(
                            SqlState.SYNTAX_ERROR, "syntax error at end of input", sql.length() + 1, null, null, null)
                    : new TributaryException(
                            SqlState.SYNTAX_ERROR,
                            "syntax error at or near \"" + wrong.image + "\"",
                            positions.offset(new SqlParserPos(wrong.beginLine, wrong.beginColumn)),
                            null,
                            null,
                            null);
        }
        if (pe.getCause() instanceof SqlValidatorException
                && String.valueOf(pe.getMessage()).startsWith("BETWEEN operator has no terminating AND")) {
            TributaryException between = BetweenBoundErrors.of(sql);
            if (between != null) {
                return between;
            }
        }
        int position = positions.offset(pe);
        Matcher m = ENCOUNTERED.matcher(String.valueOf(pe.getMessage()));
        String message;
        if (m.find()) {
            String token = m.group(1).trim();
            message = token.equals("<EOF>") || token.isEmpty()
                    ? "syntax error at end of input"
                    : "syntax error at or near \"" + token + "\"";
        } else if (position > 0) {
            message = "syntax error at or near \"" + tokenAt(sql, position - 1) + "\"";
        } else {
            message = "syntax error: " + firstLine(pe.getMessage());
        }
        return new TributaryException(SqlState.SYNTAX_ERROR, message, position, null, null, null);
    }

    /**
     * The token the parser could not go on with: of the tokens after the last one it took, the
     * first that no expected token sequence reaches (the parser reports from the start of its
     * lookahead, {@code "+ <EOF>"} for {@code SELECT 1 +}). Null when the parser gave no tokens.
     */
    private static Token wrongToken(SqlParseException pe) {
        if (!(pe.getCause() instanceof ParseException p) || p.currentToken == null || p.currentToken.next == null) {
            return null;
        }
        Token first = p.currentToken.next;
        int reached = 0;
        for (int[] sequence : p.expectedTokenSequences == null ? new int[0][] : p.expectedTokenSequences) {
            int matched = 0;
            for (Token t = first; t != null && matched < sequence.length && t.kind == sequence[matched]; t = t.next) {
                matched++;
            }
            reached = Math.max(reached, matched);
        }
        Token wrong = first;
        for (int i = 0; i < reached && wrong.next != null; i++) {
            wrong = wrong.next;
        }
        return wrong;
    }

    private static TributaryException validationError(CalciteContextException ce, StatementPositions positions) {
        String sql = positions.client();
        int position = positions.offset(ce);
        String m = ce.getCause() != null ? String.valueOf(ce.getCause().getMessage()) : String.valueOf(ce.getMessage());
        Matcher x;
        String state;
        String message;
        if ((x = OBJECT_NOT_FOUND_IN_SCHEMA.matcher(m)).find()) {
            // PostgreSQL names a missing relation as the statement qualified it
            state = SqlState.UNDEFINED_TABLE;
            message = "relation \"" + x.group(2) + "." + x.group(1) + "\" does not exist";
        } else if ((x = OBJECT_NOT_FOUND.matcher(m)).find() || (x = TABLE_NOT_FOUND.matcher(m)).find()) {
            state = SqlState.UNDEFINED_TABLE;
            message = "relation \"" + x.group(1) + "\" does not exist";
        } else if ((x = AMBIGUOUS.matcher(m)).find()) {
            state = SqlState.AMBIGUOUS_COLUMN;
            message = "column reference \"" + x.group(1) + "\" is ambiguous";
        } else if ((x = UNKNOWN_IDENTIFIER.matcher(m)).find()
                && position > 0
                && TYPE_NAME_BEFORE
                        .matcher(sql.substring(0, Math.min(position - 1, sql.length())))
                        .find()) {
            // Calcite looks a type name it does not know up as a user type and names it an unknown identifier
            // (or, for one of PostgreSQL's types Tributary has no values of, 0A000 naming it)
            boolean known =
                    io.tributary.sql.PgTypeNames.isUnsupportedType(x.group(1).toLowerCase(java.util.Locale.ROOT));
            state = known ? SqlState.FEATURE_NOT_SUPPORTED : SqlState.UNDEFINED_OBJECT;
            message = known ? "type " + x.group(1) + " is not supported" : "type \"" + x.group(1) + "\" does not exist";
        } else if ((x = COLUMN_NOT_FOUND.matcher(m)).find()
                || (x = UNKNOWN_TARGET.matcher(m)).find()
                || (x = UNKNOWN_IDENTIFIER.matcher(m)).find()) {
            state = SqlState.UNDEFINED_COLUMN;
            message = "column \"" + x.group(1) + "\" does not exist";
        } else if ((x = NO_FUNCTION.matcher(m)).find()
                && VarianceCalls.isFinal(x.group(1))
                && varianceOf(x.group(2), sql) != null) {
            return varianceOf(x.group(2), sql);
        } else if ((x = NO_FUNCTION.matcher(m)).find()) {
            List<String> types = new ArrayList<>();
            Matcher type = SIGNATURE_TYPE.matcher(x.group(2));
            while (type.find()) {
                types.add(NoMatchingSignature.pgName(type.group(1)));
            }
            return NoMatchingSignature.noFunction(
                    NoMatchingSignature.clientName(x.group(1)) + "(" + String.join(", ", types) + ")", position);
        } else if ((x = CANNOT_APPLY.matcher(m)).find() && x.group(1).matches("(?i)TUMBLE|HOP|SESSION")) {
            // TimeWindowCalls checked the sizes (and the session gap): what Calcite refuses is the time column's type
            state = SqlState.DATATYPE_MISMATCH;
            message = "the time column of " + x.group(1).toLowerCase() + " must be a timestamp";
            // Calcite names the call; PostgreSQL-style, the caret goes under the argument at fault
            SqlNode column = TimeWindowCalls.timeColumn(positions.node(ce));
            if (column != null && positions.offset(column.getParserPosition()) > 0) {
                position = positions.offset(column.getParserPosition());
            }
        } else if ((x = CANNOT_APPLY.matcher(m)).find()
                && x.group(1).equals("*")
                && (x = SCALED_ARGUMENT.matcher(x.group(2))).matches()) {
            // AvgScale's and VarianceCalls' x * 1::numeric(1,0) over an argument the aggregate
            // does not take, or over an interval, which the view planner (unlike a query's) does
            // not rewrite into PostgreSQL's interval functions
            String function = position > 0 ? tokenAt(sql, position - 1).toLowerCase(java.util.Locale.ROOT) : "";
            if (!SCALED_AGGREGATE.matcher(function).matches()) {
                // the position is in the rewritten text: the client's first such aggregate
                Matcher call = SCALED_AGGREGATE_CALL.matcher(sql);
                if (call.find()) {
                    function = call.group(1).toLowerCase(java.util.Locale.ROOT);
                    position = call.start(1) + 1;
                }
            }
            String type = NoMatchingSignature.pgName(x.group(1));
            if (function.equals("avg") && type.equals("interval")) {
                return UnsupportedInViews.error("the aggregate function avg(interval) is", position);
            }
            return NoMatchingSignature.noFunction(function + "(" + type + ")", position);
        } else if ((x = CANNOT_APPLY.matcher(m)).find()) {
            return NoMatchingSignature.of(x.group(1), x.group(2), position);
        } else if ((x = NOT_ORDERED_SET.matcher(m)).find()) {
            // PostgreSQL looks the ORDER BY keys up as more arguments and finds no such function
            state = SqlState.UNDEFINED_FUNCTION;
            message = x.group(1).toLowerCase(java.util.Locale.ROOT)
                    + " is not an ordered-set aggregate, so it cannot have WITHIN GROUP";
        } else if ((x = NOT_GROUPED.matcher(m)).find()) {
            state = SqlState.GROUPING_ERROR;
            message = "column \"" + x.group(1)
                    + "\" must appear in the GROUP BY clause or be used in an aggregate function";
        } else if (m.endsWith(" cannot be matched")) {
            // CommonTypeResolution's refusal of a CASE's or COALESCE's results, in PostgreSQL's words
            state = SqlState.DATATYPE_MISMATCH;
            message = m;
        } else if ((x = NO_COMMON_TYPE.matcher(m)).find()) {
            state = SqlState.DATATYPE_MISMATCH;
            message = unmatchedArguments(x.group(1), x.group(2));
        } else if (m.contains("Cannot assign")
                || m.contains("incompatible types")
                || m.contains("Type mismatch")
                || m.contains("must have compatible types")
                || m.contains("Cannot infer return type")
                || m.contains("Illegal mixing of types")) {
            state = SqlState.DATATYPE_MISMATCH;
            message = firstLine(m);
        } else if (m.contains("clause must be a condition")) {
            // WHERE 1, HAVING 1
            state = SqlState.DATATYPE_MISMATCH;
            message = "argument of " + m.substring(0, m.indexOf(' ')) + " must be type boolean";
        } else if (m.contains("Cast function cannot convert")) {
            state = SqlState.CANNOT_COERCE;
            message = firstLine(m);
        } else if (m.equals("RANGE clause cannot be used with compound ORDER BY clause")
                || m.equals("Window specification must contain an ORDER BY clause")) {
            // Calcite's checks of a RANGE frame with an offset: PostgreSQL's words and state
            state = SqlState.WINDOWING_ERROR;
            message = "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column";
        } else if (m.contains("Aggregate expression is illegal") || m.contains("aggregate")) {
            state = SqlState.GROUPING_ERROR;
            message = firstLine(m);
        } else {
            state = SqlState.SYNTAX_ERROR;
            message = firstLine(m);
        }
        return new TributaryException(state, message, position, null, null, null);
    }

    /** The word or symbol starting at 0-based {@code offset}. */
    private static String tokenAt(String sql, int offset) {
        int end = offset;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
            end++;
        }
        return end == offset ? sql.substring(offset, Math.min(offset + 1, sql.length())) : sql.substring(offset, end);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** 1-based character offset of (line, column), both 1-based; 0 when unknown. */
    static int offset(String sql, int line, int column) {
        if (line <= 0 || column <= 0) {
            return 0;
        }
        int off = 0;
        for (int l = 1; l < line; l++) {
            int nl = sql.indexOf('\n', off);
            if (nl < 0) {
                return 0;
            }
            off = nl + 1;
        }
        return Math.min(off + column, sql.length());
    }

    /** Whether a message in {@code error}'s chain of causes contains {@code text}. */
    private static boolean causedBy(Throwable error, String text) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(text)) {
                return true;
            }
        }
        return false;
    }
}
