package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code generate_series} over integer, bigint, numeric and timestamps, and {@code pg_typeof}, run
 * in order on Tributary and on an embedded PostgreSQL: each statement's rows, with their labels and
 * their columns' type names as pgjdbc reads them from RowDescription's type OIDs ({@code int4},
 * {@code int8}, {@code numeric}, {@code timestamp}, {@code timestamptz}), or its SQLSTATE must
 * match; also calls in FROM that read an earlier item's columns, with and without {@code LATERAL}.
 */
class GenerateSeriesDifferentialTest {
    private static final List<String> SERIES = List.of(
            "SELECT * FROM generate_series(1, 3)",
            "SELECT * FROM generate_series(1, 3) AS g",
            "SELECT g FROM generate_series(1, 3) g",
            "SELECT x FROM generate_series(1, 10, 3) AS g(x)",
            "SELECT x FROM generate_series(5, 1, -2) AS g(x)",
            "SELECT x FROM generate_series(1, 0) AS g(x)",
            "SELECT x FROM generate_series(1, 3, 0) AS g(x)",
            "SELECT x FROM generate_series(1::int2, 3::int2) AS g(x)",
            "SELECT x FROM generate_series(1::int2, 3) AS g(x)",
            "SELECT x FROM generate_series(1, 3::int2, 1::int2) AS g(x)",
            "SELECT x FROM generate_series(1::int2, 2.5) AS g(x)",
            "SELECT x FROM generate_series(1.5::float8, 3) AS g(x)",
            "SELECT x FROM generate_series(1, NULL) AS g(x)",
            "SELECT x FROM generate_series(1, 3, NULL) AS g(x)",
            "SELECT x FROM generate_series(NULL, 3000000000) AS g(x)",
            "SELECT x FROM generate_series(NULL, NULL) AS g(x)",
            // a bigint argument picks the bigint overload
            "SELECT x FROM generate_series(1, 3000000000, 1000000000) AS g(x)",
            "SELECT x FROM generate_series(3000000000, 3000000002) AS g(x)",
            "SELECT x FROM generate_series(1::bigint, 3) AS g(x)",
            "SELECT x FROM generate_series(1, 3, 1::int8) AS g(x)",
            "SELECT x FROM generate_series(1, 3, 0::bigint) AS g(x)",
            // the series ends where the next value would overflow its type; arithmetic on it is the type's
            "SELECT x FROM generate_series(2147483645, 2147483647) AS g(x)",
            "SELECT x FROM generate_series(2147483640, 2147483647, 5) AS g(x)",
            "SELECT x FROM generate_series(-2147483646, -2147483647, -1) AS g(x)",
            "SELECT x FROM generate_series(9223372036854775806, 9223372036854775807) AS g(x)",
            "SELECT x FROM generate_series(-9223372036854775806, -9223372036854775807, -1) AS g(x)",
            "SELECT x * 2 FROM generate_series(2147483647, 2147483647) AS g(x)",
            "SELECT x + 1 FROM generate_series(2147483646, 2147483647) AS g(x)",
            "SELECT x * 2 FROM generate_series(2147483647, 2147483648) AS g(x)",
            "SELECT x FROM generate_series(2147483647, 2147483648) AS g(x)",
            // numeric: a row's scale is the larger of the start's and the step's
            "SELECT x FROM generate_series(1, 2, 0.5) AS g(x)",
            "SELECT x FROM generate_series(1.5, 3) AS g(x)",
            "SELECT x FROM generate_series(0.1, 0.35, 0.1) AS g(x)",
            "SELECT x FROM generate_series(3, 1, -0.5) AS g(x)",
            "SELECT x FROM generate_series(1.0, 3.00) AS g(x)",
            "SELECT x FROM generate_series(1, 2, 0.0) AS g(x)",
            "SELECT x FROM generate_series(1::numeric, 3) AS g(x)",
            // timestamps (two dates give timestamptz)
            "SELECT x FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', INTERVAL '6 hours') AS g(x)",
            "SELECT x FROM generate_series(TIMESTAMP '2024-01-02', TIMESTAMP '2024-01-01', INTERVAL '-12 hours') AS g(x)",
            "SELECT x FROM generate_series(DATE '2024-02-27', DATE '2024-03-01', INTERVAL '1 day') AS g(x)",
            "SELECT x FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', INTERVAL '0 days') AS g(x)",
            // aggregates, joins and expressions over the integer rows
            // (avg's scale and sum(bigint)'s type are README's known deviations, whatever the rows' source)
            "SELECT count(*), sum(x), min(x), max(x) FROM generate_series(1, 100000) AS g(x)",
            "SELECT a.x, b FROM generate_series(1, 2) AS a(x) CROSS JOIN generate_series(10, 11) AS b ORDER BY 1, 2",
            "SELECT x / 2, x % 3, -x, x::text || 'a', x * 1.5 FROM generate_series(1, 4) AS g(x)",
            "SELECT x FROM generate_series(1, 100) AS g(x) WHERE x % 10 = 0 ORDER BY x DESC LIMIT 3",
            "CREATE TABLE gs (id INT PRIMARY KEY, k INT, w DOUBLE PRECISION, b BIGINT)",
            "INSERT INTO gs SELECT x, x % 7, x * 0.5, x * 3000000000 FROM generate_series(1, 50) AS s(x)",
            "SELECT count(*), sum(k), sum(w), min(b), max(b) FROM gs",
            "INSERT INTO gs SELECT x, x, x, x FROM generate_series(2147483646, 2147483647) AS s(x)",
            "SELECT id, k FROM gs WHERE id > 100 ORDER BY id",
            // a call in FROM reads earlier items' columns, with LATERAL or without it (PostgreSQL's implicit LATERAL)
            "SELECT id, g FROM gs, generate_series(1, k) g WHERE id < 5 ORDER BY 1, 2",
            "SELECT id, x FROM gs, LATERAL generate_series(k, 3) AS s(x) WHERE id < 5 ORDER BY 1, 2",
            "SELECT id, generate_series FROM gs, LATERAL generate_series(1, gs.k) WHERE id < 4 ORDER BY 1, 2",
            "SELECT id, g FROM gs JOIN generate_series(1, k) g ON g > 1 WHERE id < 6 ORDER BY 1, 2",
            "SELECT id, g FROM gs LEFT JOIN LATERAL generate_series(2, k) g ON true WHERE id < 4 ORDER BY 1, 2",
            "SELECT id, u FROM gs CROSS JOIN LATERAL upper(k::text || 'x') u WHERE id < 3 ORDER BY 1",
            "SELECT id, abs FROM gs, LATERAL abs(k - 3) WHERE id < 3 ORDER BY 1",
            "SELECT id, a FROM gs, LATERAL abs(k - 3) AS a WHERE id < 3 ORDER BY 1",
            "SELECT id, g FROM gs, LATERAL nosuch(k) g");

