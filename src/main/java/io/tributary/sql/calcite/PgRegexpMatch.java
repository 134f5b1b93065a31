package io.tributary.sql.calcite;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code regexp_match(string, pattern [, flags])}: the capturing groups of the first
 * match as a {@code text[]} (an unmatched group a NULL element), the whole match when the pattern
 * has no group, NULL when nothing matches or an operand is NULL; and the pieces
 * between the matches that {@code regexp_split_to_array} ({@link PgTextArrays}) returns. Patterns and flags are
 * PostgreSQL's, translated by {@link PgRegexPatterns}. {@link #register} adds the function to a
 * Calcite root, typed {@link TextArrayType}; the generated code of queries and views calls the
 * public static methods by reflection, on any thread. The last pattern a thread compiled is kept
 * with its matcher, so a column matched against one constant pattern compiles it once per thread.
 */
public final class PgRegexpMatch {
    /** The last pattern and flags this thread compiled, and a matcher of it to reset per string. */
    private static final ThreadLocal<Compiled> LAST = new ThreadLocal<>();

    private record Compiled(String pattern, String flags, Matcher matcher) {}

    private PgRegexpMatch() {}

    /** {@code regexp_match(s, pattern)}. */
    public static List<String> regexpMatch(String s, String pattern) {
        return regexpMatch(s, pattern, null);
    }

    /**
     * {@code regexp_match(s, pattern, flags)}.
     *
     * @throws io.tributary.common.TributaryException 2201B for a bad pattern, 22023 for a bad flag
     */
    public static List<String> regexpMatch(String s, String pattern, String flags) {
        Matcher m = matcher(pattern, flags);
        if (m == null || s == null) {
            return null;
        }
        m.reset(s);
        if (!m.find()) {
            return null;
        }
        int groups = m.groupCount();
        if (groups == 0) {
            return List.of(m.group());
        }
        String[] out = new String[groups];
        for (int g = 1; g <= groups; g++) {
            out[g - 1] = m.group(g);
        }
        return Arrays.asList(out);
    }

    /**
     * This thread's matcher of {@code pattern} with {@code flags}, compiled anew only when they
     * differ from the last ones; null for a NULL pattern. PostgreSQL compiles (and so rejects a bad
     * pattern) before looking at the string.
     */
    private static Matcher matcher(String pattern, String flags) {
        if (pattern == null) {
            return null;
        }
        Compiled last = LAST.get();
        if (last == null || !last.pattern.equals(pattern) || !Objects.equals(last.flags, flags)) {
            last = new Compiled(
                    pattern, flags, PgRegexPatterns.compile(pattern, flags).matcher(""));
            LAST.set(last);
        }
        return last.matcher;
    }

    /**
     * {@code regexp_split_to_array(s, pattern, flags)}: the pieces of {@code s} between the matches
     * of {@code pattern}, split as PostgreSQL splits: a match counts unless it starts at the end of
     * {@code s} or ends where the previous match ended, so an empty pattern splits between
     * characters and an empty match at the start is skipped; after an empty match the search goes on
     * one character later. NULL when an operand is NULL.
     *
     * @throws io.tributary.common.TributaryException 2201B for a bad pattern, 22023 for a bad flag
     *     or the global flag {@code g}
     */
    static List<String> regexpSplitToArray(String s, String pattern, String flags) {
        if (flags != null && flags.indexOf('g') >= 0) {
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.INVALID_PARAMETER_VALUE,
                    "regexp_split_to_array() does not support the \"global\" option");
        }
        Matcher m = matcher(pattern, flags);
        if (m == null || s == null) {
            return null;
        }
        m.reset(s);
        List<String> pieces = new java.util.ArrayList<>();
        int pieceStart = 0;
        int previousEnd = 0;
        int from = 0;
        while (from <= s.length() && m.find(from)) {
            int start = m.start();
            int end = m.end();
            if (start < s.length() && end > previousEnd) {
                pieces.add(s.substring(pieceStart, start));
                pieceStart = end;
            }
            previousEnd = end;
            from = start == end ? end + 1 : end;
        }
        pieces.add(s.substring(pieceStart));
        return pieces;
    }

    /**
     * {@code substring(s FROM pattern)} with a text pattern: the part of {@code s} the first
     * parenthesized subexpression matched, or the whole match when the pattern has none; NULL when
     * nothing matches or an operand is NULL. {@link PgValueSemantics} calls it {@link #SUBSTRING}.
     */
    public static String substringMatch(String s, String pattern) {
        List<String> match = regexpMatch(s, pattern, null);
        return match == null ? null : match.get(0);
    }

    /** The name {@link #substringMatch} is registered under. */
    static final String SUBSTRING = "pg_substring_match";

    /**
     * Adds {@code regexp_match}'s two forms and {@link #substringMatch} to {@code root}; see {@link
     * CatalogSchema#registerFunctions}.
     */
    static void register(SchemaPlus root) {
        root.add(
                PgSimilarSubstring.NAME,
                org.apache.calcite.schema.impl.ScalarFunctionImpl.create(PgSimilarSubstring.class, "similarSubstring"));
        root.add(
                SUBSTRING,
                org.apache.calcite.schema.impl.ScalarFunctionImpl.create(PgRegexpMatch.class, "substringMatch"));
        for (Method m : PgRegexpMatch.class.getMethods()) {
            if (m.getName().equals("regexpMatch")) {
                root.add(
                        "regexp_match",
                        TypedReflectiveFunction.of(
                                m,
                                types -> new TextArrayType(types.createTypeWithNullability(
                                        types.createSqlType(SqlTypeName.VARCHAR), true))));
            }
        }
    }
}
