package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL 14's {@code split_part(text, delimiter, n)}, called by the code Calcite generates for
 * the calls {@link PgScalarCalls} puts in a plan (by reflection; the method must stay public and
 * static): field {@code n} counting from 1, or from the end when {@code n} is negative; the empty
 * text past the last field; 22023 for {@code n = 0}, where Calcite's answers. An empty delimiter
 * makes the whole text its only field. Strict: a NULL operand gives NULL without a call. Pure
 * function, safe on any thread.
 */
@Strict
public final class PgSplitPartFunction {
    private PgSplitPartFunction() {}

    /** {@code split_part(s, delimiter, n)}. */
    public static String split_part(String s, String delimiter, int n) {
        if (n == 0) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "field position must not be zero");
        }
        if (s.isEmpty()) {
            return "";
        }
        if (delimiter.isEmpty()) {
            return n == 1 || n == -1 ? s : "";
        }
        if (n > 0) {
            int start = 0;
            for (int field = 1; field < n; field++) {
                int at = s.indexOf(delimiter, start);
                if (at < 0) {
                    return "";
                }
                start = at + delimiter.length();
            }
            int end = s.indexOf(delimiter, start);
            return s.substring(start, end < 0 ? s.length() : end);
        }
        int end = s.length();
        for (int field = -1; field > n; field--) {
            int at = end - delimiter.length() < 0 ? -1 : s.lastIndexOf(delimiter, end - delimiter.length());
            if (at < 0) {
                return "";
            }
            end = at;
        }
        int at = end - delimiter.length() < 0 ? -1 : s.lastIndexOf(delimiter, end - delimiter.length());
        return s.substring(at < 0 ? 0 : at + delimiter.length(), end);
    }
}
