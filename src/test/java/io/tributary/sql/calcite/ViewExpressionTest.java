package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.plan.FilterNode;
import io.tributary.plan.Literal;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.ViewPlan;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Expressions of view queries compiled by Calcite, evaluated over rows of canonical values. */
class ViewExpressionTest {
    private static final long TS = PgTextFormat.parseTimestamp("2024-02-29 13:14:15.678", false);
    private final CalciteViewPlanner planner = new CalciteViewPlanner(ViewCatalog.create());

    /** A row of t: id 1, v 41, s 'ab', n 1.25, ts, b true, sm 7, re 1.5, db 2.5, d, tm, iv 1 day, bt, tz, vc 'xy', un 3.14159. */
    private static Object[] row() {
        return new Object[] {
            1L,
            41,
            "ab",
            new BigDecimal("1.25"),
            TS,
            true,
            (short) 7,
            1.5f,
            2.5d,
            PgTextFormat.parseDate("2024-02-29"),
            PgTextFormat.parseTime("10:00:00.250"),
            new Interval(0, 1, 0),
            new byte[] {1, 2},
            TS,
            "xy",
            new BigDecimal("3.14159")
        };
    }

    private static Object[] row(int column, Object value) {
        Object[] row = row();
        row[column] = value;
        return row;
    }

    /** The view's first column's expression, as the plan computes it from rows of t. */
    private ScalarExpr expr(String expr) {
        ViewPlan plan = planner.plan("SELECT " + expr + " AS e FROM t", 100, "m");
        return ((ProjectNode) plan.root().input()).exprs().get(0);
    }

    private Object eval(String expr, Object[] row) {
        return expr(expr).eval(row);
    }

