package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's 42883 for a call whose argument types match none of its function's or operator's
 * signatures ({@code function upper(integer) does not exist}, {@code operator does not exist: text
 * = integer}), with PostgreSQL's HINT, made from the types Calcite's validator names in its
 * {@code Cannot apply 'F' to arguments of type 'F(<INTEGER>)'}. Called by {@link SqlErrors};
 * stateless.
 */
final class NoMatchingSignature {
    private static final String FUNCTION_HINT =
            "No function matches the given name and argument types. You might need to add explicit type casts.";
    private static final String OPERATOR_HINT =
            "No operator matches the given name and argument types. You might need to add explicit type casts.";
    private static final String PREFIX_OPERATOR_HINT =
            "No operator matches the given name and argument type. You might need to add an explicit type cast.";

    /** One of Calcite's {@code <TYPE>}s in a signature. */
    private static final Pattern TYPE = Pattern.compile("<([^<>]+)>");

    private static final Pattern LEADING_NAME = Pattern.compile("[A-Za-z_]+");

    private NoMatchingSignature() {}

    /**
     * The error for Calcite's refusal of {@code operator} applied as {@code signature} (the text
     * it quotes: {@code UPPER(<INTEGER>)}, {@code <VARCHAR> = <INTEGER>}, {@code -<VARCHAR>}).
     *
     * @param position 1-based offset of the call in the client's statement, 0 when unknown
     */
    static TributaryException of(String operator, String signature, int position) {
        List<String> types = new ArrayList<>();
        Matcher m = TYPE.matcher(signature);
        while (m.find()) {
            if (!m.group(1).equalsIgnoreCase("symbol")) { // TRIM's BOTH, LEADING or TRAILING
                types.add(pgName(m.group(1)));
            }
        }
        boolean function = signature.toUpperCase(Locale.ROOT).startsWith(operator.toUpperCase(Locale.ROOT) + "(")
                && Character.isLetter(operator.charAt(0));
        if (function) {
            return noFunction(clientName(operator) + "(" + String.join(", ", types) + ")", position);
        }
        String name = operator.trim();
        if (types.size() == 2) {
            return new TributaryException(
                    SqlState.UNDEFINED_FUNCTION,
                    "operator does not exist: " + types.get(0) + " " + name + " " + types.get(1),
                    position,
                    null,
                    OPERATOR_HINT,
                    null);
        }
        if (types.size() == 1) {
            return new TributaryException(
                    SqlState.UNDEFINED_FUNCTION,
                    "operator does not exist: " + name + " " + types.get(0),
                    position,
                    null,
                    PREFIX_OPERATOR_HINT,
                    null);
        }
        return new TributaryException(
                SqlState.UNDEFINED_FUNCTION,
                "operator does not exist: " + name + " for argument types " + signature.toLowerCase(Locale.ROOT),
                position,
                null,
                null,
                null);
    }

    /**
     * The name the client wrote for a function Calcite names by the call a rewrite made of it
     * ({@code pg_length} for {@code length}, Calcite's {@code translate3} for {@code translate}),
     * lower case.
     */
    static String clientName(String function) {
        String name = function.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "pg_length" -> "length";
            case "pg_octet_length" -> "octet_length";
            case "translate3" -> "translate";
            default -> name;
        };
    }

    /** {@code function call does not exist}, {@code call} being the name and PostgreSQL's argument type names. */
    static TributaryException noFunction(String call, int position) {
        return new TributaryException(
                SqlState.UNDEFINED_FUNCTION,
                "function " + call + " does not exist",
                position,
                null,
                FUNCTION_HINT,
                null);
    }

    /**
     * PostgreSQL's name for the type Calcite prints as {@code calcite} ({@code INTEGER},
     * {@code DECIMAL(10, 2)}, {@code VARCHAR(5)}): a {@code CHAR(n)} in a signature is a string
     * constant, which PostgreSQL types {@code unknown}; {@code OTHER} is Tributary's interval
     * ({@link PgIntervals}).
     */
    static String pgName(String calcite) {
        String t = calcite.replace(" NOT NULL", "").trim();
        if (t.endsWith(" ARRAY")) {
            // PostgreSQL names an array type by its element's name and []
            String element = pgName(t.substring(0, t.length() - " ARRAY".length()));
            return (element.equals("unknown") ? "text" : element) + "[]";
        }
        Matcher m = LEADING_NAME.matcher(t);
        String name = m.lookingAt() ? m.group() : t;
        boolean modified = t.length() > name.length() && t.charAt(name.length()) == '(';
        if (t.contains("WITH LOCAL TIME ZONE") || name.equals("TIMESTAMP_WITH_LOCAL_TIME_ZONE")) {
            return "timestamp with time zone";
        }
        return switch (name) {
            case "CHAR" -> "unknown";
            case "VARCHAR" -> modified ? "character varying" : "text";
            case "INTEGER" -> "integer";
            case "BIGINT" -> "bigint";
            case "SMALLINT", "TINYINT" -> "smallint";
            case "DECIMAL" -> "numeric";
            case "DOUBLE", "FLOAT" -> "double precision";
            case "REAL" -> "real";
            case "BOOLEAN" -> "boolean";
            case "DATE" -> "date";
            case "TIME" -> "time without time zone";
            case "TIMESTAMP" -> "timestamp without time zone";
            case "INTERVAL", "OTHER" -> "interval";
            case "VARBINARY", "BINARY" -> "bytea";
            default -> t.toLowerCase(Locale.ROOT);
        };
    }
}
