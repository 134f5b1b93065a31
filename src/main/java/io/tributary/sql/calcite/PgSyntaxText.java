package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgArrayLiteral;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites PostgreSQL syntax Calcite's grammar lacks, as catalog queries of psql and drivers use
 * it, into text Calcite parses: {@code OPERATOR(pg_catalog.~)} becomes {@code ~},
 * {@code COLLATE pg_catalog.default} is dropped, a cast to a pg_catalog array type
 * ({@code ::pg_catalog.int2[]}, applied by psql to columns that already are arrays) is dropped, and
 * {@code pg_catalog.} before a function name or after {@code ::} is dropped (PostgreSQL resolves
 * those names in pg_catalog first anyway). Each
 * change keeps the text's length (padding with spaces), so error positions still point into the
 * client's statement. Quoted text and comments are left alone, except that an interval constant in
 * PostgreSQL's input syntax ({@code INTERVAL '2 hours 30 minutes'}, {@code '1 day'::interval}),
 * which Calcite's grammar rejects, becomes Calcite's qualified literal of the same length of time
 * (see {@link #intervalLiteral}), and an array constant cast to an array type
 * ({@code '{16388,16392}'::pg_catalog.oid[]}, {@code CAST('{1,"a b"}' AS text[])}) becomes an
 * {@code ARRAY[...]} of constants of the element type, as does an empty constructor cast to an array
 * type ({@code ARRAY[]::int[]}, {@code CAST(ARRAY[] AS text[])}), any other array type name ({@code
 * x::bigint[]}, {@code CAST(x AS int[])}) becomes Calcite's {@code bigint ARRAY}, the word {@code by} naming a column is quoted ({@link KeywordNames}), as are
 * other words Calcite reserves and PostgreSQL does not ({@link ReservedWordNames}), a date, time
 * or timestamp constant is read with PostgreSQL's input rules ({@link DateTimeConstants}), a {@code TIMESTAMPTZ '...'}
 * constant becomes Calcite's {@code TIMESTAMP WITH LOCAL TIME ZONE} literal in UTC, the type name
 * {@code TIMESTAMP WITH TIME ZONE} of a cast becomes {@code timestamptz}, and {@code x AT TIME
 * ZONE z} becomes {@code timezone(z, x)} ({@link AtTimeZoneText}), the bit operators and
 * {@code @ |/ ||/} become calls ({@link PgOperatorText}), and an argument of a function in FROM that
 * starts with a call is parenthesized ({@link FromFunctionCallsText}), and {@code DISTINCT ON (...)}
 * becomes a marker select item ({@link DistinctOnText}), an UPDATE's {@code SET c = DEFAULT} a marker
 * call ({@link UpdateDefaultText}), an array slice {@code a[2:3]} a marked
 * subscript ({@link ArraySliceText}), a call in FROM {@code WITH ORDINALITY} and an {@code unnest}
 * of several arrays derived tables ({@link FromCallRowsText}), and a window function call followed by
 * {@code ::} is parenthesized ({@link WindowCastText}), as is a BETWEEN's lower bound holding a
 * {@code ::} ({@link BetweenBoundText}); those changes
 * alter the length. Casts to {@code timestamptz(p)}, {@code timestamp(p) with time zone}, a
 * constant's to {@code interval(p)} and an interval constant's field qualifier are read as
 * PostgreSQL's type modifiers ({@link IntervalTypmods}; see {@link #rewrite(String, PgTimeZone,
 * boolean)}). A cast of
 * anything but a constant to interval is 0A000. Stateless.
 */
final class PgSyntaxText {
    /**
     * Written (a comment, which the grammar skips) before the {@code ARRAY[...]} an array constant
     * becomes, so that {@link ColumnLabels} labels it as the cast it was ({@code '{1,2}'::int[]} is
     * {@code int4}), not as a constructor.
     */
    static final String ARRAY_CONSTANT_MARK = "/*pg_array_constant*/";

    private static final Pattern OPERATOR =
            Pattern.compile("(?i)OPERATOR\\s*\\(\\s*pg_catalog\\s*\\.\\s*([~!<>=*+\\-/%^|&]+)\\s*\\)");
    private static final Pattern DEFAULT_COLLATION =
            Pattern.compile("(?i)\\bCOLLATE\\s+pg_catalog\\s*\\.\\s*(\"default\"|default)\\b");
    /** {@code COLLATE} before a quoted collation name, which may be qualified by {@code pg_catalog}. */
    private static final Pattern COLLATE_KEYWORD =
            Pattern.compile("(?i)(?<![a-z0-9_$.\"])COLLATE\\s+(?:pg_catalog\\s*\\.\\s*)?$");
    /** The collations that are the database's own C collation, which every Tributary database has. */
    private static final java.util.Set<String> C_COLLATIONS = java.util.Set.of("\"C\"", "\"POSIX\"", "\"default\"");

