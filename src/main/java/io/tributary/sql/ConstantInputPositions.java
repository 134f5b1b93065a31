package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Places an input error of a constant where PostgreSQL places it. PostgreSQL converts a string
 * constant cast to a type ({@code 'abc'::int}, {@code CAST('abc' AS int)}, {@code int 'abc'}) while
 * it analyses the statement, so the error (22P02, 22007, 22008, 22003) carries the constant's
 * position and psql draws a caret under it; Tributary's conversion happens later (often while the
 * rows are read), without one. The Calcite layer's error translation (errors while rows are read)
 * and the session (errors while a statement is planned or started) call {@link #placed} with the
 * client's text; stateless and thread-safe.
 */
public final class ConstantInputPositions {
    private ConstantInputPositions() {}

    private static final Set<String> STATES = Set.of(
            SqlState.INVALID_TEXT_REPRESENTATION,
            SqlState.INVALID_DATETIME_FORMAT,
            SqlState.DATETIME_FIELD_OVERFLOW,
            SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
    /** The value an input error quotes: its first double-quoted text. */
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"]|\"\")*)\"");
    /** Type names written before a string constant ({@code DATE '...'}): a typed constant. */
    private static final Set<String> TYPE_WORDS = Set.of(
            "int",
            "integer",
            "int2",
            "int4",
            "int8",
            "smallint",
            "bigint",
            "numeric",
            "decimal",
            "real",
            "float4",
            "float8",
            "boolean",
            "bool",
            "date",
            "time",
            "timestamp",
            "timestamptz",
            "interval",
            "uuid",
            "json",
            "jsonb",
            "bytea");

    private static final Pattern WORD_BEFORE = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*$");
    private static final Pattern CAST_OPEN_BEFORE = Pattern.compile("(?i)\\bcast\\s*\\(\\s*$");

    /**
     * {@code error} with the 1-based position of the cast string constant in {@code sql} whose value
     * it quotes; {@code error} itself when it has a position already, is not an input error, or no
     * cast constant of that value is in the text (the value came from a row: PostgreSQL gives no
     * position then either).
     */
    public static TributaryException placed(TributaryException error, String sql) {
        if (error.position() != 0 || !STATES.contains(error.sqlState()) || error.getMessage() == null) {
            return error;
        }
        Matcher quoted = QUOTED.matcher(error.getMessage());
        if (!quoted.find()) {
            return error;
        }
        String constant = "'" + quoted.group(1).replace("'", "''") + "'";
        for (int at = sql.indexOf(constant); at >= 0; at = sql.indexOf(constant, at + 1)) {
            if (isCast(sql, at, at + constant.length())) {
                return new TributaryException(
                        error.sqlState(), error.getMessage(), at + 1, error.detail(), error.hint(), error.getCause());
            }
        }
        return error;
    }

    /** Whether the constant at {@code start} to {@code end} is cast: {@code ::} after it, or CAST( or a type before it. */
    private static boolean isCast(String sql, int start, int end) {
        if (start > 0 && sql.charAt(start - 1) == '\'') {
            return false;
        }
        if (sql.substring(end).stripLeading().startsWith("::")) {
            return true;
        }
        String before = sql.substring(0, start);
        if (CAST_OPEN_BEFORE.matcher(before).find()) {
            return true;
        }
        Matcher word = WORD_BEFORE.matcher(before);
        return word.find() && TYPE_WORDS.contains(word.group(1).toLowerCase(Locale.ROOT));
    }
}
