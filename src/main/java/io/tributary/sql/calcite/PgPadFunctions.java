package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's {@code lpad} and {@code rpad} with a fill text, called by the code Calcite generates
 * for the calls {@link PgScalarCalls} puts in a plan (by reflection; the methods must stay public
 * and static). Calcite's runtime refuses an empty fill; PostgreSQL then pads nothing and only
 * truncates; without a fill it pads with spaces (Calcite's two-argument form fails on a negative
 * length). Lengths count code points, as PostgreSQL counts characters in UTF8; a length needing
 * more than PostgreSQL's 1 GB allocation at 4 bytes a character is 54000. Strict: a NULL operand
 * gives NULL without a call. Pure functions, safe on any thread.
 */
@Strict
public final class PgPadFunctions {
    /** The longest result PostgreSQL could allocate: 4 bytes a character within 1 GB less a header. */
    private static final int LONGEST = (0x3fffffff - 4) / 4;

    private PgPadFunctions() {}

    /** {@code lpad(text, length, fill)}: {@code s} cut to {@code length}, or filled on the left up to it. */
    public static String lpad(String s, int length, String fill) {
        return pad(s, length, fill, true);
    }

    /** {@code rpad(text, length, fill)}: {@code s} cut to {@code length}, or filled on the right up to it. */
    public static String rpad(String s, int length, String fill) {
        return pad(s, length, fill, false);
    }

    private static String pad(String s, int length, String fill, boolean left) {
        int target = Math.max(length, 0);
        int chars = s.codePointCount(0, s.length());
        if (target > LONGEST && !fill.isEmpty()) {
            throw new TributaryException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
        }
        String kept = chars <= target ? s : s.substring(0, s.offsetByCodePoints(0, target));
        int missing = chars >= target || fill.isEmpty() ? 0 : target - chars;
        if (missing == 0) {
            return kept;
        }
        StringBuilder out = new StringBuilder(kept.length() + missing);
        if (!left) {
            out.append(kept);
        }
        for (int at = 0; missing > 0; missing--) {
            int cp = fill.codePointAt(at);
            out.appendCodePoint(cp);
            at += Character.charCount(cp);
            if (at >= fill.length()) {
                at = 0;
            }
        }
        if (left) {
            out.append(kept);
        }
        return out.toString();
    }
}