    private static final Pattern QUALIFIED_FUNCTION =
            Pattern.compile("(?i)\\bpg_catalog\\s*\\.\\s*(?=[a-z_][a-z0-9_]*\\s*\\()");
    private static final Pattern ARRAY_CAST =
            Pattern.compile("(?i)::\\s*pg_catalog\\s*\\.\\s*[a-z_][a-z0-9_]*\\s*\\[\\s*\\]");
    private static final Pattern QUALIFIED_TYPE = Pattern.compile("(?i)(?<=::)\\s*pg_catalog\\s*\\.");
    /**
     * {@code CAST(x AS pg_catalog.text)}, as psql's {@code \dd} and pg_dump write it: after {@code AS},
     * a name qualified by pg_catalog can only be a type (an alias is never qualified).
     */
    private static final Pattern CAST_QUALIFIED_TYPE =
            Pattern.compile("(?i)(?<=\\bAS)(\\s+)pg_catalog\\s*\\.\\s*(?=[a-z_])");
    /** A type name as an array type spells it before its {@code []}: {@code int}, {@code varchar(10)}, {@code double precision}. */
    private static final String ELEMENT_TYPE =
            "[a-z_][a-z0-9_]*(?:\\s+(?:precision|varying))?(?:\\s*\\(\\s*\\d+(?:\\s*,\\s*\\d+)?\\s*\\))?";
    /**
     * A cast to an array type after a constant: {@code '{1,2}'::pg_catalog.oid[]}, {@code
     * '{a}'::varchar(5)[]}, {@code '{1.5}'::double precision[]} (element type in group 1).
     */
    private static final Pattern ARRAY_CONSTANT_CAST =
            Pattern.compile("(?i)^\\s*::\\s*(?:pg_catalog\\s*\\.\\s*)?(" + ELEMENT_TYPE + ")\\s*\\[\\s*\\d*\\s*\\]");
    /**
     * An empty {@code ARRAY[]} cast to an array type, {@code ARRAY[]::int[]} (element type in group 1)
     * or {@code CAST(ARRAY[] AS text[])} (group 2).
     */
    private static final Pattern EMPTY_ARRAY_CAST = Pattern.compile("(?i)(?<![a-z0-9_$.])ARRAY\\s*\\[\\s*\\]\\s*::\\s*"
            + "(?:pg_catalog\\s*\\.\\s*)?(" + ELEMENT_TYPE + ")\\s*\\[\\s*\\d*\\s*\\]"
            + "|(?<![a-z0-9_$.])CAST\\s*\\(\\s*ARRAY\\s*\\[\\s*\\]\\s+AS\\s+(?:pg_catalog\\s*\\.\\s*)?("
            + ELEMENT_TYPE + ")\\s*\\[\\s*\\d*\\s*\\]\\s*\\)");
    /** An element type that is a number without precision: {@code numeric}, {@code decimal}. */
    private static final Pattern UNCONSTRAINED_NUMERIC = Pattern.compile("(?i)numeric|decimal");

