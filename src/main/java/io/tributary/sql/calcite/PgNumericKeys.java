package io.tributary.sql.calcite;

import java.math.BigDecimal;

/**
 * A NUMERIC as a hash key in PostgreSQL's equality: {@code 1.5} and {@code 1.50} are equal (and hash
 * alike in PostgreSQL), where {@link BigDecimal#equals} and {@link BigDecimal#hashCode}, which
 * Calcite's hash joins use, tell scales apart. {@link NumericKeyPlans} matches by these in a
 * numeric's place; stateless.
 */
public final class PgNumericKeys {
    private PgNumericKeys() {}

    /** {@code x} without trailing fraction zeros (an integer at scale 0, never below); null for NULL. */
    public static BigDecimal pg_numeric_key(BigDecimal x) {
        if (x == null || x.scale() == 0) {
            return x;
        }
        BigDecimal stripped = x.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
