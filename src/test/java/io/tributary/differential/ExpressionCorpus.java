package io.tributary.differential;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The statements of {@link ExpressionCorpusDifferentialTest}: operators, functions and casts of
 * int2, int4, int8, float8, numeric, text, date, time, timestamp, interval, boolean and bytea,
 * operator precedence and overflow, generated as the cross products of a few values per type
 * (edge values included), plus aggregates over the table {@link #SETUP} creates. Each statement
 * returns at most a few rows in a defined order, so outcomes compare as texts.
 */
final class ExpressionCorpus {
    private ExpressionCorpus() {}

    static final List<String> SETUP = List.of(
            "CREATE TABLE ev (id INT PRIMARY KEY, i2 SMALLINT, i4 INT, i8 BIGINT, f8 DOUBLE PRECISION,"
                    + " nu NUMERIC(12,4), tx TEXT, dt DATE, ts TIMESTAMP, bo BOOLEAN)",
            "INSERT INTO ev VALUES (1, 1, 10, 100, 1.5, 2.5, 'alpha', DATE '2024-01-31',"
                    + " TIMESTAMP '2024-01-31 10:20:30', true)",
            "INSERT INTO ev VALUES (2, -2, -20, -200, -0.25, -1.125, 'Beta', DATE '2023-12-31',"
                    + " TIMESTAMP '2023-12-31 23:59:59', false)",
            "INSERT INTO ev VALUES (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
            "INSERT INTO ev VALUES (4, 32767, 2147483647, 9223372036854775807, 1e300, 99999999.9999,"
                    + " 'gamma delta', DATE '2000-02-29', TIMESTAMP '2000-02-29 00:00:00', true)",
            "INSERT INTO ev VALUES (5, 0, 0, 0, 0, 0, '', DATE '1970-01-01', TIMESTAMP '1970-01-01 00:00:00', false)");

    /** Typed constants per numeric type: ordinary values, zero and the type's edge. */
    private static final Map<String, List<String>> NUMBERS = Map.of(
            "int2", List.of("7::int2", "(-3)::int2", "0::int2", "32767::int2"),
            "int4", List.of("7", "-3", "0", "2147483647"),
            "int8", List.of("7::int8", "(-3)::int8", "0::int8", "9223372036854775807::int8"),
            "numeric", List.of("7.5::numeric", "(-3.25)::numeric", "0::numeric", "12345678901234567890.123::numeric"),
            "float8", List.of("7.5::float8", "(-3.25)::float8", "0::float8", "1e308::float8"));

    private static final List<String> NUMERIC_TYPES = List.of("int2", "int4", "int8", "numeric", "float8");

    static List<String> statements() {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        arithmetic(out);
        comparisons(out);
        casts(out);
        numericFunctions(out);
        text(out);
        dateTime(out);
        booleans(out);
        bytea(out);
        precedence(out);
        aggregates(out);
        numericPowersAndOrderedSets(out);
        characterN(out);
        dateTimeJson(out);
        jsonOfArrays(out);
        arraysOfTypesWithModifiers(out);
        textFunctions(out);
        return List.copyOf(out);
    }

    /**
     * PostgreSQL's common string functions and operators over ordinary, empty, NULL and non-ASCII
     * texts, with their edge arguments (negative lengths and fields, over-long pads), and the
     * pattern matchers with flags and escapes (issue 12).
     */
    private static void textFunctions(LinkedHashSet<String> out) {
        out.add("SELECT @ -5, |/ 16.0, @ (-2.5)::float8, |/ 2::float8, @ (-7)::int8");
        for (String s : List.of("'naïve café'", "''", "NULL", "'日本語テキスト'")) {
            out.add("SELECT bit_length(" + s + "), octet_length(" + s + "), char_length(" + s + ")");
            out.add("SELECT substring(" + s + " FROM 2 FOR 3), substring(" + s + " FOR 2), substr(" + s + ", 3)");
            out.add("SELECT overlay(" + s + " PLACING 'XY' FROM 2), overlay(" + s + " PLACING '' FROM 1 FOR 2)");
            out.add("SELECT overlay(" + s + " PLACING 'XY' FROM 20), overlay(" + s + " PLACING 'Z' FROM 2 FOR -1)");
            out.add("SELECT left(" + s + ", -2), right(" + s + ", -2), left(" + s + ", 0), right(" + s + ", 20)");
            out.add("SELECT lpad(" + s + ", 3, 'ab'), rpad(" + s + ", 15, 'xy'), lpad(" + s + ", -1, 'x')");
            out.add("SELECT lpad(" + s + ", 12), rpad(" + s + ", 12) || '|', lpad(" + s + ", -1), rpad(" + s + ", -5)");
            out.add("SELECT translate(" + s + ", 'aé', 'A'), reverse(" + s + "), initcap(" + s + "), ascii(" + s + ")");
            out.add("SELECT quote_literal(" + s + "), quote_nullable(" + s + "), quote_ident(" + s + ")");
            out.add("SELECT " + s + " LIKE '%a%', " + s + " ILIKE '%É%', " + s + " ~ 'a.', " + s + " ~* 'CAF', " + s
                    + " !~ '^n'");
            out.add("SELECT regexp_replace(" + s + ", '[aeiou]', '_', 'g'), regexp_match(" + s + ", '(.)(.)')");
            out.add("SELECT strpos(" + s + ", 'é'), position('' IN " + s + "), starts_with(" + s + ", ''), md5(" + s
                    + ")");
        }
        out.add("SELECT trim(BOTH 'x' FROM 'xxaxbxx'), trim(LEADING 'xy' FROM 'yxzyx'), trim(TRAILING FROM ' a ')");
        out.add("SELECT btrim('xyaxy', 'xy'), ltrim('zzabc', 'z'), rtrim('abcxx', 'x'), btrim('', 'a'), ltrim(NULL)");
        out.add("SELECT trim('  a  '), trim(BOTH FROM 'xax', 'x'), ltrim('éé a', 'é')");
        out.add("SELECT lpad('hi', 5, ''), rpad('hi', 1), lpad('日本', 5, '語'), rpad('', 3, 'ab')");
        out.add(
                "SELECT repeat('é', 3), repeat('', 5), repeat(NULL, 2), replace('aaa', 'aa', 'b'), replace('abc', '', 'x')");
        out.add("SELECT split_part('a,b,c', ',', -2), split_part('a,b,c', ',', 4), split_part('a,,c', ',', 2)");
        out.add("SELECT split_part('abc', '', 1), split_part('', ',', 1), split_part('a,b', ',', -3)");
        out.add("SELECT split_part('a,b', ',', 0)");
        out.add("SELECT split_part('a,b,c', ',', -1), split_part('a--b--c', '--', -2), split_part('abc', '', -1)");
        out.add("SELECT lpad('hi', 2147483647), rpad('hi', 2147483647, 'x')");
        out.add("SELECT lpad('hi', 2147483647, ''), rpad('hi', 1, '')");
        out.add("SELECT overlay('abc' PLACING 'X' FROM 0)");
        out.add("SELECT string_agg(x, NULL), string_agg(x, NULL ORDER BY x DESC) FROM (VALUES ('a'), ('b')) v(x)");
        out.add("SELECT string_agg(x, NULL::text) FROM (VALUES ('a'), ('b')) v(x)");
        out.add("SELECT 'a_c' LIKE 'a_c' ESCAPE '', 'a\\c' LIKE 'a\\c' ESCAPE '', 'abc' NOT LIKE 'a%' ESCAPE '',"
                + " 'ABC' ILIKE 'a_c' ESCAPE ''");
        out.add(
                "SELECT 'a.c' SIMILAR TO 'a_c' ESCAPE '', 'a.c' SIMILAR TO 'a#.c' ESCAPE '#', 'abc' NOT SIMILAR TO '%.%', 'abc' SIMILAR TO '[a.]bc'");
        out.add("SELECT concat_ws(',', true, NULL::boolean, 1 > 2, 'x'), concat_ws(', ', 'a', 1.50, false)");
        out.add("SELECT substring('abc' FOR 0), substring('日本語' FOR 2), substring('abc' FOR 5)");
        out.add("SELECT substring('abc' FOR -1)");
        out.add("SELECT trim(LEADING FROM 'xxa', 'x'), trim(TRAILING FROM 'axx', 'x'), trim(FROM 'xax', 'x'),"
                + " trim('xax', 'x'), trim(LEADING 'x' FROM 'xxa'), trim(BOTH FROM '  a  ')");
        out.add("SELECT concat_ws(',', 'a', '', NULL, 2), concat_ws(NULL, 'a', 'b'), concat('é', NULL), concat_ws('')");
        out.add("SELECT format('%s|%s', 'a', NULL), format('%I', 'a b'), format('%I', 'abc'), format('%L', NULL)");
        out.add("SELECT format('%2$s %1$s', 'a', 'b'), format('100%%'), format('%s %s', 'a', 'b', 'c')");
        out.add("SELECT format('%s %s', 'a')");
        out.add("SELECT format('%x', 1)");
        out.add("SELECT format('%5s|%-5s|', 'ab', 'cd'), format(NULL), format('%s', 1.50)");
        out.add("SELECT quote_ident('Abc'), quote_ident('abc'), quote_ident('select'), quote_ident('a\"b')");
        out.add("SELECT quote_literal('a\\b'), quote_literal(42), quote_nullable(NULL), quote_nullable(1)");
        out.add("SELECT ascii(''), ascii('é'), ascii('日'), chr(233), chr(26085)");
        out.add("SELECT chr(0)");
        out.add("SELECT chr(-1)");
        out.add("SELECT to_hex(0), to_hex(-1), to_hex(9223372036854775807), to_hex(-1::int8), to_hex(2147483647)");
        out.add("SELECT md5(''), md5('日本'), starts_with('', ''), starts_with('abc', 'abcd'), starts_with(NULL, 'a')");
        out.add(
                "SELECT substring('Thomas' FROM '...$'), substring('Thomas' FROM 'o(.)a'), substring('Thomas' FROM 'z')");
        out.add("SELECT substring('Thomas' SIMILAR '%#\"o_a#\"_' ESCAPE '#'), substring('abc' FROM 2 FOR 0)");
        out.add("SELECT substring('abc' FROM -1 FOR 3), substring('abc' FROM 5), substring(NULL FROM 1)");
        out.add("SELECT substring('abc' FROM 1 FOR -1)");
        out.add("SELECT overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4)");
        out.add("SELECT position('é' IN 'café'), position('x' IN ''), strpos('abcabc', 'c'), strpos('abc', '')");
        out.add(
                "SELECT string_agg(x, '-'), string_agg(x, '-' ORDER BY x DESC) FROM (VALUES ('b'), ('a'), (NULL), ('é')) v(x)");
        out.add("SELECT string_agg(x, '') FROM (VALUES ('a'), ('b')) v(x)");
        out.add("SELECT string_agg(x, ',') FROM (VALUES (NULL::text)) v(x)");
        out.add("SELECT array_to_string(ARRAY['a', NULL, 'c'], ','), array_to_string(ARRAY['a', NULL, 'c'], ',', '*')");
        out.add(
                "SELECT array_to_string(ARRAY[1, 2], ''), array_to_string(ARRAY[]::text[], ','), array_to_string(NULL::text[], ',')");
        out.add("SELECT regexp_replace('Hello World', 'o', '0', 'g'), regexp_replace('Hello', 'L', 'x', 'gi')");
        out.add(
                "SELECT regexp_replace('abc', '(b)', '[\\1]'), regexp_replace('ABC', 'b', 'x', 'i'), regexp_replace('aaa', 'a*', 'X')");
        out.add(
                "SELECT regexp_replace(NULL, 'a', 'b'), regexp_replace('日本語', '本', 'x'), regexp_replace('a.b', '.', '-', 'g')");
        out.add(
                "SELECT regexp_match('foobarbequebaz', '(bar)(beque)'), regexp_match('abc', 'x'), regexp_match('ABC', 'b', 'i')");
        out.add("SELECT regexp_match('abc', 'b'), (regexp_match('k=v', '(\\w)=(\\w)'))[2]");
        out.add("SELECT regexp_matches('a1b2c3', '[0-9]', 'g') ORDER BY 1");
        out.add("SELECT regexp_matches('foobarbequebaz', 'ba(.)', 'g')");
        out.add("SELECT regexp_matches('abc', '(a)(x)?')");
        out.add("SELECT regexp_replace('abc', '(', 'x')");
        out.add(
                "SELECT 'a_c' LIKE 'a\\_c', 'abc' LIKE 'a\\_c', 'a%c' LIKE 'a!%c' ESCAPE '!', 'abc' LIKE 'a!%c' ESCAPE '!'");
        out.add("SELECT 'ABC' ILIKE 'a%', 'abc' NOT ILIKE 'A_C', 'Straße' ILIKE 'STRASSE', 'ÉCOLE' ILIKE 'école'");
        out.add("SELECT '' LIKE '', '' LIKE '%', NULL LIKE 'a', 'a' LIKE NULL, 'abc' NOT LIKE '%b%'");
        out.add("SELECT 'a\\' LIKE 'a\\'");
        out.add(
                "SELECT 'abc' SIMILAR TO 'a%', 'abc' SIMILAR TO '(a|b)c', 'abc' SIMILAR TO '[a-c]+', 'abc' NOT SIMILAR TO 'b%'");
        out.add(
                "SELECT 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c', 'a_c' SIMILAR TO 'a#_c' ESCAPE '#', NULL SIMILAR TO 'a'");
        // a pattern that is no constant: its dots are literal too
        out.add(
                "SELECT id, tx SIMILAR TO replace(tx, ' ', '.') AS a, 'gamma.delta' SIMILAR TO replace(tx, ' ', '.') AS b,"
                        + " tx NOT SIMILAR TO replace(tx, 'a', '.') AS c, tx SIMILAR TO replace(tx, ' ', '#.') ESCAPE '#' AS d"
                        + " FROM ev ORDER BY id");
        out.add("SELECT 'abc' ~ '^a', 'abc' ~ 'B', 'abc' ~* 'B', 'abc' !~ 'b', 'abc' !~* 'B', 'é' ~ '^.$'");
        out.add("SELECT 'abc' ~ '('");
        out.add(
                "SELECT id, tx ~ 'a', tx ~* 'BETA', tx LIKE '%a', upper(tx) ILIKE 'G%', regexp_replace(tx, 'a', 'A', 'g') FROM ev ORDER BY id");
        out.add(
                "SELECT id, length(tx), bit_length(tx), lpad(tx, 6, '.'), split_part(tx, ' ', -1), initcap(tx) FROM ev ORDER BY id");
        out.add(
                "SELECT id, format('%s=%L', id, tx), quote_nullable(tx), concat_ws('/', tx, id, bo) FROM ev ORDER BY id");
        out.add("SELECT lower('ÀÉÎ'), upper('straße'), initcap('hello-world foo_bar 1st'), initcap('ÉCOLE été')");
    }

    /** Intervals and arrays of dates, times and timestamps turned into JSON, and make_timestamptz (issue 12). */
    private static void dateTimeJson(LinkedHashSet<String> out) {
        out.add("SELECT to_json(interval '1 day 2 hours'), to_jsonb(interval '1 mon -2 days 03:00')");
        out.add("SELECT json_build_object('a', interval '90 minutes'), jsonb_build_array(interval '1 year 2 months',"
                + " interval '-3 days', interval '0.5 ms')");
        out.add("SELECT to_json(interval '3' day), to_json(interval '27' hour), to_json(INTERVAL '2' MONTH)");
        out.add("SELECT to_json(TIMESTAMP '2024-02-29 13:45:59.5' - TIMESTAMP '2000-01-01 00:00:00')");
        out.add("SELECT json_agg(x) FROM (VALUES (interval '1 day'), (interval '2 hours 3.5 seconds'), (NULL)) v(x)");
        out.add("SELECT json_object_agg(k, v) FROM (VALUES ('a', interval '1 hour'), ('b', interval '1 day')) t(k, v)");
        out.add(
                "SELECT to_json(ARRAY[date '2024-01-01', NULL, date '2024-02-29']), to_jsonb(ARRAY[date '1999-12-31'])");
        out.add("SELECT to_json(ARRAY[timestamp '2024-01-01 10:00:00.5', timestamp '2024-01-01 10:00:00.123456'])");
        out.add("SELECT to_json(ARRAY[time '10:00:00.5', time '23:59:59']), to_jsonb(ARRAY[timestamp '1960-06-01'])");
        out.add("SELECT json_build_object('d', ARRAY[date '2024-01-01'], 't', ARRAY[timestamp '2024-01-01 10:00'])");
        out.add("SELECT jsonb_agg(x) FROM (VALUES (ARRAY[date '2024-01-01']), (ARRAY[date '2024-01-02'])) v(x)");
        out.add(
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5.5), make_timestamptz(2024, 1, 2, 3, 4, 5, 'America/New_York')");
        out.add("SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, '+05:30'), make_timestamptz(2024, 2, 30, 3, 4, 5)");
        timestampDistances(out);
        zoneAbbreviations(out);
    }

    /** Zone abbreviations in timestamptz input, fixed offsets as PostgreSQL reads them (issue 12). */
    private static void zoneAbbreviations(LinkedHashSet<String> out) {
        out.add("SELECT '2024-01-01 12:00 PST'::timestamptz, '2024-07-01 12:00 EST'::timestamptz,"
                + " '2024-07-01 12:00 CET'::timestamptz, '2024-01-01 12:00 PDT'::timestamptz");
        out.add("SELECT '2024-01-01 12:00 UTC'::timestamptz, '2024-01-01 12:00Z'::timestamptz,"
                + " '2024-07-01 12:00:00.5 cest'::timestamptz, TIMESTAMPTZ '2024-01-01 12:00 MSK'");
        out.add("SELECT '2024-01-01 12:00 BST'::timestamptz, '2024-01-01 12:00 CDT'::timestamptz,"
                + " '2024-01-01 12:00 AKST'::timestamptz, '2024-01-01 12:00 JST'::timestamptz");
        out.add("SELECT '2024-01-01 12:00 PST'::timestamp, '2024-01-01 12:00 EET'::date");
        out.add("SELECT '2024-01-01 12:00 XYZ'::timestamptz");
    }

    /**
     * {@code timestamp - timestamp}, {@code timestamptz - timestamptz} (also beside a timestamp) and
     * {@code age} keep the microseconds of the interval (issue 12).
     */
    private static void timestampDistances(LinkedHashSet<String> out) {
        out.add("SELECT TIMESTAMP '2000-01-01' - TIMESTAMP '2024-02-29 13:45:59.123456',"
                + " TIMESTAMP '2024-01-01 00:00:00.000001' - TIMESTAMP '2024-01-01'");
        out.add("SELECT id, ts - TIMESTAMP '1999-12-31 23:59:59.999999' FROM ev ORDER BY id");
        out.add("SELECT TIMESTAMP '2024-01-01 00:00:01.5' - TIMESTAMP '2024-01-01' > INTERVAL '1 second',"
                + " extract(epoch FROM TIMESTAMP '2024-01-01 00:00:01.000005' - TIMESTAMP '2024-01-01')");
        out.add("SELECT age(TIMESTAMP '2024-02-29 13:45:59.123456', TIMESTAMP '2000-01-01 00:00:00.5'),"
                + " age(TIMESTAMP '2000-01-01 00:00:00.5', TIMESTAMP '2024-02-29 13:45:59.123456')");
        out.add("SELECT id, age(ts, TIMESTAMP '1969-12-31 23:59:59.000001') FROM ev ORDER BY id");
        out.add("SELECT extract(microseconds FROM age(TIMESTAMP '2000-01-01 00:00:00.25'))");
        out.add("SELECT timestamptz '2024-01-01 00:00:00.000001+00' - timestamptz '2024-01-01 00:00:00+00'");
        out.add("SELECT TIMESTAMPTZ '2000-01-01 00:00:00+05:30' - TIMESTAMPTZ '2024-02-29 13:45:59.123456-08',"
                + " TIMESTAMPTZ '2024-03-31 03:00:00.5+02' - TIMESTAMPTZ '2024-03-30 02:00:00.000001+01'");
        out.add("SELECT TIMESTAMPTZ '2024-01-01 00:00:00.123456+00' - TIMESTAMP '2023-12-31 23:59:59.999999',"
                + " TIMESTAMP '1969-12-31 23:59:59.000001' - TIMESTAMPTZ '1970-01-01 00:00:00+00'");
        out.add("SELECT id, ts::timestamptz - TIMESTAMPTZ '1999-12-31 23:59:59.999999+00' FROM ev ORDER BY id");
    }

    /**
     * Arrays and rows holding arrays turned into JSON, compared as raw text (issue 12): an array
     * written without blanks, and {@code json_agg} setting each array or row element after the first
     * on a line of its own, but not a {@code null} one or a json value that holds an array.
     */
    private static void jsonOfArrays(LinkedHashSet<String> out) {
        out.add("SELECT json_agg(x) FROM (VALUES (ARRAY[1, 2]), (ARRAY[3]), (NULL)) v(x)");
        out.add("SELECT json_agg(x) FROM (VALUES (NULL::int[]), (ARRAY[1]), (ARRAY[2])) v(x)");
        out.add("SELECT json_agg(v) FROM (VALUES (1, ARRAY['a', 'b']), (2, ARRAY[]::text[])) v(id, a)");
        out.add("SELECT json_agg(v ORDER BY id) FROM (VALUES (1, ARRAY[1, 2], 'x'), (2, NULL, 'y')) v(id, a, s)");
        out.add("SELECT to_json(ARRAY[1, 2]), to_json(ARRAY['a', NULL]), json_build_object('a', ARRAY[1, 2])");
        out.add("SELECT jsonb_agg(x) FROM (VALUES (ARRAY[1, 2]), (ARRAY[3])) v(x)");
        out.add("SELECT json_object_agg(k, v) FROM (VALUES ('a', ARRAY[1, 2]), ('b', NULL)) t(k, v)");
        out.add("SELECT json_agg(to_json(x)) FROM (VALUES (ARRAY[1]), (ARRAY[2])) v(x)");
        out.add("SELECT json_agg(x ORDER BY x DESC) FILTER (WHERE x IS NOT NULL)"
                + " FROM (VALUES (ARRAY['b']), (NULL), (ARRAY['a', 'c'])) v(x)");
        out.add("SELECT json_agg(ARRAY[date '2024-01-01']) FROM (VALUES (1), (2)) v(x)");
        out.add("SELECT json_agg(ARRAY[i4, i2] ORDER BY id) FROM ev");
    }

    /**
     * Array constants and empty {@code ARRAY[]} cast to arrays of types spelled with modifiers or
     * two words ({@code varchar(5)[]}, {@code numeric(10,2)[]}, {@code double precision[]}), and of
     * boolean and date (issue 12): each element cast as PostgreSQL casts it, labelled by the element type.
     */
    private static void arraysOfTypesWithModifiers(LinkedHashSet<String> out) {
        out.add("SELECT '{}'::varchar(5)[], '{}'::double precision[], '{}'::numeric(10,2)[], '{}'::boolean[],"
                + " '{}'::date[]");
        out.add("SELECT '{a,b}'::varchar(5)[], '{1.5}'::float8[], '{abcdef}'::varchar(3)[] AS cut,"
                + " '{ab,NULL}'::character varying(3)[] AS cv");
        out.add("SELECT '{1.5,2}'::numeric(10,2)[], '{1.5,-2.25}'::double precision[] AS d, '{t,f}'::boolean[],"
                + " '{2024-02-29}'::date[]");
        out.add("SELECT CAST('{}' AS double precision[]), CAST('{1.555}' AS numeric(10,2)[]) AS n,"
                + " CAST('{x}' AS varchar(5)[]) AS v");
        out.add("SELECT ARRAY[]::varchar(5)[], ARRAY[]::double precision[], ARRAY[]::numeric(10,2)[],"
                + " ARRAY[]::boolean[], ARRAY[]::date[]");
        out.add("SELECT '{1.5,2}'::numeric(10,2)[]::text, cardinality('{}'::double precision[]) AS c,"
                + " '{1.5}'::numeric(10,2)[] || 2.5 AS a");
    }

    private static void arithmetic(LinkedHashSet<String> out) {
        for (String a : NUMERIC_TYPES) {
            for (String b : NUMERIC_TYPES) {
                List<String> x = NUMBERS.get(a);
                List<String> y = NUMBERS.get(b);
                for (String op : List.of("+", "-", "*", "/", "%")) {
                    out.add("SELECT " + x.get(0) + " " + op + " " + y.get(1));
                    out.add("SELECT " + x.get(1) + " " + op + " " + y.get(0));
                }
                out.add("SELECT " + x.get(0) + " / " + y.get(2));
                out.add("SELECT " + x.get(3) + " + " + y.get(0));
                out.add("SELECT " + x.get(3) + " * " + y.get(1));
            }
            List<String> x = NUMBERS.get(a);
            out.add("SELECT -" + x.get(0) + ", -" + x.get(1) + ", +" + x.get(0));
            out.add("SELECT " + x.get(3) + " - " + x.get(3) + " - " + x.get(3));
            out.add("SELECT " + x.get(0) + " % " + x.get(2));
        }
        out.add("SELECT (-32768)::int2 * (-1)::int2");
        out.add("SELECT (-2147483648) * -1");
        out.add("SELECT (-2147483648) / -1");
        out.add("SELECT (-9223372036854775808)::int8 * -1");
        out.add("SELECT 2 ^ 10, 2 ^ 0.5, (-8) ^ (1.0 / 3)");
        out.add("SELECT 2.0 ^ 1024");
        out.add("SELECT 7 / 2, -7 / 2, 7 % -2, -7 % 2");
        out.add("SELECT 1 / 3::numeric, 2::numeric / 3, 10::numeric / 4");
        out.add("SELECT 0.1::float8 + 0.2::float8, 1e-7::float8, 123456789012345678::float8");
        out.add("SELECT 'NaN'::float8, 'Infinity'::float8, '-Infinity'::float8");
        out.add("SELECT 'NaN'::numeric");
        out.add("SELECT 1e308::float8 * 10");
        out.add("SELECT 1::float8 / 0");
        out.add("SELECT 1::numeric / 0");
        // numeric division's result scale across the weights of PostgreSQL's base-10000 digits,
        // and the remainder's scale; checked arithmetic on columns (not folded into constants)
        out.add("SELECT 123456789::numeric / 7, 1::numeric / 30000, 0.0001::numeric / 3, 99999::numeric / 10001");
        out.add("SELECT 12345.678::numeric / 0.03, (-1)::numeric / 9999, 10000::numeric / 9999, 9999::numeric / 10000");
        out.add("SELECT 2.50::numeric % 0.3, 1234567.1::numeric % 1000, (-7)::numeric % 2.125");
        out.add("SELECT id, nu / 3, nu % 2, i4 / nu, i8 % nu FROM ev WHERE id <> 5 ORDER BY id");
        out.add("SELECT id, f8 * 1e300::float8 FROM ev WHERE id = 4");
        out.add("SELECT id, f8 / i4 FROM ev WHERE id = 5");
        out.add("SELECT id, f8 % 2 FROM ev ORDER BY id");
        out.add("SELECT id, i4 / -1, abs(i8) FROM ev WHERE id = 2");
        out.add("SELECT -5::int2 * 2, - 7.5::numeric % 2, -(-3)::int4 + 1");
        out.add("SELECT 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, 256 >> 2");
        out.add("SELECT @ -5, |/ 16.0, ||/ 27.0");
        out.add("SELECT 10!");
    }

    private static void comparisons(LinkedHashSet<String> out) {
        for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
            for (int i = 0; i < NUMERIC_TYPES.size(); i++) {
                String a = NUMBERS.get(NUMERIC_TYPES.get(i)).get(0);
                String b = NUMBERS.get(NUMERIC_TYPES.get((i + 1) % NUMERIC_TYPES.size()))
                        .get(1);
                out.add("SELECT " + a + " " + op + " " + b + ", " + a + " " + op + " " + a);
            }
            out.add("SELECT 'abc' " + op + " 'abd', 'B' " + op + " 'a', '' " + op + " ''");
            out.add("SELECT DATE '2024-01-01' " + op + " DATE '2024-01-02', TIMESTAMP '2024-01-01 00:00:00' " + op
                    + " DATE '2024-01-01'");
            out.add("SELECT TIME '10:00' " + op + " TIME '09:59:59', INTERVAL '1 day' " + op + " INTERVAL '24 hours'");
            out.add("SELECT true " + op + " false, NULL::int " + op + " 1");
        }
        out.add("SELECT 1 BETWEEN 0 AND 2, 5 NOT BETWEEN 1 AND 3, 2 BETWEEN SYMMETRIC 3 AND 1");
        out.add("SELECT 1 IN (1, 2, NULL), 3 IN (1, 2, NULL), 3 NOT IN (1, 2), NULL IN (1)");
        out.add("SELECT 1 IS DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL, 1 IS DISTINCT FROM 1");
        out.add("SELECT 'abc' LIKE 'a%', 'abc' NOT LIKE '_b_', 'ABC' ILIKE 'a%', 'a_c' LIKE 'a\\_c'");
        out.add("SELECT 'abc' ~ '^a', 'abc' ~* '^A', 'abc' !~ 'z', 'abc' SIMILAR TO 'a(b|c)+'");
    }

    private static void casts(LinkedHashSet<String> out) {
        List<String> targets = List.of(
                "int2", "int4", "int8", "numeric", "numeric(6,2)", "float8", "real", "text", "varchar(3)", "boolean");
        List<String> values = List.of(
                "'42'",
                "'-7'",
                "' 12 '",
                "'3.7'",
                "'1e3'",
                "'abc'",
                "''",
                "'true'",
                "'99999'",
                "'2147483648'",
                "42",
                "-2.5",
                "2.5",
                "3.5::numeric",
                "-3.5::float8",
                "1e10::float8",
                "true",
                "NULL");
        for (String v : values) {
            for (String t : targets) {
                out.add("SELECT CAST(" + v + " AS " + t + ")");
            }
        }
        for (String v : List.of(
                "'2024-02-29'",
                "'2023-02-29'",
                "'2024-13-01'",
                "'1999-01-08'",
                "'0001-01-01'",
                "'1000-06-15'",
                "'1582-10-10'",
                "'20240315'",
                "'2024-03-15 10:20:30'")) {
            out.add("SELECT " + v + "::date");
            out.add("SELECT " + v + "::timestamp");
        }
        for (String v : List.of("'10:20:30'", "'25:00:00'", "'10:20'", "'10:20:30.123456'", "'24:00:00'")) {
            out.add("SELECT " + v + "::time");
        }
        dateTimeInput(out);
        for (String v : List.of(
                "'1 day'",
                "'2 hours 30 minutes'",
                "'1 year 2 months 3 days'",
                "'-1 day +2 hours'",
                "'P1D'",
                "'1.5 hours'",
                "'100 seconds'",
                "'abc'")) {
            out.add("SELECT " + v + "::interval");
        }
        out.add("SELECT DATE '2024-03-15'::timestamp, TIMESTAMP '2024-03-15 10:20:30'::date,"
                + " TIMESTAMP '2024-03-15 10:20:30'::time");
        out.add("SELECT DATE '2024-03-15'::text, TIMESTAMP '2024-03-15 10:20:30.5'::text, TIME '01:02:03'::text");
        out.add("SELECT 1::boolean, 0::boolean, 'yes'::boolean, 'off'::boolean, 't'::boolean, 'maybe'::boolean");
        out.add("SELECT true::int, false::text, true::varchar");
        out.add("SELECT true::int AS t, false::int AS f");
        out.add("SELECT (1 = 1)::int, (1 > 2)::int, (i4 > 0)::int, (i4 IS NULL)::int FROM ev ORDER BY id");
        out.add("SELECT (i4 = 10 AND bo)::int4 AS both FROM ev ORDER BY id");
        out.add("SELECT *, i4 + 1, upper(tx) FROM ev ORDER BY id");
        out.add("SELECT i4 * 2, ev.*, 1 FROM ev ORDER BY id");
        out.add("SELECT 65536::int2, 32768::int2, (-32769)::int2");
        out.add("SELECT 2147483648::int4, 9223372036854775808::int8");
        out.add("SELECT 1e20::float8::int8, 'Infinity'::float8::int4, 'NaN'::float8::int8");
        out.add("SELECT 2.5::int, 3.5::int, (-2.5)::int, 2.5::float8::int, 3.5::float8::int");
        out.add("SELECT 1.005::numeric(4,2), 99.995::numeric(4,2), 123.456::numeric(5,1)");
        out.add("SELECT 'abcdef'::varchar(3), 'abcdef'::char(3), 'ab'::char(4) || 'x'");
        out.add("SELECT 12.5::text, 1e-5::float8::text, 100::numeric::text, (-0.0)::float8::text");
        out.add(
                "SELECT 1e-5::float8 || 'x', CAST(1e-5::float8 AS varchar), (1e-5::float8 * 2)::text, 1e16::float8::text");
        out.add(
                "SELECT 123456789012345680000::float8::text, 0.1::real::text, 1.5e-7::real::text, 'x' || 2.5e-10::float8");
        out.add("SELECT length(1e-5::float8::text), upper(1e300::float8::text), concat(1e-5::float8, 'y')");
        out.add(
                "SELECT id FROM ev WHERE 1e-5::float8::text = '1e-05' AND 'Infinity'::float8::text = 'Infinity' ORDER BY id");
    }

    private static void numericFunctions(LinkedHashSet<String> out) {
        for (String t : NUMERIC_TYPES) {
            List<String> x = NUMBERS.get(t);
            out.add("SELECT abs(" + x.get(1) + "), sign(" + x.get(1) + ")");
            out.add("SELECT ceil(" + x.get(1) + "), floor(" + x.get(1) + ")");
            out.add("SELECT round(" + x.get(0) + "), trunc(" + x.get(1) + ")");
            out.add("SELECT mod(" + x.get(0) + ", " + x.get(1) + ")");
            out.add("SELECT greatest(" + x.get(0) + ", " + x.get(1) + ", " + x.get(2) + "), least(" + x.get(0) + ", "
                    + x.get(1) + ")");
            out.add("SELECT coalesce(NULL, " + x.get(1) + "), nullif(" + x.get(0) + ", " + x.get(0) + ")");
            out.add("SELECT abs(" + x.get(3) + ")");
        }
        out.add("SELECT round(2.5), round(-2.5), round(2.5::float8), round(3.5::float8), round(-0.5::float8)");
        out.add("SELECT round(1234.5678, 2), round(1234.5678, -2), trunc(1234.5678, 1), trunc(-1234.5678)");
        out.add("SELECT sqrt(16), sqrt(2::float8), sqrt(-1)");
        out.add("SELECT power(2, 10), power(2.0, -2), power(-8, 1.0 / 3)");
        out.add("SELECT exp(1), ln(10), log(100), log(2, 8)");
        out.add("SELECT ln(0)");
        out.add("SELECT ln(-1)");
        out.add("SELECT cbrt(27::float8), pi(), degrees(pi()), radians(180)");
        out.add("SELECT sin(0), cos(0), tan(0), atan2(1, 1), asin(1), acos(1)");
        out.add("SELECT div(7, 2), div(-7, 2), gcd(12, 18), lcm(4, 6)");
        out.add("SELECT width_bucket(5, 0, 10, 5), scale(12.345), trim_scale(1.500)");
        out.add("SELECT ceil(-0.5), ceiling(1.2), floor(-1.2), abs(-32768::int2)");
        out.add("SELECT abs((-2147483648)::int4)");
        out.add("SELECT abs((-9223372036854775808)::int8)");
        out.add("SELECT to_char(1234.5, '9999.99'), to_number('12,345', '99,999')");
        out.add("SELECT random() < 1, random() >= 0");
    }

    /**
     * PostgreSQL's date, time and timestamp input: the forms it reads, its SQLSTATEs for bad text
     * (22007) and out-of-range fields (22008), for constants, casts of expressions and comparisons
     * with a column, and the fraction of a second of a constant cast.
     */
    private static void dateTimeInput(LinkedHashSet<String> out) {
        for (String v : List.of(
                "'junk'",
                "'2024-02-30'",
                "'0000-01-01'",
                "'2024-03-15T10:20:30'",
                "'2024-3-5'",
                "'2024-03-15 24:00:00'",
                "'20240315 102030'",
                "'epoch'",
                "'2024-03-15 10:20:30+02'",
                "'2024-03-15 25:00'",
                "'2024-03-15 junk'")) {
            out.add("SELECT " + v + "::date");
            out.add("SELECT " + v + "::timestamp");
        }
        for (String v : List.of("'10:20:30.123'", "'102030.5'", "'ab:cd'", "'10:20:60'", "'2024-03-15 10:20:30'")) {
            out.add("SELECT " + v + "::time");
        }
        out.add("SELECT DATE '20240315', TIME '10:20:30.5', TIMESTAMP '2024-03-15T10:20:30.125'");
        out.add("SELECT DATE 'junk'");
        out.add("SELECT TIMESTAMP '2024-02-30 10:00'");
        out.add("SELECT CAST('2024-02-30' AS date)");
        out.add("SELECT CAST('10:20:30.5' AS time), CAST('2024-03-15 10:20:30.5' AS timestamp)");
        out.add("SELECT '2024-03-15 10:20:30.5'::timestamp::text, '10:20:30.25'::time::text,"
                + " CAST('2024-03-15' AS date)::text");
        out.add("SELECT id, tx::date FROM ev WHERE id = 1");
        out.add("SELECT id, CAST(tx AS time) FROM ev WHERE id = 2");
        out.add(
                "SELECT ('2024' || '0315')::date, ('10:20:' || '30.5')::time, ('2024-03-15' || 'T10:20:30.5')::timestamp");
        out.add("SELECT id FROM ev WHERE dt >= '20240101' ORDER BY id");
        out.add("SELECT id FROM ev WHERE ts < '2000-02-29T00:00:01' ORDER BY id");
    }

    private static void text(LinkedHashSet<String> out) {
        List<String> strings = List.of("'Hello World'", "''", "'  pad  '", "'ÄÖü straße'", "NULL");
        for (String s : strings) {
            out.add("SELECT length(" + s + "), char_length(" + s + "), octet_length(" + s + ")");
            out.add("SELECT upper(" + s + "), lower(" + s + "), initcap(" + s + ")");
            out.add("SELECT substr(" + s + ", 2, 3), substring(" + s + " FROM 3), left(" + s + ", 2), right(" + s
                    + ", 2)");
            out.add("SELECT trim(" + s + "), ltrim(" + s + "), rtrim(" + s + "), btrim(" + s + ", ' H')");
            out.add("SELECT position('o' IN " + s + "), strpos(" + s + ", 'l'), replace(" + s + ", 'l', 'L')");
            out.add("SELECT reverse(" + s + "), repeat(" + s + ", 2), " + s + " || '!'");
            out.add("SELECT lpad(" + s + ", 14, '*'), rpad(" + s + ", 3)");
            out.add("SELECT split_part(" + s + ", ' ', 2), md5(" + s + ")");
        }
        out.add("SELECT concat('a', NULL, 'b', 1, true), concat_ws('-', 'a', NULL, 'b'), concat()");
        out.add("SELECT 'a' || NULL, 'a' || 1, 1 || 'a', 'x' || 2.5");
        out.add("SELECT substr('abc', 0), substr('abc', -1, 3), substr('abc', 2, 0)");
        out.add("SELECT substr('abc', 1, -1)");
        out.add("SELECT repeat('ab', 0), repeat('ab', -1), lpad('abc', 2), rpad('abc', 5, '')");
        out.add("SELECT format('%s-%s', 'a', 1), format('%I', 'Col'), format('%L', 'it''s')");
        out.add("SELECT chr(65), ascii('A'), to_hex(255), translate('abc', 'ab', 'xy')");
        out.add("SELECT starts_with('alpha', 'al'), 'abc' < 'abd' COLLATE \"C\"");
        out.add("SELECT regexp_replace('a1b2', '[0-9]', 'X', 'g'), regexp_replace('a1b2', '[0-9]', 'X')");
        out.add("SELECT overlay('abcdef' PLACING 'XY' FROM 2 FOR 3), quote_literal('x''y'), quote_ident('a b')");
        out.add("SELECT string_to_array('a,b,c', ','), array_to_string(ARRAY['a', 'b'], '|')");
        out.add("SELECT split_part('a,b,c', ',', -1)");
        out.add("SELECT 'a' = 'a ', 'a'::char(3) = 'a', length('a  '::char(3))");
        // escape strings, and text outside Latin-1, compare and combine with plain strings and columns
        out.add("SELECT E'a\\tb' = 'a' || E'\\t' || 'b', '日本' || E'x', E'\\u00e9' = 'é', '日本' < 'z'");
        out.add("SELECT octet_length('日本'), octet_length(E'é'), length('日本')");
        out.add("SELECT id, octet_length(tx) FROM ev ORDER BY id");
        out.add("SELECT id FROM ev WHERE tx = E'alpha' OR tx = '日本' OR tx IN (E'Beta', 'x') ORDER BY id");
        // a sub-query correlated with a derived table: in WHERE it is answered, in the select list refused (0A000)
        out.add(
                "SELECT x.k FROM (SELECT 6 - id AS k, id FROM ev) x WHERE (SELECT tx FROM ev e WHERE e.id = x.k) = 'alpha'");
        out.add(
                "SELECT x.k, (SELECT tx FROM ev e WHERE e.id = x.k) AS t FROM (SELECT 6 - id AS k, id FROM ev) x ORDER BY x.k");
    }

    private static void dateTime(LinkedHashSet<String> out) {
        List<String> dates =
                List.of("DATE '2024-02-29'", "DATE '2023-12-31'", "DATE '1000-06-15'", "DATE '1970-01-01'");
        for (String d : dates) {
            out.add("SELECT " + d + " + 1, " + d + " - 1, " + d + " + 366");
            out.add("SELECT " + d + " - DATE '2000-01-01'");
            out.add("SELECT " + d + " + INTERVAL '1 month', " + d + " - INTERVAL '1 day'");
            out.add("SELECT " + d + " + TIME '10:30'");
            for (String f : List.of(
                    "year",
                    "month",
                    "day",
                    "dow",
                    "isodow",
                    "doy",
                    "quarter",
                    "week",
                    "epoch",
                    "decade",
                    "century",
                    "julian",
                    "isoyear",
                    "millennium")) {
                out.add("SELECT extract(" + f + " FROM " + d + ")");
            }
            out.add("SELECT date_trunc('month', " + d + "), date_trunc('year', " + d + "), date_trunc('week', " + d
                    + ")");
            out.add("SELECT " + d + "::text, to_char(" + d + ", 'YYYY-MM-DD Dy')");
        }
        List<String> stamps = List.of(
                "TIMESTAMP '2024-02-29 13:45:59.123456'",
                "TIMESTAMP '1999-12-31 23:59:59'",
                "TIMESTAMP '0800-01-01 00:00:00'",
                "TIMESTAMP '2024-03-03 23:59:59.123'",
                "TIMESTAMP '1969-12-31 23:59:59.5'");
        for (String t : stamps) {
            out.add("SELECT " + t + " + INTERVAL '1 hour', " + t + " - INTERVAL '1 day 2 hours'");
            out.add("SELECT " + t + " + INTERVAL '1 month', " + t + " - INTERVAL '1 year'");
            out.add("SELECT " + t + " - TIMESTAMP '2000-01-01 00:00:00'");
            for (String f : List.of(
                    "year",
                    "month",
                    "day",
                    "hour",
                    "minute",
                    "second",
                    "milliseconds",
                    "microseconds",
                    "epoch",
                    "dow",
                    "doy",
                    "week",
                    "julian",
                    "isodow",
                    "isoyear",
                    "quarter",
                    "decade",
                    "century",
                    "millennium")) {
                out.add("SELECT extract(" + f + " FROM " + t + ")");
            }
            out.add("SELECT date_part('second', " + t + "), date_part('milliseconds', " + t + "), date_part('epoch', "
                    + t + "), date_part('julian', " + t + ")");
            for (String f : List.of(
                    "microseconds",
                    "milliseconds",
                    "second",
                    "minute",
                    "hour",
                    "day",
                    "week",
                    "month",
                    "quarter",
                    "year",
                    "decade",
                    "century",
                    "millennium")) {
                out.add("SELECT date_trunc('" + f + "', " + t + ")");
            }
            out.add("SELECT date_part('hour', " + t + "), " + t + "::date, " + t + "::time");
        }
        out.add("SELECT date_trunc('weeks', TIMESTAMP '2024-02-29 13:45:59'), date_trunc('mils', TIMESTAMP"
                + " '2024-02-29 13:45:59'), date_trunc('MicroSeconds', TIMESTAMP '2024-02-29 13:45:59.5')");
        out.add("SELECT date_trunc('foo', TIMESTAMP '2024-02-29 13:45:59')");
        out.add("SELECT date_trunc('timezone', TIMESTAMP '2024-02-29 13:45:59')");
        out.add("SELECT date_trunc('week', NULL::timestamp), extract(epoch FROM NULL::timestamp),"
                + " date_part('second', NULL::time), extract(julian FROM NULL::date)");
        out.add("SELECT extract(second FROM TIME '10:20:30.5'), extract(epoch FROM TIME '10:20:30.5'),"
                + " extract(milliseconds FROM TIME '10:20:30.5'), extract(microseconds FROM TIME '10:20:30.5')");
        out.add("SELECT date_part('second', TIME '10:20:30.5'), date_part('epoch', TIME '10:20:30.5')");
        out.add("SELECT extract(second FROM DATE '2024-02-29')");
        out.add("SELECT extract(julian FROM TIME '10:20:30')");
        out.add("SELECT date_part('julian', DATE '2024-02-29'), date_part('epoch', DATE '2024-02-29'),"
                + " date_part('second', DATE '2024-02-29')");
        out.add(
                "SELECT id, date_trunc('week', ts), date_trunc('decade', ts), date_trunc('century', ts) FROM ev ORDER BY id");
        out.add("SELECT id, extract(epoch FROM ts), extract(second FROM ts), extract(julian FROM ts),"
                + " date_part('epoch', ts), extract(julian FROM dt) FROM ev ORDER BY id");
        out.add("SELECT id FROM ev WHERE extract(epoch FROM ts) < 946684800.5 ORDER BY id");
        out.add("SELECT id, date_trunc('week', dt) FROM ev ORDER BY id");
        out.add("SELECT id, (ts + INTERVAL '1.5 seconds')::text, (ts + INTERVAL '0.125 seconds')::time::text FROM ev"
                + " ORDER BY id");
        out.add("SELECT TIMESTAMP '2024-03-10 12:00' - TIMESTAMP '2024-03-09 10:30'");
        out.add("SELECT TIMESTAMP '2024-01-01' - TIMESTAMP '2024-03-01 06:00'");
        out.add("SELECT DATE '2024-03-01' - DATE '2024-02-01', DATE '2024-01-01' - DATE '2024-03-01'");
        out.add("SELECT TIME '10:00' + INTERVAL '3 hours', TIME '23:00' + INTERVAL '2 hours', TIME '10:00' - TIME"
                + " '08:30'");
        out.add("SELECT INTERVAL '1 day' + INTERVAL '2 hours', INTERVAL '1 day' * 3, INTERVAL '1 hour' / 4");
        out.add("SELECT INTERVAL '1 month' - INTERVAL '1 day', -INTERVAL '2 hours', INTERVAL '90 minutes' * 1.5");
        out.add("SELECT extract(epoch FROM INTERVAL '1 day 1 hour'), extract(hour FROM INTERVAL '25 hours')");
        out.add("SELECT justify_hours(INTERVAL '27 hours'), justify_days(INTERVAL '35 days')");
        out.add("SELECT make_date(2024, 2, 29), make_time(10, 20, 30.5), make_timestamp(2024, 1, 2, 3, 4, 5)");
        out.add("SELECT make_date(2023, 2, 29)");
        out.add("SELECT age(TIMESTAMP '2024-03-15', TIMESTAMP '2023-01-01')");
        out.add("SELECT to_date('2024-03-15', 'YYYY-MM-DD'), to_timestamp('2024-03-15 10:20', 'YYYY-MM-DD HH24:MI')");
        out.add("SELECT date_trunc('day', TIMESTAMP '2024-03-15 10:20:30')::date");
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', INTERVAL '6 hours')"
                + " AS g(x)");
        out.add("SELECT x FROM generate_series(DATE '2024-02-27', DATE '2024-03-01', INTERVAL '1 day') AS g(x)");
        // minutes without seconds: PostgreSQL takes the text; Calcite's literal parser does not
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-01 00:00', TIMESTAMP '2024-01-01 03:00',"
                + " INTERVAL '1 hour') AS g(x)");
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-31', TIMESTAMP '2024-05-31', INTERVAL '1 month')"
                + " AS g(x)");
        out.add("SELECT x FROM generate_series(1, 10, 3) AS g(x)");
        out.add("SELECT x FROM generate_series(5, 1, -2) AS g(x)");
        out.add("SELECT x, pg_typeof(x) FROM generate_series(2147483646, 2147483647) AS g(x)");
        out.add("SELECT x * 2 FROM generate_series(2147483647, 2147483647) AS g(x)");
        out.add("SELECT x, pg_typeof(x) FROM generate_series(1, 2, 0.5) AS g(x)");
        out.add("SELECT * FROM generate_series(1, 2) AS g");
        // a string constant beside a timestamp bound is a timestamp, as a string step is an interval
        out.add("SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', '6 hours')");
        out.add("SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02', '6 hours')");
        out.add("SELECT x FROM generate_series('2024-01-01 12:00', TIMESTAMP '2024-01-03', '1 day 6 hours') AS g(x)");
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-31', '2024-04-30', '1 mon') AS g(x)");
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-01', '2024-01-02', 'junk') AS g(x)");
        out.add("SELECT x FROM generate_series(TIMESTAMP '2024-01-01', 'junk', '1 day') AS g(x)");
        // an unaliased unnest in FROM and its column are named unnest
        out.add("SELECT * FROM unnest(ARRAY[1, 2])");
        out.add("SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY");
        out.add("SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS u WHERE ordinality > 1");
        out.add("SELECT u.* FROM unnest(ARRAY[7, 8]) WITH ORDINALITY u");
        out.add("SELECT * FROM unnest(ARRAY[1, 2]) ORDER BY 1 DESC");
        out.add("SELECT * FROM unnest(ARRAY[1, 2]) u, unnest(ARRAY[5]) ORDER BY 1");
        out.add("SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'), pg_typeof(NULL), pg_typeof(1::int8)");
        out.add("SELECT pg_typeof(DATE '2024-01-01' + 1), pg_typeof(INTERVAL '1 day'), pg_typeof('a'::text || 'b')");
        out.add("SELECT DATE '2024-01-01' + 2147483647");
        out.add("SELECT DATE '5874897-12-31' + 1");
        out.add("SELECT TIMESTAMP '294276-12-31 23:59:59' + INTERVAL '1 day'");
        out.add("SELECT DATE '2024-01-01' < TIMESTAMP '2024-01-01 00:00:01', DATE '2024-01-01' = TIMESTAMP"
                + " '2024-01-01'");
        out.add("SELECT isfinite(DATE '2024-01-01'), 'infinity'::date > DATE '9999-12-31'");
        out.add("SELECT overlaps_ok FROM (SELECT (DATE '2024-01-01', DATE '2024-02-01') OVERLAPS (DATE '2024-01-15',"
                + " DATE '2024-03-01') AS overlaps_ok) s");
    }

    private static void booleans(LinkedHashSet<String> out) {
        List<String> values = List.of("true", "false", "NULL::boolean");
        for (String a : values) {
            for (String b : values) {
                out.add("SELECT " + a + " AND " + b + ", " + a + " OR " + b);
            }
            out.add("SELECT NOT " + a + ", " + a + " IS TRUE, " + a + " IS NOT FALSE, " + a + " IS UNKNOWN");
        }
        out.add("SELECT bool_and(bo), bool_or(bo), every(bo) FROM ev");
        out.add("SELECT true::text, 't'::boolean AND 'yes'::boolean");
        out.add("SELECT CASE WHEN NULL THEN 1 WHEN false THEN 2 ELSE 3 END");
        out.add("SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END, CASE 5 WHEN 1 THEN 'one' END");
        out.add("SELECT 1 WHERE true");
        out.add("SELECT 1 WHERE NULL");
        out.add("SELECT 1 WHERE 1");
    }

    private static void bytea(LinkedHashSet<String> out) {
        out.add("SELECT '\\xdeadbeef'::bytea");
        out.add("SELECT length('\\xdeadbeef'::bytea), octet_length('\\xdeadbeef'::bytea)");
        out.add("SELECT 'abc'::bytea, 'a\\\\b'::bytea, '\\x'::bytea");
        out.add("SELECT '\\xde'::bytea || '\\xad'::bytea");
        out.add("SELECT '\\xzz'::bytea");
        out.add("SELECT '\\x123'::bytea");
        out.add("SELECT 'a\\001b'::bytea, '\\000'::bytea");
        out.add("SELECT md5('\\xdeadbeef'::bytea), encode('\\xdeadbeef'::bytea, 'hex'), encode('abc'::bytea,"
                + " 'base64')");
        out.add("SELECT decode('deadbeef', 'hex'), decode('YWJj', 'base64'), convert_to('é', 'UTF8')");
        out.add("SELECT '\\xdeadbeef'::bytea = '\\xDEADBEEF'::bytea, '\\x01'::bytea < '\\x02'::bytea");
        out.add("SELECT substring('\\xdeadbeef'::bytea FROM 2 FOR 2), get_byte('\\xdeadbeef'::bytea, 0)");
    }

    private static void precedence(LinkedHashSet<String> out) {
        List<String> expressions = List.of(
                "1 + 2 * 3",
                "(1 + 2) * 3",
                "2 * 3 ^ 2",
                "-2 ^ 2",
                "(-2) ^ 2",
                "2 ^ 3 ^ 2",
                "10 - 4 - 3",
                "100 / 10 / 5",
                "7 % 3 * 2",
                "1 + 2 = 3",
                "1 < 2 = true",
                "NOT 1 = 2",
                "NOT true AND false",
                "true OR false AND false",
                "1 + 1 BETWEEN 1 AND 2",
                "'a' || 'b' = 'ab'",
                "1 IS NULL = false",
                "- 3 * - 2",
                "'5'::int + 1",
                "- '5'::int",
                "2 * '3'::int ^ 2",
                "1 + 2::text || 'x'",
                "'1' || 2 + 3",
                "3 > 2 AND 2 > 1",
                "NULL IS NULL OR 1 / 0 = 1",
                "1 = 1 IS TRUE",
                "-1::int2",
                "- 2147483648::int8",
                "1 + - 1",
                "5 - - 5",
                "2 ^ -1",
                "4 / 2 * 2",
                "ARRAY[1, 2] || 3",
                "1 IN (1) = true",
                "'abc' LIKE 'a%' = true",
                "1 <> 2 <> true",
                // :: binds tighter than BETWEEN, LIKE and IS DISTINCT FROM (Babel cast the whole BETWEEN)
                "5 BETWEEN 1 AND 10::int",
                "5 BETWEEN 1 AND 3::int8",
                "5 NOT BETWEEN 1 AND 3::int",
                "5 BETWEEN SYMMETRIC 10 AND 1::int",
                "5 NOT BETWEEN SYMMETRIC 10 AND 1::int",
                "5 BETWEEN 1::int AND 10",
                "5 BETWEEN 1 + 1::int AND 2 * 3::int",
                "1.5 BETWEEN 1 AND 2::numeric",
                "5 BETWEEN 1 AND 10::int AND true",
                "5 BETWEEN 1 AND 2::int = false",
                "(5 BETWEEN 1 AND 10)::int",
                "3 BETWEEN (2 BETWEEN 1::int AND 3)::int AND 4",
                "2 IN (1::int, 2)",
                "'a' LIKE 'a'::text",
                "'a_b' LIKE 'a#_b' ESCAPE '#'::text",
                "'ab' NOT ILIKE 'A%'::text",
                "1 IS DISTINCT FROM 2::int");
        for (String e : expressions) {
            out.add("SELECT " + e);
        }
        out.add("SELECT id FROM ev WHERE i4 BETWEEN -20 AND 10::int8 ORDER BY id");
        out.add("SELECT id, i2 NOT BETWEEN 0::int2 AND 5 AS b, tx LIKE 'a%'::text AS l FROM ev ORDER BY id");
        // an ARRAY[...] of numbers of several scales is numeric[], each element keeping its own scale
        out.add("SELECT ARRAY[1.5, 2.25] AS a, ARRAY[1, 2.5] AS b, ARRAY[1.0, 2] AS c, ARRAY[-1.5, 2, NULL] AS d");
        out.add(
                "SELECT ARRAY[1.5::numeric(5,2), 2.25] AS a, ARRAY[1.5, 2.25::float8] AS b, (ARRAY[1.5, 2.25])[1] AS c");
        out.add("SELECT id, ARRAY[nu, 1.5, i4] AS a FROM ev ORDER BY id");
        // array_agg of numerics of several scales keeps each value's scale
        out.add("SELECT array_agg(x ORDER BY x) FROM (VALUES (1.5), (2.25), (3)) v(x)");
    }

    private static void aggregates(LinkedHashSet<String> out) {
        for (String c : List.of("i2", "i4", "i8", "f8", "nu")) {
            out.add("SELECT sum(" + c + "), min(" + c + "), max(" + c + "), count(" + c + ") FROM ev");
            out.add("SELECT avg(" + c + ") FROM ev WHERE id < 4");
            out.add("SELECT id, " + c + " + 1 FROM ev ORDER BY id");
            out.add("SELECT id, " + c + " * 2 FROM ev WHERE id <> 4 ORDER BY id");
            out.add("SELECT " + c + ", count(*) FROM ev GROUP BY " + c + " ORDER BY " + c + " NULLS FIRST");
            out.add("SELECT id, " + c + "::text, " + c + "::numeric FROM ev ORDER BY id");
            out.add("SELECT id, -" + c + ", abs(" + c + ") FROM ev ORDER BY id");
            out.add("SELECT stddev(" + c + "), variance(" + c + ") FROM ev WHERE id < 4");
        }
        out.add("SELECT sum(i8) FROM ev");
        out.add("SELECT sum(i4) FROM ev");
        out.add("SELECT id, i2 + i2 FROM ev ORDER BY id");
        out.add("SELECT id, i4 + i4 FROM ev ORDER BY id");
        out.add("SELECT id, i8 + 1 FROM ev ORDER BY id");
        out.add("SELECT id, tx || '!', length(tx), upper(tx) FROM ev ORDER BY id");
        out.add("SELECT id, dt + 1, dt - DATE '2000-01-01', extract(dow FROM dt) FROM ev ORDER BY id");
        out.add("SELECT id, ts - TIMESTAMP '2000-01-01', date_trunc('month', ts), ts + INTERVAL '1 day'"
                + " FROM ev ORDER BY id");
        out.add("SELECT id, NOT bo, bo AND id > 2, bo OR NULL FROM ev ORDER BY id");
        out.add("SELECT string_agg(tx, ',' ORDER BY id), count(*), count(DISTINCT bo) FROM ev");
        out.add("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i4) FROM ev");
        out.add("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i4) FROM ev");
        out.add("SELECT mode() WITHIN GROUP (ORDER BY bo) FROM ev");
        out.add("SELECT array_agg(id ORDER BY id) FROM ev");
        out.add("SELECT min(tx), max(tx), min(dt), max(ts) FROM ev");
        out.add("SELECT id FROM ev ORDER BY tx NULLS LAST, id");
        out.add("SELECT id FROM ev ORDER BY f8 DESC, id");
        out.add("SELECT count(*) FILTER (WHERE bo), sum(i4) FILTER (WHERE id > 1) FROM ev");
        out.add("SELECT bit_and(i4), bit_or(i4) FROM ev");
        out.add("SELECT avg(i8), sum(nu) / count(nu) FROM ev");
        out.add("SELECT id, row_number() OVER (ORDER BY id DESC), sum(i4) OVER (ORDER BY id) FROM ev ORDER BY id");
    }

    /**
     * {@code ^}/{@code power} and {@code log(b, x)} of numerics (PostgreSQL's scales and errors, no
     * {@code log(b, x)} of floats), {@code real} arithmetic beside exact numbers (double precision),
     * {@code percentile_disc} and {@code mode} over each type, chains of comparisons (syntax
     * errors), {@code starts_with} and the C collation named in {@code COLLATE}.
     */
    private static void numericPowersAndOrderedSets(LinkedHashSet<String> out) {
        out.add("SELECT 2.0 ^ 3, 1.5 ^ 3, 2.0 ^ (-1), 3.0 ^ (-1), 0.0 ^ 0, 0.0 ^ 0.5, 10 ^ 0.5, 2.5 ^ 2.5");
        out.add("SELECT 0.1 ^ 100, 0.5 ^ 0.5, 100.0 ^ 10.5, 2 ^ 2.0, 1.0e-10 ^ 3.5, (-2.0) ^ 3, (-1.5) ^ (-3)");
        out.add("SELECT power(2, 0.5), power(2.0, 2), power(2.0::float8, 0.5), pg_typeof(2.0::float8 ^ 0.5),"
                + " pg_typeof(2::int8 ^ 2.5), pg_typeof(2 ^ 3)");
        out.add("SELECT 2 ^ (6 / 3), 2 * (3 + 1) ^ 2, (2 ^ (1 + 1)) * 3, 2.0 ^ (1 + 1) * 3, 4.0 ^ (1.0 / 2)");
        out.add("SELECT 0.0 ^ (-1)");
        out.add("SELECT (-8.0) ^ 0.5");
        out.add("SELECT 10.0 ^ 400000");
        out.add("SELECT 2.0 ^ 1000000");
        out.add("SELECT 0.99 ^ 100000000, 1.0000001 ^ 1000000.5");
        out.add("SELECT NULL::numeric ^ 2, 2.0 ^ NULL::numeric, power(NULL::numeric, 2)");
        out.add("SELECT id, nu ^ 2, i4 ^ 0.5, power(nu, 3), nu ^ 0.5 FROM ev WHERE id IN (1, 5) ORDER BY id");
        out.add("SELECT log(10, 1000), log(2.5, 100.25), log(0.5, 8), log(10000000000000000000000, 10)");
        out.add("SELECT log(2, 1.5), log(1.1, 1.0001), log(7, 7), log(100, 0.001)");
        out.add("SELECT log(0, 8)");
        out.add("SELECT log(-1, 8)");
        out.add("SELECT log(1, 8)");
        out.add("SELECT log(2, 0)");
        out.add("SELECT log(2, NULL), log(NULL::numeric, 8), pg_typeof(log(2, 8))");
        out.add("SELECT id, log(2, i8), log(nu, 100) FROM ev WHERE id = 1");
        out.add("SELECT log(2.0::float8, 8.0::float8)");
        out.add("SELECT log(2, 8::float8)");
        out.add("SELECT id, log(f8, 8) FROM ev WHERE id = 1");
        out.add("SELECT 1.5::real * 2, 0.1::real * 3, 1::real / 3, 0.1::real + 1.5, 2::int8 - 0.5::real,"
                + " 3::int2 * 0.1::real, pg_typeof(0.1::real * 3), pg_typeof(1.5 - 0.1::real)");
        out.add("SELECT 0.1::real * '3', 0.1::real * 0.1::real, pg_typeof(0.1::real * 0.1::real), 0.1::real + NULL,"
                + " 0.1::real * 2.0::float8, pg_typeof(0.1::real * '3')");
        out.add("SELECT id, i4 * 0.1::real, 0.1::real - nu, i8 / 3::real, i2 + 0.3::real FROM ev ORDER BY id");
        out.add(
                "SELECT percentile_disc(0) WITHIN GROUP (ORDER BY i8), percentile_disc(1) WITHIN GROUP (ORDER BY f8),"
                        + " percentile_disc(0.3) WITHIN GROUP (ORDER BY nu), percentile_disc(0.5) WITHIN GROUP (ORDER BY i2) FROM ev");
        out.add("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY tx), mode() WITHIN GROUP (ORDER BY tx) FROM ev");
        out.add("SELECT mode() WITHIN GROUP (ORDER BY i2), mode() WITHIN GROUP (ORDER BY nu),"
                + " mode() WITHIN GROUP (ORDER BY id % 2) FROM ev");
        out.add("SELECT bo, percentile_disc(0.5) WITHIN GROUP (ORDER BY i4), mode() WITHIN GROUP (ORDER BY id % 3)"
                + " FROM ev GROUP BY bo ORDER BY bo");
        out.add("SELECT percentile_disc(1.5) WITHIN GROUP (ORDER BY i4) FROM ev");
        out.add("SELECT percentile_disc(NULL) WITHIN GROUP (ORDER BY i4), mode() WITHIN GROUP (ORDER BY i4)"
                + " FROM ev WHERE id > 10");
        out.add("SELECT 1 = 1 = true");
        out.add("SELECT 1 < 2 < 3");
        out.add("SELECT id FROM ev WHERE i4 > 0 = bo");
        out.add("SELECT (1 < 2) = true, 1 < 2 AND 2 = 2, 1 = 1 IS TRUE, (SELECT 1) = 1");
        out.add("SELECT starts_with('alpha', ''), starts_with('', 'a'), starts_with(NULL, 'a')");
        out.add("SELECT id, starts_with(tx, 'a'), tx < 'b' COLLATE \"C\", tx COLLATE \"POSIX\" FROM ev ORDER BY id");
        out.add("SELECT id FROM ev ORDER BY tx COLLATE \"C\" NULLS FIRST, id");
    }

    /**
     * {@code character(n)}: padded output, trailing blanks dropped when it becomes text ({@code ||},
     * text functions) and ignored in comparisons, kept by {@code concat} and {@code octet_length}.
     */
    private static void characterN(LinkedHashSet<String> out) {
        out.add("SELECT 'ab'::char(4), length('ab  '::char(4)), 'ab'::char(4) || 'x', 'a'::char(3) = 'a  ',"
                + " upper('ab'::char(4)) || '|', concat('ab'::char(4), 'x'), octet_length('ab'::char(4)),"
                + " char_length('ab'::char(4))");
        out.add("SELECT 'ab'::char(4) < 'ab', 'ab '::char(4) <> 'ab', 'b'::char(2) > 'a'::char(5),"
                + " replace('a b'::char(5), ' ', '_'), 'ab'::char(4) = 'ab  '::char(2)");
        out.add("SELECT id, tx::char(8) || '|', length(tx::char(8)), tx::char(8) = 'alpha' FROM ev ORDER BY id");
    }
}
