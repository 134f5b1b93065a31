package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Natural logarithm and exponential of {@link BigDecimal}s to a chosen number of significant
 * digits, which {@link PgNumericFunctions} rounds to PostgreSQL's result scales. The logarithm
 * reduces its argument to {@code [1/2, 10)} times a power of ten and corrects a double's logarithm
 * of it by the series of {@code ln(1 + e)} for a tiny {@code e}; the exponential halves its
 * argument below 0.001, sums Taylor's series and squares back. Each works with guard digits
 * beyond those asked for, covering what the squarings and the reduction magnify. Pure functions,
 * safe on any thread.
 */
final class NumericTranscendental {
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal NEAR_ONE = new BigDecimal("0.001");
    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final BigDecimal TENTH = new BigDecimal("0.1");
    private static final double LN_10 = Math.log(10);
    /** Digits beyond those asked for, which the last steps' roundings may spoil. */
    private static final int GUARD = 5;

    /** The most precise {@code ln(10)} computed so far (its scale says how precise); null before the first. */
    private static volatile BigDecimal ln10;

    private NumericTranscendental() {}

    /** {@code ln(x)} for {@code x > 0}, to {@code digits} significant digits. */
    static BigDecimal ln(BigDecimal x, int digits) {
        BigDecimal d = x.subtract(BigDecimal.ONE);
        if (d.signum() == 0) {
            return BigDecimal.ZERO;
        }
        // x = m * 10^exponent; between 1/2 and 10 x is taken whole, so no ln(10) cancels near 1
        int exponent = x.compareTo(HALF) >= 0 && x.compareTo(BigDecimal.TEN) < 0 ? 0 : x.precision() - x.scale() - 1;
        BigDecimal m = x.movePointLeft(exponent);
        // the result's decimal weight: ln(1 + d) is about d near 1, else a double's estimate
        int lead = d.abs().compareTo(TENTH) < 0
                ? d.precision() - d.scale() - 1
                : (int) Math.floor(Math.log10(Math.abs(Math.log(m.doubleValue()) + exponent * LN_10)));
        int decimals = digits - lead + GUARD;
        BigDecimal result = lnCore(m, decimals);
        if (exponent != 0) {
            int exponentDigits = Integer.toString(Math.abs(exponent)).length();
            result = result.add(ln10(decimals + exponentDigits).multiply(BigDecimal.valueOf(exponent)));
        }
        return result.round(new MathContext(digits, RoundingMode.HALF_EVEN));
    }

    /**
     * {@code ln(v)} for {@code v} in {@code [1/2, 10]}, to about {@code decimals} digits after the
     * point: a double's logarithm {@code y} corrected by {@code ln(v e^-y)}, whose argument is
     * within about 1e-15 of 1, so its series converges in a few terms. One exponential at the
     * working precision is the whole cost (repeated square roots were ten times slower).
     */
    private static BigDecimal lnCore(BigDecimal v, int decimals) {
        BigDecimal y = new BigDecimal(Math.log(v.doubleValue()));
        // |ln v| < 2.31 and v e^-y < 20: significant digits a little over the decimals suffice
        MathContext mc = new MathContext(decimals + 3, RoundingMode.HALF_EVEN);
        BigDecimal eps = v.multiply(exp(y.negate(), mc.getPrecision()), mc).subtract(BigDecimal.ONE);
        BigDecimal sum = eps;
        BigDecimal power = eps;
        BigDecimal limit = BigDecimal.ONE.movePointLeft(decimals + 2);
        for (int k = 2; power.abs().compareTo(limit) > 0; k++) {
            power = power.multiply(eps, mc);
            BigDecimal term = power.divide(BigDecimal.valueOf(k), mc);
            sum = k % 2 == 0 ? sum.subtract(term) : sum.add(term);
        }
        return y.add(sum);
    }

    /** {@code ln(10)} to at least {@code decimals} digits after the point, computed once per precision needed. */
    private static BigDecimal ln10(int decimals) {
        BigDecimal cached = ln10;
        if (cached == null || cached.scale() < decimals) {
            cached = lnCore(BigDecimal.TEN, decimals + GUARD).setScale(decimals + GUARD, RoundingMode.HALF_EVEN);
            ln10 = cached;
        }
        return cached;
    }

    /** {@code e^y} to {@code digits} significant digits. */
    static BigDecimal exp(BigDecimal y, int digits) {
        int halvings = 0;
        BigDecimal r = y;
        while (r.abs().compareTo(NEAR_ONE) > 0) {
            r = r.divide(TWO);
            halvings++;
        }
        MathContext mc = new MathContext(digits + 10 + halvings / 3, RoundingMode.HALF_EVEN);
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        BigDecimal limit = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
        for (int k = 1; term.abs().compareTo(limit) > 0; k++) {
            term = term.multiply(r, mc).divide(BigDecimal.valueOf(k), mc);
            sum = sum.add(term, mc);
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, mc);
        }
        return sum.round(new MathContext(digits, RoundingMode.HALF_EVEN));
    }
}