    private static final List<String> TYPE_OF = List.of(
            "CREATE TABLE ty (id INT PRIMARY KEY, i2 INT2, i8 INT8, r REAL, d FLOAT8, n NUMERIC, n52 NUMERIC(5,2),"
                    + " v VARCHAR(10), t TEXT, b BOOL, dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMPTZ, iv INTERVAL,"
                    + " by BYTEA)",
            "INSERT INTO ty VALUES (1, 1, 2, 1.5, 2.5, 3.5, 4.25, 'v', 't', true, '2024-01-01', '10:00',"
                    + " '2024-01-01 10:00', '2024-01-01 10:00+00', '1 day', '\\x00')",
            "SELECT pg_typeof(id), pg_typeof(i2), pg_typeof(i8), pg_typeof(r), pg_typeof(d), pg_typeof(n),"
                    + " pg_typeof(n52), pg_typeof(v), pg_typeof(t), pg_typeof(b) FROM ty",
            "SELECT pg_typeof(dt), pg_typeof(tm), pg_typeof(ts), pg_typeof(tz), pg_typeof(iv), pg_typeof(by) FROM ty",
            "SELECT pg_typeof(1), pg_typeof(3000000000), pg_typeof(1.5), pg_typeof(1e3), pg_typeof('a'),"
                    + " pg_typeof(NULL)",
            "SELECT pg_typeof(1::int2), pg_typeof(1::int8), pg_typeof(1.5::float8), pg_typeof(1.5::real),"
                    + " pg_typeof(1.5::numeric(5,2))",
            "SELECT pg_typeof('a'::text), pg_typeof('a'::varchar(3)), pg_typeof('a' || 'b'), pg_typeof(true),"
                    + " pg_typeof(NULL::int)",
            "SELECT pg_typeof(DATE '2024-01-01'), pg_typeof(TIME '10:00:00'), pg_typeof(TIMESTAMP '2024-01-01 10:00:00'),"
                    + " pg_typeof(TIMESTAMPTZ '2024-01-01 10:00:00+00')",
            "SELECT pg_typeof(INTERVAL '1 day'), pg_typeof('\\x00'::bytea), pg_typeof(ARRAY[1, 2])",
            "SELECT pg_typeof(1 + 1), pg_typeof(1 + 1.5), pg_typeof(1 / 2::float8), pg_typeof(i2 + i2),"
                    + " pg_typeof(dt - dt), pg_typeof(ts - ts), pg_typeof(dt + 1) FROM ty",
            "SELECT pg_typeof(count(*)), pg_typeof(sum(id)), pg_typeof(avg(id)), pg_typeof(max(i8)) FROM ty",
            "SELECT pg_typeof(1)::text, length(pg_typeof(1.5)::text), pg_typeof(1)::text = 'integer'",
            "SELECT id FROM ty WHERE pg_typeof(i8)::text = 'bigint'",
            "SELECT pg_typeof(x) AS t FROM generate_series(1.5, 2) AS g(x)",
            "SELECT pg_typeof(x), x FROM generate_series(1, 2) AS g(x)",
            "SELECT pg_typeof(x), x FROM generate_series(1, 3000000000, 3000000000) AS g(x)",
            "CREATE VIEW tyv AS SELECT id, pg_typeof(d) AS dtype, pg_typeof(v) AS vtype FROM ty",
            "SELECT * FROM tyv");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("series-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void seriesAreTypedAsPostgres() {
        List<String> mismatches = new ArrayList<>();
        for (String sql : SERIES) {
            String pg = StatementOutcome.withTypeNames(pair.pg, sql);
            String trib = StatementOutcome.withTypeNames(pair.tributary.connection, sql);
            if (!pg.equals(trib)) {
                mismatches.add(sql + "\n  postgres:  " + pg + "\n  tributary: " + trib);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** {@code pg_typeof}'s texts and labels; its column is text here (PostgreSQL: regtype), so types are not compared. */
    @Test
    void typeOfNamesTypesAsPostgres() {
        List<String> mismatches = new ArrayList<>();
        for (String sql : TYPE_OF) {
            String pg = StatementOutcome.of(pair.pg, sql, false);
            String trib = StatementOutcome.of(pair.tributary.connection, sql, false);
            if (!pg.equals(trib)) {
                mismatches.add(sql + "\n  postgres:  " + pg + "\n  tributary: " + trib);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** A materialized view keeps {@code pg_typeof}'s names as rows arrive: what PostgreSQL's query answers. */
    @Test
    void materializedViewKeepsTypeNames() {
        String query = "SELECT id, pg_typeof(i2) AS i2type, pg_typeof(tz) AS tztype, pg_typeof(i2 * 2) AS e FROM tm";
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "CREATE TABLE tm (id INT PRIMARY KEY, i2 INT2, tz TIMESTAMPTZ)",
                        "INSERT INTO tm VALUES (1, 1, '2024-01-01 10:00+00')")));
        pair.both("CREATE MATERIALIZED VIEW tmv AS " + query);
        assertEquals(List.of(), pair.mismatches(List.of("INSERT INTO tm VALUES (2, NULL, NULL)")));
        String[] outcome = {
            StatementOutcome.of(pair.pg, query + " ORDER BY id", false),
            StatementOutcome.of(pair.tributary.connection, "SELECT * FROM tmv ORDER BY id", false)
        };
        assertEquals(outcome[0], outcome[1]);
    }
}