    /** {@code CAST('{1,2}' AS int[])}, {@code CAST('{}' AS numeric(10,2)[])}: the rest of the cast after an array constant. */
    private static final Pattern AS_ARRAY_TYPE = Pattern.compile(
            "(?i)^\\s*AS\\s+(?:pg_catalog\\s*\\.\\s*)?(" + ELEMENT_TYPE + ")\\s*\\[\\s*\\d*\\s*\\]\\s*\\)");
    /**
     * PostgreSQL's array type name after {@code ::} or a cast's {@code AS}: {@code ::int[]}, {@code
     * AS varchar(10)[]}, {@code ::double precision[3]}; Calcite's grammar spells it {@code int ARRAY}.
     */
    private static final Pattern ARRAY_TYPE =
            Pattern.compile("(?i)(::\\s*|(?<![a-z0-9_$.])AS\\s+)([a-z_][a-z0-9_]*(?:\\s+(?:precision|varying))?"
                    + "(?:\\s*\\(\\s*\\d+(?:\\s*,\\s*\\d+)?\\s*\\))?)\\s*\\[\\s*\\d*\\s*\\]");
    /** The keyword before an interval constant: {@code INTERVAL '...'}. */
    private static final Pattern INTERVAL_KEYWORD = Pattern.compile("(?i)(?<![a-z0-9_$.])INTERVAL\\s*$");
    /** A fractional number constant multiplying the interval constant before it: {@code 2.5 * }. */
    private static final Pattern FRACTION_BEFORE =
            Pattern.compile("(?<![a-z0-9_$.])(?:\\d+\\.\\d*|\\.\\d+|\\d+(?:\\.\\d*)?[eE][+-]?\\d+)\\s*\\*\\s*$");
    /** The interval constant multiplied or divided by a fractional number constant: {@code * 2.5}, {@code / 1e3}. */
    private static final Pattern FRACTION_AFTER = Pattern.compile("^\\s*[*/]\\s*(?:\\d+\\.|\\.\\d|\\d+[eE])");
    /** The keyword before a timestamptz constant: {@code TIMESTAMPTZ '...'}, {@code TIMESTAMP WITH TIME ZONE '...'}. */
    private static final Pattern TIMESTAMPTZ_KEYWORD =
            Pattern.compile("(?i)(?<![a-z0-9_$.])(?:TIMESTAMPTZ|TIMESTAMP\\s+WITH\\s+TIME\\s+ZONE)\\s*$");
    /**
     * PostgreSQL's name of timestamptz in a cast, with a precision of 0 to 6 in group 1 or 2 if it
     * has one: {@code timestamptz}, {@code timestamptz(0)}, {@code timestamp(3) with time zone}.
     */
    private static final String TIMESTAMPTZ_TYPE = "(?:timestamptz(?:\\s*\\(\\s*(\\d{1,9})\\s*\\))?"
            + "|timestamp(?:\\s*\\(\\s*(\\d{1,9})\\s*\\))?\\s+with\\s+time\\s+zone)(?![a-z0-9_$])";
    /** A cast to timestamptz after a constant: {@code '...'::timestamptz}, {@code '...'::timestamptz(0)}. */
    private static final Pattern TIMESTAMPTZ_CAST =
            Pattern.compile("(?i)^\\s*::\\s*" + TIMESTAMPTZ_TYPE + "(?!\\s*[\\[(])");
    /** {@code CAST(} before a constant. */
    private static final Pattern CAST_OPEN = Pattern.compile("(?i)(?<![a-z0-9_$.])CAST\\s*\\(\\s*$");
    /** A type name before a constant: {@code TIMESTAMP '...'::timestamptz} casts a timestamp, not text. */
    private static final Pattern TYPED_CONSTANT =
            Pattern.compile("(?i)(?<![a-z0-9_$.])(?:TIMESTAMP|DATE|TIME|TIMESTAMPTZ)\\s*$");
    /** The rest of {@code CAST('...' AS timestamptz)} after the constant. */
    private static final Pattern AS_TIMESTAMPTZ = Pattern.compile("(?i)^\\s*AS\\s+" + TIMESTAMPTZ_TYPE + "\\s*\\)");
    /** A unit after the constant makes it Calcite's own qualified literal, which is left alone. */
    private static final Pattern QUALIFIER =
            Pattern.compile("(?i)^\\s*(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND|WEEK|QUARTER)\\b");
    /** A cast after the constant: {@code '...'::interval} (not an array type). */
    private static final Pattern INTERVAL_CAST = Pattern.compile("(?i)^\\s*::\\s*interval\\b(?!\\s*[\\[(])");
    /** A cast to {@code interval(p)} after the constant: {@code '1.2345 seconds'::interval(2)}, p in group 1. */
    private static final Pattern INTERVAL_PRECISION_CAST =
            Pattern.compile("(?i)^\\s*::\\s*interval\\s*\\(\\s*(\\d{1,9})\\s*\\)(?!\\s*[\\[(])");
    /** A parenthesized constant's cast: the {@code )::interval} of {@code ('1 hour')::interval}. */
    private static final Pattern PARENTHESIZED_CAST =
            Pattern.compile("(?i)^\\s*\\)\\s*::\\s*interval\\b(?!\\s*[\\[(])");
    /** The code before a constant ends with an opening parenthesis. */
    private static final Pattern OPEN_PARENTHESIS = Pattern.compile("\\(\\s*$");
    /** The code before an interval constant ends with {@code +} or {@code -}: the constant is added or subtracted. */
    private static final Pattern ADDED = Pattern.compile("([+-])\\s*$");
    /** The code after an interval constant binds it tighter than {@code +}: {@code * 2}, {@code / 2}, {@code ::}. */
    private static final Pattern TIGHTER = Pattern.compile("^\\s*(?:[*/%^]|::)");
    /** The code before an interval constant ends with a comparison: {@code x > INTERVAL '...'}. */
    private static final Pattern COMPARED_AFTER = Pattern.compile("[<>=]\\s*$");
    /** The code after an interval constant starts with a comparison: {@code INTERVAL '...' < x}. */
    private static final Pattern COMPARED_BEFORE = Pattern.compile("^\\s*[<>=!]");

    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /**
     * The type name {@code TIMESTAMP WITH TIME ZONE} of a cast ({@code CAST(x AS ...)}, {@code
     * x::...}), not a constant's keyword (which ends the code before the constant): Babel reads it
     * as Calcite's other zoned type, which does not convert in the session's zone.
     */
    private static final Pattern ZONED_TYPE =
            Pattern.compile("(?i)(?<![a-z0-9_$.])TIMESTAMP\\s+WITH\\s+TIME\\s+ZONE\\b(?!\\s*$)");
    /**
     * The type name {@code timestamptz(p)} or {@code TIMESTAMP(p) WITH TIME ZONE} of a cast (not a
     * constant's keyword), p in group 1 or 2: Calcite's grammar has no precision for the name
     * {@code timestamptz}, and Babel reads the other as its zoned type, so both become Calcite's
     * {@code TIMESTAMP(p) WITH LOCAL TIME ZONE}, which casts round to p ({@link MillisecondCalls}).
     */
    private static final Pattern PRECISE_ZONED_TYPE =
            Pattern.compile("(?i)(?<![a-z0-9_$.])(?:TIMESTAMPTZ\\s*\\(\\s*(\\d{1,9})\\s*\\)"
                    + "|TIMESTAMP\\s*\\(\\s*(\\d{1,9})\\s*\\)\\s+WITH\\s+TIME\\s+ZONE(?![a-z0-9_$]))");
    /** A cast of anything but a constant to interval: {@code (expr)::interval}, {@code col::interval}. */
    private static final Pattern EXPRESSION_CAST = Pattern.compile("(?i)::\\s*interval\\b(?!\\s*[\\[(])");

