package io.tributary.server.session;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server-wide bounds on what one statement may take.
 *
 * @param statementTimeoutMillis the default of {@code statement_timeout}; 0 disables it
 * @param queryMemoryBytes what the sorts, hash tables and groupings of one statement may hold
 */
public record QueryLimits(long statementTimeoutMillis, long queryMemoryBytes) {
    /** Largest statement_timeout, as in PostgreSQL (an int of milliseconds). */
    static final long MAX_TIMEOUT_MILLIS = Integer.MAX_VALUE;

    private static final Pattern QUANTITY =
            Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([a-zA-Z]*)\\s*");
    private static final String[] TIME_UNITS = {"d", "h", "min", "s", "ms"};
    private static final long[] TIME_UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};

    public QueryLimits {
        if (statementTimeoutMillis < 0 || statementTimeoutMillis > MAX_TIMEOUT_MILLIS) {
            throw new IllegalArgumentException("statement timeout out of range: " + statementTimeoutMillis);
        }
        if (queryMemoryBytes <= 0) {
            throw new IllegalArgumentException("query memory must be positive: " + queryMemoryBytes);
        }
    }

    /** No statement timeout; a quarter of the maximum heap per query. */
    public static QueryLimits defaults() {
        return new QueryLimits(0, defaultQueryMemory());
    }

    /** A quarter of the JVM's maximum heap: room for a few large queries and the streaming jobs. */
    public static long defaultQueryMemory() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    /**
     * Parses a duration as PostgreSQL parses {@code statement_timeout}: a number with an optional
     * unit ({@code us, ms, s, min, h, d}; none means milliseconds), rounded to milliseconds.
     *
     * @throws TributaryException 22023 with PostgreSQL's messages for a bad value or unit
     */
    public static long parseMillis(String name, String text) {
        Matcher m = QUANTITY.matcher(text);
        long unit;
        if (m.matches()) {
            Long u = timeUnitMicros(m.group(2));
            if (u != null) {
                BigDecimal micros = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(u));
                BigDecimal millis = micros.divide(BigDecimal.valueOf(1000), 0, RoundingMode.HALF_EVEN);
                if (millis.abs().compareTo(BigDecimal.valueOf(MAX_TIMEOUT_MILLIS)) > 0) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + name + "\": \"" + text + "\"",
                            0,
                            null,
                            "Value exceeds integer range.",
                            null);
                }
                if (millis.signum() < 0) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            millis.toPlainString()
                                    + " ms is outside the valid range for parameter \"" + name + "\" (0 .. "
                                    + MAX_TIMEOUT_MILLIS + ")");
                }
                return millis.longValueExact();
            }
            unit = -1;
        } else {
            unit = 0;
        }
        throw new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value for parameter \"" + name + "\": \"" + text + "\"",
                0,
                null,
                unit < 0
                        ? "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\"."
                        : null,
                null);
    }

    private static Long timeUnitMicros(String unit) {
        return switch (unit) {
            case "", "ms" -> 1000L;
            case "us" -> 1L;
            case "s" -> 1_000_000L;
            case "min" -> 60_000_000L;
            case "h" -> 3_600_000_000L;
            case "d" -> 86_400_000_000L;
            default -> null;
        };
    }

    /** Milliseconds as PostgreSQL's SHOW prints them: the largest unit that divides exactly ("2s", "100ms", "0"). */
    public static String formatMillis(long millis) {
        if (millis == 0) {
            return "0";
        }
        for (int i = 0; i < TIME_UNITS.length; i++) {
            if (millis % TIME_UNIT_MILLIS[i] == 0) {
                return millis / TIME_UNIT_MILLIS[i] + TIME_UNITS[i];
            }
        }
        throw new AssertionError("every count of milliseconds divides by 1 ms");
    }

    /**
     * Parses a memory size: a number with an optional unit ({@code B, kB, MB, GB, TB}; none means
     * kB, as in PostgreSQL's memory settings).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static long parseBytes(String text) {
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid memory size \"" + text + "\"");
        }
        long unit = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "B" -> 1L;
            case "", "KB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            case "TB" -> 1L << 40;
            default ->
                throw new IllegalArgumentException(
                        "invalid memory unit in \"" + text + "\"; valid units are B, kB, MB, GB and TB");
        };
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (bytes.signum() <= 0) {
            throw new IllegalArgumentException("memory size must be positive: \"" + text + "\"");
        }
        return bytes.setScale(0, RoundingMode.DOWN).longValueExact();
    }
}
