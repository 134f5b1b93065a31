package io.tributary.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Schema, random data/DML and the query templates of the differential test. Everything is a pure function of the
 * {@link Random} passed in, so one seed always produces the same statements.
 */
final class DifferentialCorpus {
    private DifferentialCorpus() {}

    /**
     * A query template. {@code ordered}: the query has a total ORDER BY, so rows are compared in order; otherwise
     * as multisets. {@code looseNumeric}: NUMERIC columns are compared by value (for division/avg results, whose
     * scale is a documented difference), otherwise NUMERIC text must match exactly.
     */
    record Template(String name, boolean ordered, boolean looseNumeric, Function<Random, String> sql) {}

    /**
     * Templates whose results differ because of a genuine Tributary bug. They are left out of the default run and
     * exercised by {@code DifferentialTest.knownDeviations()} (disabled). Template name -> reason.
     */
    static final Map<String, String> KNOWN_DEVIATIONS = Map.of(
            "agg_avg_exact",
            "avg(NUMERIC(10,2)) keeps the column's scale 2 (-1016.38 vs PostgreSQL -1016.388);"
                    + " avg of integers and x::numeric match");

    static final List<String> SCHEMA = List.of(
            "CREATE TABLE a (id BIGINT PRIMARY KEY, k INT, v INT, s TEXT, d DOUBLE PRECISION, n NUMERIC(10,2),"
                    + " b BOOLEAN)",
            "CREATE TABLE b (id BIGINT PRIMARY KEY, k INT, w INT, t TEXT)");

    static final List<String> DROP = List.of("DROP TABLE IF EXISTS a", "DROP TABLE IF EXISTS b");

    private static final String[] WORDS = {
        "apple", "Banana", "cherry", "date", "Elder", "fig", "grape", "kiwi", "lemon", "mango", "a_b", "x%y", "ab",
        "abc", "", "zeta", "Apple", "banana"
    };

    // ---- random constants -------------------------------------------------------------------------------------

    static int k(Random r) {
        return r.nextInt(14) - 2; // stored k is 0..10 (or NULL); constants slightly outside
    }

    static int v(Random r) {
        return r.nextInt(240) - 120;
    }

    static String d(Random r) {
        return Double.toString((r.nextInt(4000) - 2000) / 4.0); // multiples of 0.25: sums are exact
    }

    static String n(Random r) {
        long cents = r.nextInt(2_000_000) - 1_000_000;
        return (cents < 0 ? "-" : "") + Math.abs(cents) / 100 + "." + String.format("%02d", Math.abs(cents) % 100);
    }

    static String word(Random r) {
        return WORDS[r.nextInt(WORDS.length)] + (r.nextInt(3) == 0 ? Integer.toString(r.nextInt(10)) : "");
    }

    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static <T> T pick(Random r, List<T> items) {
        return items.get(r.nextInt(items.size()));
    }

    private static String orNull(Random r, int nullPercent, String value) {
        return r.nextInt(100) < nullPercent ? "NULL" : value;
    }

    // ---- data and DML -----------------------------------------------------------------------------------------

    static String rowA(Random r, long id) {
        return "(" + id + ", " + orNull(r, 10, Integer.toString(r.nextInt(11))) + ", "
                + orNull(r, 15, Integer.toString(v(r))) + ", " + orNull(r, 15, quote(word(r))) + ", "
                + orNull(r, 10, d(r)) + ", " + orNull(r, 10, n(r)) + ", "
                + orNull(r, 20, r.nextBoolean() ? "TRUE" : "FALSE") + ")";
    }

    static String rowB(Random r, long id) {
        return "(" + id + ", " + orNull(r, 10, Integer.toString(r.nextInt(11))) + ", "
                + orNull(r, 15, Integer.toString(v(r))) + ", " + orNull(r, 15, quote(word(r))) + ")";
    }