    @Test
    void integerArithmeticKeepsTheColumnTypeAndFailsOnOverflow() {
        assertEquals(42, eval("v + 1", row()));
        assertEquals(DataType.INTEGER, expr("v + 1").type());
        assertEquals((short) 14, eval("sm + sm", row()));
        assertEquals(84L, eval("id + v * 2 - 1 + 2", row()));
        TributaryException e = assertThrows(TributaryException.class, () -> eval("v * 2", row(1, Integer.MAX_VALUE)));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.sqlState());
    }

    @Test
    void divisionByZeroIs22012() {
        TributaryException e = assertThrows(TributaryException.class, () -> eval("v / (sm - 7)", row()));
        assertEquals(SqlState.DIVISION_BY_ZERO, e.sqlState());
        TributaryException d = assertThrows(TributaryException.class, () -> eval("n / (v - 41)", row()));
        assertEquals(SqlState.DIVISION_BY_ZERO, d.sqlState());
    }

    @Test
    void numericsAndFloats() {
        assertEquals(new BigDecimal("2.50"), eval("n * 2", row()));
        // PostgreSQL types real * integer as double precision (no float4 * int4 operator)
        assertEquals(3.0d, eval("re * 2", row()));
        assertEquals(1.25d, eval("db / 2", row()));
        assertEquals(new BigDecimal("41"), eval("v::numeric", row()));
        assertEquals(1, eval("n::int", row()));
        assertEquals(2, eval("n::int", row(3, new BigDecimal("1.50"))));
        assertEquals(new BigDecimal("3.14159"), eval("un", row()));
        assertEquals(41L, eval("cast(v as bigint)", row()));
    }

    @Test
    void postgresScalarCallsAndCasts() {
        assertEquals("1e-05", eval("db::text", row(8, 1e-5)));
        assertEquals("0.0000", eval("n::text", row(3, new BigDecimal("0.0000"))));
        assertEquals(2.0d, eval("round(db)", row()));
        assertEquals(
                SqlState.INVALID_ARGUMENT_FOR_POWER,
                assertThrows(TributaryException.class, () -> eval("sqrt(db)", row(8, -1.0)))
                        .sqlState());
        assertEquals(2.0d, eval("log(db * 40)", row()));
        assertEquals("ABß", eval("upper(s || 'ß')", row()));
        assertEquals("Xb", eval("regexp_replace(s, '[a-z]', 'X')", row()));
        assertEquals(new BigDecimal("1.3"), eval("n::numeric(3,1)", row()));
        assertEquals(
                SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                assertThrows(TributaryException.class, () -> eval("n::numeric(2,1)", row(3, new BigDecimal("9.96"))))
                        .sqlState());
        assertEquals(
                SqlState.CANNOT_COERCE,
                assertThrows(TributaryException.class, () -> eval("db::boolean", row()))
                        .sqlState());
        assertEquals(3L, eval("gcd(id * 12, 15)", row()));
    }

    @Test
    void textAndInvalidCasts() {
        assertEquals("abx", eval("s || 'x'", row()));
        assertEquals("AB", eval("upper(s)", row()));
        assertEquals(12, eval("cast(s as int)", row(2, "12")));
        assertEquals(
                SqlState.INVALID_TEXT_REPRESENTATION,
                assertThrows(TributaryException.class, () -> eval("cast(s as int)", row()))
                        .sqlState());
        assertEquals("xy!", eval("vc || '!'", row()));
        assertEquals("41", eval("v::text", row()));
        assertEquals(true, eval("s LIKE 'a%'", row()));
    }

    @Test
    void timesKeepCanonicalUnits() {
        assertEquals(TS, eval("ts", row()));
        assertEquals(TS + 86_400_000_000L, eval("ts + interval '1' day", row()));
        assertEquals(TS + 3_600_000_000L, eval("tz + interval '1' hour", row()));
        assertEquals(PgTextFormat.parseTime("11:00:00.250"), eval("tm + interval '1' hour", row()));
        // a date plus an interval is a timestamp, as in PostgreSQL
        assertEquals(PgTextFormat.parseTimestamp("2024-03-01 00:00:00", false), eval("d + interval '1' day", row()));
        assertEquals(new java.math.BigDecimal(2024), eval("extract(year from ts)", row()));
        assertEquals(new Interval(0, 2, 0), eval("iv + interval '1' day", row()));
        assertEquals(new Interval(14, 0, 0), eval("interval '1' year + interval '2' month", row()));
        assertEquals(true, eval("ts > timestamp '2024-01-01 00:00:00'", row()));
    }

    @Test
    void byteaConvertsBothWays() {
        assertArrayEquals(new byte[] {1, 2}, (byte[]) eval("coalesce(bt, x'ff')", row()));
        assertArrayEquals(new byte[] {(byte) 0xff}, (byte[]) eval("coalesce(bt, x'ff')", row(12, null)));
    }

    @Test
    void caseCoalesceNullif() {
        assertEquals("big", eval("case when v > 1 then 'big' else 'small' end", row()));
        assertEquals("small", eval("case when v > 1 then 'big' else 'small' end", row(1, 0)));
        assertNull(eval("case when v > 100 then v end", row()));
        assertEquals("none", eval("coalesce(s, 'none')", row(2, null)));
        assertEquals("ab", eval("coalesce(s, 'none')", row()));
        assertNull(eval("nullif(v, 41)", row()));
        assertEquals(41, eval("nullif(v, 0)", row()));
        assertNull(eval("v + 1", row(1, null)));
    }

    @Test
    void constantsBecomeCanonicalLiterals() {
        assertEquals(new Literal("abc", DataType.TEXT), expr("'abc'"));
        assertEquals(new Literal(new BigDecimal("1.50"), DataType.numeric(3, 2)), expr("1.50"));
        // Calcite keeps timestamps to the millisecond
        assertEquals(
                PgTextFormat.parseTimestamp("2024-01-02 03:04:05.123", false),
                ((Literal) expr("timestamp '2024-01-02 03:04:05.123'")).value());
        assertEquals(PgTextFormat.parseDate("2024-01-02"), ((Literal) expr("date '2024-01-02'")).value());
        assertEquals(new Interval(12, 0, 0), ((Literal) expr("interval '1' year")).value());
        assertEquals(
                new Interval(0, 1, 7_200_000_000L), ((Literal) expr("interval '1 02:00:00' day to second")).value());
        assertArrayEquals(new byte[] {10, (byte) 0xff}, (byte[]) ((Literal) expr("x'0aff'")).value());
        assertEquals(new Literal(null, DataType.INTEGER), expr("cast(null as int)"));
    }

    @Test
    void inListsAndRanges() {
        assertEquals(true, eval("v IN (1, 41, 7)", row()));
        assertEquals(false, eval("v IN (1, 2)", row()));
        assertNull(eval("v IN (1, 2)", row(1, null)));
        assertEquals(true, eval("v BETWEEN 40 AND 42", row()));
        assertEquals(false, eval("s NOT IN ('ab', 'cd')", row()));
    }

    @Test
    void filterConditionsAreThreeValued() {
        ViewPlan plan = planner.plan("SELECT * FROM t WHERE v > 3 AND s <> 'zz'", 100, "m");
        ScalarExpr condition = ((FilterNode) plan.root().input()).condition();
        assertEquals(true, condition.eval(row()));
        assertEquals(false, condition.eval(row(1, 3)));
        assertNull(condition.eval(row(2, null)));
    }

    @Test
    void oneCompiledExpressionServesManyThreads() throws Exception {
        ScalarExpr e = expr("CASE WHEN s LIKE 'a%' THEN v * 3 + 1 END");
        assertInstanceOf(CompiledExpression.class, e);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = t * 100_000;
                results.add(pool.submit(() -> {
                    for (int i = base; i < base + 20_000; i++) {
                        if (!Integer.valueOf(i * 3 + 1).equals(e.eval(row(1, i)))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertEquals(true, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
