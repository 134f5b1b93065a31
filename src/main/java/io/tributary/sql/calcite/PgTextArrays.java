package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's functions that split text into a {@code text[]}: {@code string_to_array(text,
 * delimiter [, null_string])} (named {@code pg_string_to_array}: Calcite's own types the elements
 * as its first argument, so a constant's elements come back blank-padded; {@link PgArrayCalls}
 * renames the calls) and {@code parse_ident(text [, strict])}, which Grafana calls on a table name
 * the user picked, and {@code regexp_split_to_array(text, pattern [, flags])} ({@link
 * PgRegexpMatch#regexpSplitToArray}). {@link #register} adds them to a Calcite root typed as arrays of nullable text;
 * generated code calls the public static methods by reflection, on any thread.
 */
public final class PgTextArrays {
    private PgTextArrays() {}

    /** {@code string_to_array(s, delimiter)}. */
    public static List<String> pg_string_to_array(String s, String delimiter) {
        return pg_string_to_array(s, delimiter, null);
    }

    /**
     * {@code string_to_array(s, delimiter, null_string)}, as PostgreSQL splits: a NULL delimiter
     * makes each character an element, an empty one the whole text; an empty text is an empty
     * array; elements equal to {@code nullString} are NULL.
     */
    public static List<String> pg_string_to_array(String s, String delimiter, String nullString) {
        if (s == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        if (delimiter == null) {
            s.codePoints().forEach(c -> out.add(nullable(new String(Character.toChars(c)), nullString)));
        } else if (delimiter.isEmpty()) {
            out.add(nullable(s, nullString));
        } else {
            int from = 0;
            int at;
            while ((at = s.indexOf(delimiter, from)) >= 0) {
                out.add(nullable(s.substring(from, at), nullString));
                from = at + delimiter.length();
            }
            out.add(nullable(s.substring(from), nullString));
        }
        return out;
    }

    private static String nullable(String element, String nullString) {
        return element.equals(nullString) ? null : element;
    }

    /** {@code parse_ident(s)}: strict. */
    public static List<String> parse_ident(String s) {
        return parse_ident(s, true);
    }

    /**
     * {@code parse_ident(s, strict)}: the dot-separated names of a qualified identifier, quoted
     * ones as written (doubled quotes undone), others folded to lower case; with {@code strict}
     * false, text after the last name is ignored.
     *
     * @throws TributaryException 22023 for text that is not a qualified identifier, with
     *     PostgreSQL's message
     */
    public static List<String> parse_ident(String s, Boolean strict) {
        if (s == null || strict == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (true) {
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i < n && s.charAt(i) == '"') {
                StringBuilder name = new StringBuilder();
                int j = i + 1;
                while (true) {
                    int q = s.indexOf('"', j);
                    if (q < 0) {
                        throw invalid(s, "String has unclosed double quotes.");
                    }
                    name.append(s, j, q);
                    if (q + 1 < n && s.charAt(q + 1) == '"') {
                        name.append('"');
                        j = q + 2;
                    } else {
                        i = q + 1;
                        break;
                    }
                }
                if (name.length() == 0) {
                    throw invalid(s, "Quoted identifier must not be empty.");
                }
                names.add(name.toString());
            } else {
                int j = i;
                while (j < n && isIdentChar(s.charAt(j), j == i)) {
                    j++;
                }
                if (j == i) {
                    if (!names.isEmpty()) {
                        throw invalid(s, "No valid identifier after \".\".");
                    }
                    throw invalid(s, i < n && s.charAt(i) == '.' ? "No valid identifier before \".\"." : null);
                }
                names.add(s.substring(i, j).toLowerCase(Locale.ROOT));
                i = j;
            }
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i < n && s.charAt(i) == '.') {
                i++;
                continue;
            }
            if (i < n && strict) {
                throw invalid(s, null);
            }
            return names;
        }
    }

    private static boolean isIdentChar(char c, boolean first) {
        return Character.isLetter(c) || c == '_' || (!first && (Character.isDigit(c) || c == '$'));
    }

    private static TributaryException invalid(String s, String detail) {
        return new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE,
                "string is not a valid identifier: \"" + s + "\"",
                0,
                detail,
                null,
                null);
    }

    /** {@code regexp_split_to_array(s, pattern)}: see {@link PgRegexpMatch#regexpSplitToArray}. */
    public static List<String> regexp_split_to_array(String s, String pattern) {
        return PgRegexpMatch.regexpSplitToArray(s, pattern, null);
    }

    /** {@code regexp_split_to_array(s, pattern, flags)}: see {@link PgRegexpMatch#regexpSplitToArray}. */
    public static List<String> regexp_split_to_array(String s, String pattern, String flags) {
        return PgRegexpMatch.regexpSplitToArray(s, pattern, flags);
    }

    /** Adds the functions to {@code root}; see {@link CatalogSchema#registerFunctions}. */
    static void register(SchemaPlus root) {
        for (Method m : PgTextArrays.class.getMethods()) {
            if (m.getDeclaringClass() == PgTextArrays.class) {
                root.add(m.getName(), TypedReflectiveFunction.of(m, PgTextArrays::textArray));
            }
        }
    }

    /** An array of nullable text, itself nullable. */
    private static RelDataType textArray(RelDataTypeFactory types) {
        return types.createTypeWithNullability(
                types.createArrayType(
                        types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true), -1),
                true);
    }

    /** The names {@link #register} adds, as {@code pg_proc} lists them. */
    static List<String> names() {
        return List.of("string_to_array", "parse_ident", "regexp_split_to_array");
    }
}