    private PgSyntaxText() {}

    static String rewrite(String sql) {
        return rewrite(sql, PgTimeZone.UTC);
    }

    /** As {@link #rewrite(String)}, reading timestamptz constants without an offset in {@code zone}. */
    static String rewrite(String sql, PgTimeZone zone) {
        return rewrite(sql, zone, true);
    }

    /**
     * As {@link #rewrite(String, PgTimeZone)}; {@code timePrecisions} false leaves the casts to
     * {@code time(p)}, {@code timestamptz(p)}, {@code timestamp(p) with time zone} and {@code
     * interval(p)} as builds before session 45 did (a constant's {@code time(p)} truncated by
     * Calcite, the others syntax errors), for materialized views those builds planned ({@link
     * ViewPlanningBuild#pgTimePrecisions}).
     */
    static String rewrite(String sql, PgTimeZone zone, boolean timePrecisions) {
        ComparisonChains.check(sql);
        EmptyArrayConstructors.check(sql);
        sql = AtTimeZoneText.rewrite(ReservedWordNames.quote(PgOperatorText.rewrite(TrimSubstringText.rewrite(
                SimilarSubstringText.rewrite(FromFunctionCallsText.rewrite(FromCallRowsText.rewrite(
                        ArraySliceText.rewrite(AggregateOrderText.rewrite(
                                DistinctOnText.rewrite(WindowCastText.rewrite(BetweenBoundText.rewrite(
                                        DateTruncZoneText.rewrite(UpdateDefaultText.rewrite(sql))))))))))))));
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        int codeStart = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = closingQuote(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                end = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
            } else {
                i++;
                continue;
            }
            String before = sql.substring(codeStart, i);
            Matcher collate = c == '"' ? COLLATE_KEYWORD.matcher(before) : null;
            if (collate != null && C_COLLATIONS.contains(sql.substring(i, end)) && collate.find()) {
                // the database's own collation changes nothing; Calcite's grammar has no COLLATE of an expression
                out.append(code(before.substring(0, collate.start()), timePrecisions));
                i = end;
                codeStart = end;
                continue;
            }
            if (c == '\'') {
                Matcher keyword = INTERVAL_KEYWORD.matcher(before);
                Matcher castMatch = INTERVAL_CAST.matcher(sql.substring(end));
                boolean keywordFound = keyword.find();
                boolean typed =
                        keywordFound && !QUALIFIER.matcher(sql.substring(end)).find();
                boolean cast = !typed && castMatch.find();
                Matcher parenCast = PARENTHESIZED_CAST.matcher(sql.substring(end));
                boolean parenthesized =
                        !typed && !cast && OPEN_PARENTHESIS.matcher(before).find() && parenCast.find();
                Matcher precise = INTERVAL_PRECISION_CAST.matcher(sql.substring(end));
                boolean rounded = timePrecisions && !typed && !cast && !parenthesized && precise.find();
                int castEnd = cast ? castMatch.end() : rounded ? precise.end() : 0;
                String text = sql.substring(i + 1, end - 1);
                // a field qualifier, INTERVAL '1 day 2 hours' HOUR TO MINUTE or '...'::interval day
                Matcher fields = IntervalTypmods.FIELDS.matcher(sql.substring(end + castEnd));
                boolean qualified = timePrecisions
                        && (keywordFound && !typed || cast)
                        && IntervalTypmods.unitsOnly(text.replace("''", "'"))
                        && fields.find();
                if (qualified) {
                    castEnd += fields.end();
                }
                String code = typed || qualified && !cast ? before.substring(0, keyword.start()) : before;
                String literal = typed || cast || parenthesized || rounded || qualified
                        ? intervalLiteral(
                                qualified
                                        ? IntervalTypmods.restricted(text, fields)
                                        : rounded ? IntervalTypmods.rounded(text, digits(precise.group(1))) : text,
                                code,
                                sql.substring(end + castEnd))
                        : null;
                if (literal != null) {
                    out.append(code(code, timePrecisions)).append(literal);
                    i = end + castEnd;
                    if (parenthesized) {
                        // ('1 hour')::interval keeps its parentheses and loses the cast
                        out.append(')');
                        i = end + parenCast.end();
                    }
                    codeStart = i;
                    continue;
                }
            }
            if (c == '\'') {
                // TIMESTAMPTZ '...', CAST('...' AS timestamptz), '...'::timestamptz
                String rest = sql.substring(end);
                Matcher tz = TIMESTAMPTZ_KEYWORD.matcher(before);
                Matcher open = CAST_OPEN.matcher(before);
                Matcher as = AS_TIMESTAMPTZ.matcher(rest);
                Matcher cast = TIMESTAMPTZ_CAST.matcher(rest);
                int codeEnd = -1;
                int skip = 0;
                Matcher typed = null;
                if (tz.find()) {
                    codeEnd = tz.start();
                } else if (open.find() && as.find()) {
                    codeEnd = open.start();
                    skip = as.end();
                    typed = as;
                } else if (cast.find() && !TYPED_CONSTANT.matcher(before).find()) {
                    codeEnd = before.length();
                    skip = cast.end();
                    typed = cast;
                }
                String precision = typed == null ? null : typed.group(1) != null ? typed.group(1) : typed.group(2);
                if (precision != null && !timePrecisions) {
                    codeEnd = -1;
                }
                String literal = codeEnd < 0
                        ? null
                        : timestamptzLiteral(
                                sql.substring(i + 1, end - 1),
                                zone,
                                precision == null ? FractionalSeconds.MAX_PRECISION : digits(precision));
                if (literal != null) {
                    out.append(code(before.substring(0, codeEnd), timePrecisions))
                            .append(literal);
                    i = end + skip;
                    codeStart = i;
                    continue;
                }
            }
            if (c == '\'') {
                DateTimeConstants.Rewrite constant =
                        DateTimeConstants.rewrite(before, sql.substring(i, end), sql.substring(end), timePrecisions);
                if (constant != null) {
                    out.append(code(before.substring(0, constant.codeEnd()), timePrecisions))
                            .append(constant.literal());
                    i = end + constant.skip();
                    codeStart = i;
                    continue;
                }
            }
            if (c == '\'') {
                // '{1,2}'::int[] and CAST('{1,2}' AS int[])
                String rest = sql.substring(end);
                Matcher arrayCast = ARRAY_CONSTANT_CAST.matcher(rest);
                Matcher open = CAST_OPEN.matcher(before);
                Matcher as = AS_ARRAY_TYPE.matcher(rest);
                // an E'...' constant keeps its escapes to the grammar (its cast to an array is then 0A000)
                boolean escaped = i > 0 && Character.toUpperCase(sql.charAt(i - 1)) == 'E';
                Matcher found = escaped ? null : arrayCast.find() ? arrayCast : open.find() && as.find() ? as : null;
                String array = found == null ? null : arrayConstructor(sql.substring(i + 1, end - 1), found.group(1));
                if (array != null) {
                    out.append(code(found == as ? before.substring(0, open.start()) : before, timePrecisions))
                            .append(ARRAY_CONSTANT_MARK)
                            .append(array);
                    i = end + found.end();
                    codeStart = i;
                    continue;
                }
            }
            out.append(code(before, timePrecisions, c == '\'')).append(sql, i, end);
            i = end;
            codeStart = end;
        }
        return out.append(code(sql.substring(codeStart), timePrecisions)).toString();
    }

    /**
     * The array constant {@code text} (quotes still doubled) of element type {@code type}, such as
     * {@code {1,"a b",NULL}}, as an {@code ARRAY[...]} constructor of constants of that type, each
     * element read as PostgreSQL's array input reads it ({@link PgArrayLiteral#elements}: quotes,
     * backslashes, unquoted {@code NULL}); the empty constant {@code {}} is {@link #emptyArray}.
     *
     * @throws io.tributary.common.TributaryException 22P02 for text that is no array constant, 0A000
     *     for a nested one, as {@link PgArrayLiteral#elements} does
     */
    private static String arrayConstructor(String text, String type) {
        java.util.List<String> elements = PgArrayLiteral.elements(text.replace("''", "'"));
        if (elements.isEmpty()) {
            return emptyArray(type);
        }
        StringBuilder array = new StringBuilder("ARRAY[");
        for (int k = 0; k < elements.size(); k++) {
            String e = elements.get(k);
            array.append(k == 0 ? "" : ", ");
            if (e == null) {
                array.append("NULL");
            } else {
                array.append("CAST('")
                        .append(e.replace("'", "''"))
                        .append("' AS ")
                        .append(type)
                        .append(')');
            }
        }
        return array.append(']').toString();
    }

    /**
     * An empty array of element type {@code type}: a call of {@link ArrayFunctions#EMPTY_NAME},
     * typed by its NULL argument, because Calcite's grammar has no empty {@code ARRAY[]} (an
     * {@code ARRAY(...)} of a query with no rows would be a sub-query, which views refuse).
     */
    private static String emptyArray(String type) {
        // a numeric without precision keeps its values' scales, as in PostgreSQL, not Calcite's scale 0
        String element = UNCONSTRAINED_NUMERIC.matcher(type).matches()
                ? "numeric(" + TributaryTypeSystem.MAX_NUMERIC_PRECISION + ", "
                        + TypeMapping.UNCONSTRAINED_NUMERIC_SCALE + ")"
                : type;
        return ArrayFunctions.EMPTY_NAME + "(CAST(NULL AS " + element + "))";
    }

    /** Index after the quote closing the one at {@code start}; doubled quotes stay inside. */
    private static int closingQuote(String sql, int start, char quote) {
        boolean escapes = quote == '\'' && start > 0 && Character.toUpperCase(sql.charAt(start - 1)) == 'E';
        int close = io.tributary.sql.QuotedText.closingQuote(sql, start, escapes);
        return close < 0 ? sql.length() : close;
    }

    private static String code(String text, boolean timePrecisions) {
        return code(text, timePrecisions, false);
    }

    /** @param beforeConstant whether a string constant follows {@code text}, so that it may end with the constant's type keyword */
    private static String code(String text, boolean timePrecisions, boolean beforeConstant) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("by")) {
            text = KeywordNames.quote(text);
        }
        if (lower.contains("interval") && EXPRESSION_CAST.matcher(text).find()) {
            // a constant's cast was rewritten already; Calcite's intervals cannot be read from text at run time
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                    "casting an expression to interval is not supported; cast a constant, as in '1 hour'::interval");
        }
        if (lower.contains("with") && lower.contains("zone")) {
            // PostgreSQL's timestamptz, the type the rest of Tributary zones (ZonedTimestamps)
            text = ZONED_TYPE.matcher(text).replaceAll("timestamptz");
        }
        if (timePrecisions && lower.contains("timestamp") && text.indexOf('(') >= 0) {
            String typed = text;
            text = PRECISE_ZONED_TYPE
                    .matcher(text)
                    .replaceAll(m -> beforeConstant && typed.substring(m.end()).isBlank()
                            ? Matcher.quoteReplacement(m.group()) // TIMESTAMPTZ(0) '...' is a constant's keyword
                            : "TIMESTAMP(" + digits(m.group(1) != null ? m.group(1) : m.group(2))
                                    + ") WITH LOCAL TIME ZONE");
        }
        if (lower.contains("array") && text.indexOf('[') >= 0) {
            // before the pg_catalog array casts below are dropped: ARRAY[]::pg_catalog.int4[] keeps its type
            text = EMPTY_ARRAY_CAST
                    .matcher(text)
                    .replaceAll(
                            m -> Matcher.quoteReplacement(emptyArray(m.group(1) != null ? m.group(1) : m.group(2))));
        }
        if (lower.contains("pg_catalog")) {
            text = replace(OPERATOR, text, m -> m.group(1));
            text = replace(ARRAY_CAST, text, m -> "");
            text = replace(DEFAULT_COLLATION, text, m -> "");
            text = replace(QUALIFIED_FUNCTION, text, m -> "");
            text = replace(CAST_QUALIFIED_TYPE, text, m -> m.group(1));
            text = replace(QUALIFIED_TYPE, text, m -> "");
        }
        return text.indexOf('[') < 0 ? text : ARRAY_TYPE.matcher(text).replaceAll("$1$2 ARRAY");
    }

    /**
     * Calcite's literal for PostgreSQL's timestamptz constant {@code text} (quotes still doubled):
     * the instant it names (an offset applied, none meaning {@code zone}, the session's) as
     * {@code TIMESTAMP WITH LOCAL TIME ZONE '...'} in UTC; null, leaving the constant to the
     * grammar, for a year outside 1 to 9999, which Calcite's literal cannot hold; an infinity as
     * its {@link InfinityConstants} call. The instant is rounded to {@code precision} digits, as
     * PostgreSQL rounds a cast to {@code timestamptz(p)}.
     *
     * @throws io.tributary.common.TributaryException 22007 if the text is no timestamp, as
     *     PostgreSQL rejects the constant
     */
    private static String timestamptzLiteral(String text, PgTimeZone zone, int precision) {
        long micros = FractionalSeconds.roundTimestamp(
                PgTextFormat.parseTimestamptz(text.replace("''", "'"), zone), precision);
        if (!InfiniteDateTimes.isFinite(micros)) {
            return InfinityConstants.name("TIMESTAMPTZ", micros > 0) + "()";
        }
        String utc = PgTextFormat.format(DataType.TIMESTAMP, micros);
        return utc.length() < 19 || utc.charAt(4) != '-' || utc.endsWith("BC")
                ? null
                : "TIMESTAMP WITH LOCAL TIME ZONE '" + utc + "'";
    }

    /**
     * Calcite's literal for the PostgreSQL interval text {@code text} (quotes still doubled): whole
     * months as {@code INTERVAL 'n' MONTH(9)}, days and time as {@code INTERVAL 'd h:m:s.fff' DAY(9)
     * TO SECOND(3)}, the two kinds Calcite's intervals have. An interval with both months and days
     * or time that is added to or subtracted from something ({@code before} ends with {@code +} or
     * {@code -} and {@code after} binds no tighter) becomes the two literals added or subtracted in
     * turn, {@code ts + INTERVAL '1' MONTH(9) + INTERVAL '2 0:0:0.000' DAY(9) TO SECOND(3)}: Calcite
     * adds from the left, so months go first and clamp to the month's last day, then days and time,
     * as PostgreSQL adds them. PostgreSQL's own value ({@code pg_interval('text')}, see
     * {@link PgIntervals}) where Calcite's cannot stand for it: finer than milliseconds, or days and
     * time that Calcite's one count would print otherwise (see {@link #mixesDaysAndTime}) where the
     * value shows rather than only its length (not added, subtracted or compared).
     *
     * @throws io.tributary.common.TributaryException 22007 if the text is no interval (22008 for a
     *     field out of range), as PostgreSQL rejects the constant; 0A000 for an interval mixing
     *     months with days or time anywhere else, which no Calcite value holds
     */
    private static String intervalLiteral(String text, String before, String after) {
        Interval iv = (Interval) PgTextFormat.parse(DataType.INTERVAL, text.replace("''", "'"));
        if (iv.micros() % 1000 != 0
                || FRACTION_BEFORE.matcher(before).find()
                || FRACTION_AFTER.matcher(after).find()) {
            // finer than Calcite's milliseconds, or scaled by a fraction, which Calcite's generated
            // code cannot do to its intervals: only PostgreSQL's own value holds it
            return "pg_interval('" + text + "')";
        }
        String months = "INTERVAL '" + iv.months() + "' MONTH(9)";
        if (iv.days() == 0 && iv.micros() == 0) {
            return iv.months() != 0 ? months : dayTime(iv);
        }
        Matcher added = ADDED.matcher(before);
        boolean tighter = TIGHTER.matcher(after).find();
        if (iv.months() == 0) {
            // added or compared, only the length counts, which Calcite's value has; elsewhere the
            // value itself shows, so days and time must stay apart as PostgreSQL keeps them
            boolean lengthOnly = (added.find() && !tighter)
                    || COMPARED_AFTER.matcher(before).find()
                    || COMPARED_BEFORE.matcher(after).find();
            return lengthOnly || !mixesDaysAndTime(iv) ? dayTime(iv) : "pg_interval('" + text + "')";
        }
        added.reset();
        if (added.find() && !tighter) {
            return months + ' ' + added.group(1) + ' ' + dayTime(iv);
        }
        // no Calcite interval holds both: PostgreSQL's own (PgIntervals), made from the text at run time
        return "pg_interval('" + text + "')";
    }

    /**
     * The fraction digits a time type keeps of the precision {@code written}: PostgreSQL reduces one
     * above 6 to 6 (with the WARNING {@link io.tributary.sql.TimePrecisionWarnings} sends).
     */
    private static int digits(String written) {
        return Math.min(Integer.parseInt(written), FractionalSeconds.MAX_PRECISION);
    }

    /**
     * Whether Calcite's day-time value (one count of milliseconds) would print {@code iv}
     * otherwise than PostgreSQL: days with 24 hours or more ({@code 1 day 27:00:00}), or days and
     * time of opposite signs ({@code -1 days +02:00:00}).
     */
    private static boolean mixesDaysAndTime(Interval iv) {
        return iv.days() != 0
                && iv.micros() != 0
                && (Math.abs(iv.micros()) >= MICROS_PER_DAY || Long.signum(iv.micros()) != Integer.signum(iv.days()));
    }

    /**
     * The days and time of {@code iv} as Calcite's day-time literal (milliseconds): {@code DAY TO
     * SECOND} when it has days, else {@code HOUR TO SECOND}, so that its value prints as PostgreSQL
     * keeps it ({@code '27 hours'} is {@code 27:00:00}, not a day and 3 hours; {@link TypeMapping}
     * splits days off only a type that counts them).
     */
    private static String dayTime(Interval iv) {
        // PostgreSQL keeps days and time apart; Calcite's day-time interval is one count of milliseconds
        long millis = iv.days() * 86_400_000L + iv.micros() / 1000;
        long abs = Math.abs(millis);
        String sign = millis < 0 ? "-" : "";
        if (iv.days() == 0) {
            return String.format(
                    java.util.Locale.ROOT,
                    "INTERVAL '%s%d:%d:%d.%03d' HOUR(9) TO SECOND(3)",
                    sign,
                    abs / 3_600_000L,
                    abs / 60_000L % 60,
                    abs / 1000 % 60,
                    abs % 1000);
        }
        return String.format(
                java.util.Locale.ROOT,
                "INTERVAL '%s%d %d:%d:%d.%03d' DAY(9) TO SECOND(3)",
                sign,
                abs / 86_400_000L,
                abs / 3_600_000L % 24,
                abs / 60_000L % 60,
                abs / 1000 % 60,
                abs % 1000);
    }

    /** Replaces each match with {@code replacement}, padded with spaces to the match's length. */
    private static String replace(Pattern p, String text, java.util.function.Function<Matcher, String> replacement) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder(text.length());
        while (m.find()) {
            String r = replacement.apply(m);
            m.appendReplacement(
                    sb, Matcher.quoteReplacement(r + " ".repeat(m.group().length() - r.length())));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
