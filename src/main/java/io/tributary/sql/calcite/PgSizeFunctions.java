package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code pg_size_pretty}, registered as a schema function by {@link CatalogSchema} (public static,
 * called by reflection from generated code; boxed so NULL passes through as NULL). PostgreSQL 14's
 * text: bytes below 10 kB, then kB, MB, GB and TB, each unit used while the value stays below
 * 20 of it; every step truncates toward zero keeping one extra bit that then rounds half away from
 * zero, so negative sizes mirror positive ones. Pure functions, safe on any thread.
 */
public final class PgSizeFunctions {
    private static final String[] UNITS = {"kB", "MB", "GB"};
    private static final long LIMIT = 10 * 1024;
    private static final long LIMIT2 = LIMIT * 2 - 1;
    private static final BigDecimal BIG_LIMIT = BigDecimal.valueOf(LIMIT);
    private static final BigDecimal BIG_LIMIT2 = BigDecimal.valueOf(LIMIT2);
    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    private PgSizeFunctions() {}

    /** {@code pg_size_pretty(bigint)}. */
    public static String pg_size_pretty(Long bytes) {
        if (bytes == null) {
            return null;
        }
        long size = bytes;
        if (Math.abs(size) < LIMIT) {
            return size + " bytes";
        }
        // division, not a shift, so that negative sizes round like positive ones
        size /= 1 << 9;
        for (String unit : UNITS) {
            if (Math.abs(size) < LIMIT2) {
                return halfRounded(size) + " " + unit;
            }
            size /= 1 << 10;
        }
        return halfRounded(size) + " TB";
    }

    /** {@code pg_size_pretty(numeric)}: as for bigint; below 10 kB the value's own text. */
    public static String pg_size_pretty(BigDecimal bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.abs().compareTo(BIG_LIMIT) < 0) {
            return bytes.toPlainString() + " bytes";
        }
        BigDecimal size = truncatedDivide(bytes, 1 << 9);
        for (String unit : UNITS) {
            if (size.abs().compareTo(BIG_LIMIT2) < 0) {
                return halfRounded(size).toPlainString() + " " + unit;
            }
            size = truncatedDivide(size, 1 << 10);
        }
        return halfRounded(size).toPlainString() + " TB";
    }

    /** Half of {@code x}, rounded away from zero. */
    private static long halfRounded(long x) {
        return (x + (x < 0 ? -1 : 1)) / 2;
    }

    private static BigDecimal halfRounded(BigDecimal x) {
        BigDecimal away = x.signum() >= 0 ? x.add(BigDecimal.ONE) : x.subtract(BigDecimal.ONE);
        return away.divide(TWO, 0, RoundingMode.DOWN);
    }

    private static BigDecimal truncatedDivide(BigDecimal x, int divisor) {
        return x.divide(BigDecimal.valueOf(divisor), 0, RoundingMode.DOWN);
    }
}