    /** Multi-row INSERTs of ids [from, to) into table {@code a} or {@code b}, 50 rows per statement. */
    static List<String> inserts(Random r, String table, long from, long to) {
        List<String> out = new ArrayList<>();
        for (long start = from; start < to; start += 50) {
            StringBuilder sb = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (long id = start; id < Math.min(to, start + 50); id++) {
                if (id > start) {
                    sb.append(", ");
                }
                sb.append(table.equals("a") ? rowA(r, id) : rowB(r, id));
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** One random UPDATE or DELETE on either table. */
    static String mutation(Random r) {
        int m = 2 + r.nextInt(9);
        String idFilter = "id % " + m + " = " + r.nextInt(m);
        return switch (r.nextInt(10)) {
            case 0 -> "UPDATE a SET v = v + " + v(r) + " WHERE k = " + k(r);
            case 1 -> "UPDATE a SET s = upper(s), b = NOT b WHERE " + idFilter;
            case 2 -> "UPDATE a SET k = NULL WHERE v < " + v(r) + " AND " + idFilter;
            case 3 -> "UPDATE a SET n = n * 2, d = d - 1.5 WHERE " + idFilter;
            case 4 -> "UPDATE a SET v = NULL, s = " + quote(word(r)) + " WHERE " + idFilter;
            case 5 -> "UPDATE b SET w = w - 7, t = t || 'x' WHERE k IN (" + k(r) + ", " + k(r) + ")";
            case 6 -> "UPDATE b SET k = " + r.nextInt(11) + " WHERE " + idFilter;
            case 7 -> "DELETE FROM a WHERE " + idFilter + " AND v > " + v(r);
            case 8 -> "DELETE FROM b WHERE " + idFilter + " AND (w IS NULL OR w < " + v(r) + ")";
            default -> "UPDATE a SET k = COALESCE(k, 0) + 1 WHERE s LIKE " + quote(pick(r, LIKE_PATTERNS));
        };
    }

    static final List<String> LIKE_PATTERNS = List.of("a%", "%an%", "_a%", "%e", "A%", "%", "ab_", "b%a", "%a%e%");

    /** LIKE patterns using PostgreSQL's default escape character, backslash. */
    static final List<String> LIKE_ESCAPE_PATTERNS = List.of("%\\%%", "a\\_b%", "x\\%y%");

    // ---- query templates --------------------------------------------------------------------------------------

    static List<Template> templates() {
        List<Template> t = new ArrayList<>();
        // filters
        t.add(set("filter_eq", r -> "SELECT id, k, v FROM a WHERE k = " + k(r)));
        t.add(set("filter_cmp", r -> "SELECT id, v, d FROM a WHERE v < " + v(r) + " AND d >= " + d(r)));
        t.add(set("filter_ne_le", r -> "SELECT id, w FROM b WHERE w <> " + v(r) + " AND k <= " + k(r)));
        t.add(set(
                "filter_between",
                r -> "SELECT id, n FROM a WHERE n BETWEEN " + n(r) + " AND " + n(r) + " OR v NOT BETWEEN " + v(r)
                        + " AND " + v(r)));
        t.add(set(
                "filter_in",
                r -> "SELECT id, k, v FROM a WHERE k IN (" + k(r) + ", " + k(r) + ", " + k(r) + ") OR v IN (" + v(r)
                        + ", " + v(r) + ")"));
        t.add(set(
                "filter_not_in",
                r -> "SELECT id, k FROM a WHERE k NOT IN (" + k(r) + ", " + k(r) + (r.nextBoolean() ? ", NULL" : "")
                        + ")"));
        t.add(set(
                "filter_is_null",
                r -> "SELECT id, s, v FROM a WHERE s IS NULL OR (k IS NOT NULL AND v IS NULL)"
                        + " OR n IS NULL AND b IS NOT NULL"));
        t.add(set(
                "filter_like",
                r -> "SELECT id, s FROM a WHERE s " + (r.nextBoolean() ? "" : "NOT ") + "LIKE "
                        + quote(pick(r, LIKE_PATTERNS))));
        t.add(set(
                "filter_like_escape", r -> "SELECT id, s FROM a WHERE s LIKE " + quote(pick(r, LIKE_ESCAPE_PATTERNS))));
        t.add(set(
                "filter_bool",
                r -> "SELECT id, b FROM a WHERE "
                        + pick(
                                r,
                                List.of(
                                        "b",
                                        "NOT b",
                                        "b IS TRUE",
                                        "b IS NOT TRUE",
                                        "b IS FALSE",
                                        "b IS NOT FALSE",
                                        "b IS UNKNOWN",
                                        "b = (v > 0)"))));
        t.add(set(
                "filter_not_or",
                r -> "SELECT id, k, v FROM a WHERE NOT (k = " + k(r) + " OR v > " + v(r) + ") AND (s <> "
                        + quote(word(r)) + " OR b)"));
        // projections
        t.add(set(
                "proj_int_arith",
                r -> "SELECT id, v + k, v - k, v * k, v / NULLIF(k, 0), v % NULLIF(k, 0), -v," + " abs(v), v * " + v(r)
                        + " + id FROM a WHERE id % 3 = " + r.nextInt(3)));
        t.add(set(
                "proj_double",
                r -> "SELECT id, d * 2, d + v, d / 4, d - " + d(r) + ", abs(d) FROM a WHERE k = " + k(r)));
        t.add(set(
                "proj_numeric",
                r -> "SELECT id, n + 1, n * 2, n - v, -n, abs(n), n + " + n(r) + " FROM a WHERE k <> " + k(r)));
        t.add(set(
                "proj_numeric_round",
                r -> "SELECT id, round(n, 1), round(n), round(n, 2) FROM a WHERE id % 4 = " + r.nextInt(4)));
        t.add(set(
                "proj_numeric_to_int",
                r -> "SELECT id, n, CAST(n AS INT), CAST(n AS BIGINT) FROM a WHERE k = " + k(r)));
        t.add(set(
                "proj_numeric_int_common_type",
                r -> "SELECT id, COALESCE(n, 0), CASE WHEN b THEN n ELSE 0 END" + " FROM a WHERE v > " + v(r)));
        t.add(set(
                "proj_case",
                r -> "SELECT id, CASE WHEN v > " + v(r) + " THEN 'hi' WHEN v IS NULL THEN 'none'"
                        + " ELSE 'lo' END, CASE k WHEN 1 THEN 'one' WHEN 2 THEN 'two' END, CASE WHEN b THEN n ELSE -n END,"
                        + " CASE WHEN k > " + k(r) + " THEN v ELSE 0 END"
                        + " FROM a"));
        t.add(set(
                "proj_coalesce",
                r -> "SELECT id, COALESCE(v, k, -1), NULLIF(k, " + k(r) + "), COALESCE(s, 'none'),"
                        + " COALESCE(n, 0.00), COALESCE(d, 0.5), NULLIF(s, " + quote(word(r)) + ") FROM a"));
        t.add(set(
                "proj_string",
                r -> "SELECT id, upper(s), lower(s), s || '-' || a.k, substring(s from " + (1 + r.nextInt(3)) + " for "
                        + r.nextInt(4) + "), t || s FROM a JOIN b USING (id)"));
        t.add(set("proj_length", r -> "SELECT id, length(s), length(t) FROM a JOIN b USING (id)"));
        t.add(set(
                "proj_bool",
                r -> "SELECT id, v > k, b AND v > " + v(r) + ", b OR k IS NULL, NOT b, v = k,"
                        + " v IS DISTINCT FROM k, v IS NOT DISTINCT FROM k FROM a"));
        t.add(set(
                "proj_cast",
                r -> "SELECT id, CAST(v AS VARCHAR), CAST(k AS BIGINT) + id, CAST(v AS DOUBLE PRECISION)"
                        + " / 8, CAST(v AS NUMERIC(10,2)) FROM b JOIN a USING (id) WHERE w > " + v(r)));
        // aggregates
        t.add(set(
                "agg_global",
                r -> "SELECT count(*), count(v), count(DISTINCT k), sum(v), min(v), max(v), sum(n),"
                        + " min(n), max(d), sum(d) FROM a WHERE v > " + v(r)));
        t.add(set(
                "agg_group",
                r -> "SELECT k, count(*), count(v), count(DISTINCT v), sum(v), min(v), max(v), sum(n),"
                        + " min(d), max(n) FROM a GROUP BY k"));
        t.add(set(
                "agg_avg",
                r -> "SELECT k, avg(d), avg(CAST(v AS DOUBLE PRECISION)), count(*) FROM a" + " WHERE v <> " + v(r)
                        + " GROUP BY k"));
        t.add(loose(
                "agg_avg_exact",
                r -> "SELECT k, round(avg(v)::numeric, 6), round(avg(n), 6) FROM a" + " WHERE v <> " + v(r)
                        + " GROUP BY k"));
        t.add(set(
                "agg_having",
                r -> "SELECT k, count(*), sum(w) FROM b GROUP BY k HAVING count(*) > " + (15 + r.nextInt(20))
                        + " OR sum(w) < " + (v(r) * 5)));
        t.add(set("agg_distinct", r -> "SELECT DISTINCT k, b FROM a WHERE v < " + v(r)));
        t.add(set("agg_group_expr", r -> "SELECT v % 3, count(*), max(id) FROM a GROUP BY v % 3"));
        t.add(set("agg_group_two", r -> "SELECT k, b, count(*), sum(n), count(s) FROM a GROUP BY k, b"));
        t.add(set("agg_empty", r -> "SELECT sum(v), count(*), count(v), max(s), min(n), avg(d) FROM a WHERE k = 1000"));
        t.add(set(
                "agg_bool_string",
                r -> "SELECT b, count(*), bool_and(v > 0), bool_or(v > " + v(r) + ") FROM a" + " GROUP BY b"));
        t.add(set(
                "agg_case",
                r -> "SELECT k, sum(CASE WHEN v > " + v(r) + " THEN 1 ELSE 0 END),"
                        + " count(CASE WHEN b THEN 1 END) FROM a GROUP BY k"));
        // joins
        t.add(set(
                "join_inner",
                r -> "SELECT a.id, b.id, a.v, b.w FROM a JOIN b ON a.k = b.k AND b.w > a.v" + " WHERE a.v > " + v(r)));
        t.add(set(
                "join_left",
                r -> "SELECT a.id, b.id, b.t FROM a LEFT JOIN b ON a.k = b.k AND b.w > " + v(r) + " WHERE a.id % 5 = "
                        + r.nextInt(5)));
        t.add(set(
                "join_right",
                r -> "SELECT a.id, b.id FROM a RIGHT JOIN b ON a.k = b.k AND a.v < " + v(r) + " WHERE b.id % 5 = "
                        + r.nextInt(5)));
        t.add(set(
                "join_full",
                r -> "SELECT x.id, y.id, x.k, y.k FROM (SELECT * FROM a WHERE v > " + v(r) + ") x"
                        + " FULL JOIN (SELECT * FROM b WHERE w < " + v(r)
                        + ") y ON x.k = y.k AND x.id % 4 = y.id % 4"));
        t.add(set(
                "join_agg",
                r -> "SELECT a.k, count(*), sum(b.w), max(a.v) FROM a JOIN b ON a.k = b.k" + " WHERE b.w > " + v(r)
                        + " GROUP BY a.k"));
        t.add(set(
                "join_left_null",
                r -> "SELECT a.id FROM a LEFT JOIN b ON a.k = b.k AND b.w > " + v(r) + " WHERE b.id IS NULL"));
        // set operations
        t.add(set(
                "union_all",
                r -> r.nextBoolean()
                        ? "SELECT k, v FROM a WHERE v > " + v(r) + " UNION ALL SELECT k, w FROM b WHERE w < " + v(r)
                        : "SELECT k, v FROM (SELECT k, v FROM a WHERE v > " + v(r) + ") x UNION ALL SELECT k, w FROM"
                                + " (SELECT k, w FROM b WHERE w < " + v(r) + ") y"));
        t.add(set(
                "union_distinct",
                r -> "SELECT k FROM a WHERE v > " + v(r) + " UNION SELECT k FROM b WHERE w < " + v(r)));
        t.add(set(
                "except_intersect",
                r -> "SELECT k FROM a " + (r.nextBoolean() ? "EXCEPT" : "INTERSECT") + " SELECT k FROM b WHERE w > "
                        + v(r)));
        // subqueries
        t.add(set(
                "subq_from",
                r -> "SELECT x.k, x.c, x.m FROM (SELECT k, count(*) AS c, max(v) AS m FROM a"
                        + " GROUP BY k) x WHERE x.c > " + (20 + r.nextInt(15))));
        t.add(set("subq_in", r -> "SELECT id, k FROM a WHERE k IN (SELECT k FROM b WHERE w > " + v(r) + ")"));
        t.add(set(
                "subq_not_in",
                r -> "SELECT id, k FROM a WHERE k NOT IN (SELECT k FROM b WHERE w > " + v(r)
                        + (r.nextBoolean() ? " AND k IS NOT NULL" : "") + ")"));
        t.add(set(
                "subq_exists",
                r -> "SELECT id FROM a WHERE " + (r.nextBoolean() ? "" : "NOT ")
                        + "EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.w < " + v(r) + ")"));
        t.add(set("subq_scalar", r -> "SELECT id, (SELECT max(w) FROM b WHERE b.k = a.k) FROM a WHERE v > " + v(r)));
        t.add(set("subq_cmp", r -> "SELECT id, v FROM a WHERE v > (SELECT avg(w) FROM b WHERE k = " + k(r) + ")"));
        // ORDER BY with a total order, LIMIT/OFFSET
        t.add(ordered(
                "order_limit",
                r -> "SELECT id, v, s FROM a WHERE v > " + v(r) + " ORDER BY id LIMIT " + (1 + r.nextInt(30))
                        + " OFFSET " + r.nextInt(50)));
        t.add(ordered(
                "order_nulls",
                r -> "SELECT id, v FROM a ORDER BY v"
                        + pick(r, List.of("", " DESC", " NULLS FIRST", " DESC NULLS LAST")) + ", id LIMIT "
                        + (5 + r.nextInt(40))));
        t.add(ordered(
                "order_desc_offset",
                r -> "SELECT id, k, n FROM a WHERE k = " + k(r) + " ORDER BY id DESC OFFSET " + r.nextInt(10)));
        t.add(ordered("order_group", r -> "SELECT k, count(*), sum(v) FROM a GROUP BY k ORDER BY k NULLS FIRST"));
        t.add(ordered(
                "order_expr",
                r -> "SELECT id, v * 2 + k AS e FROM a WHERE v IS NOT NULL AND k IS NOT NULL"
                        + " ORDER BY e, id LIMIT 20"));
        return t;
    }

    private static Template set(String name, Function<Random, String> sql) {
        return new Template(name, false, false, sql);
    }

    private static Template loose(String name, Function<Random, String> sql) {
        return new Template(name, false, true, sql);
    }

    private static Template ordered(String name, Function<Random, String> sql) {
        return new Template(name, true, false, sql);
    }
}
