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
 * has no group, NULL when nothing matches or an operand is NULL. Patterns and flags are
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
        if (pattern == null) {
            return null;
        }
        Compiled last = LAST.get();
        if (last == null || !last.pattern.equals(pattern) || !Objects.equals(last.flags, flags)) {
            // PostgreSQL compiles (and so rejects a bad pattern) before looking at the string
            last = new Compiled(
                    pattern, flags, PgRegexPatterns.compile(pattern, flags).matcher(""));
            LAST.set(last);
        }
        if (s == null) {
            return null;
        }
        Matcher m = last.matcher.reset(s);
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
