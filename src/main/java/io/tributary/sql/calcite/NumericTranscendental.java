package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Natural logarithm and exponential of {@link BigDecimal}s to a chosen number of significant
 * digits, which {@link PgNumericFunctions} rounds to PostgreSQL's result scales. The logarithm
 * reduces its argument to {@code [1, 10)} times a power of ten, takes square roots until it is
 * within 0.001 of 1 and sums the series of {@code 2 atanh((m - 1) / (m + 1))}; the exponential
 * halves its argument below 0.001, sums Taylor's series and squares back. Each works with guard
 * digits beyond those asked for, covering what the roots and squarings magnify. Pure functions,
 * safe on any thread.
 */
final class NumericTranscendental {
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal NEAR_ONE = new BigDecimal("0.001");

    private NumericTranscendental() {}

    /** {@code ln(x)} for {@code x > 0}, to {@code digits} significant digits. */
    static BigDecimal ln(BigDecimal x, int digits) {
        int exponent = x.precision() - x.scale() - 1; // x = m * 10^exponent, 1 <= m < 10
        BigDecimal m = x.movePointLeft(exponent);
        int work = digits + 10 + Integer.toString(Math.abs(exponent)).length();
        BigDecimal result = lnNearOne(m, work);
        if (exponent != 0) {
            result = result.add(lnNearOne(BigDecimal.TEN, work).multiply(BigDecimal.valueOf(exponent)));
        }
        return result.round(new MathContext(digits, RoundingMode.HALF_EVEN));
    }

    /** {@code ln(m)} for {@code m} in {@code [1, 10]}, to about {@code work} digits after the point. */
    private static BigDecimal lnNearOne(BigDecimal m, int work) {
        MathContext mc = new MathContext(work + 8, RoundingMode.HALF_EVEN);
        int roots = 0;
        while (m.subtract(BigDecimal.ONE).abs().compareTo(NEAR_ONE) > 0) {
            m = m.sqrt(mc);
            roots++;
        }
        BigDecimal z = m.subtract(BigDecimal.ONE).divide(m.add(BigDecimal.ONE), mc);
        BigDecimal z2 = z.multiply(z, mc);
        BigDecimal power = z;
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal limit = BigDecimal.ONE.movePointLeft(work + 6);
        for (int k = 1; power.abs().compareTo(limit) > 0; k += 2) {
            sum = sum.add(power.divide(BigDecimal.valueOf(k), mc), mc);
            power = power.multiply(z2, mc);
        }
        return sum.multiply(TWO.pow(roots + 1), mc);
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
