package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * PostgreSQL's {@code overlay(text PLACING text FROM start [FOR count])}, called by the code Calcite
 * generates for the calls {@link PgScalarCalls} puts in a plan (by reflection, each method by its own
 * name; they must stay public and static). Calcite's overlay fails (XX000) on an empty text or a start past its end;
 * PostgreSQL's is {@code substring(s FOR start - 1) || placing || substring(s FROM start + count)},
 * counting code points, with 22011 for a start below 1. Strict: a NULL operand gives NULL without
 * a call. Pure functions, safe on any thread.
 */
@Strict
public final class PgOverlayFunction {
    private PgOverlayFunction() {}

    /** {@code overlay(s PLACING placing FROM start)}: replaces as many characters as {@code placing} has. */
    public static String overlayFrom(String s, String placing, int start) {
        return overlay(s, placing, start, placing.codePointCount(0, placing.length()));
    }

    /** {@code overlay(s PLACING placing FROM start FOR count)}. */
    public static String overlay(String s, String placing, int start, int count) {
        if (start <= 0) {
            throw new TributaryException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
        }
        long resume = (long) start + count;
        if (resume != (int) resume) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        int chars = s.codePointCount(0, s.length());
        String head = s.substring(0, s.offsetByCodePoints(0, Math.min(start - 1, chars)));
        String tail = resume > chars ? "" : s.substring(s.offsetByCodePoints(0, (int) Math.max(resume - 1, 0)));
        return head + placing + tail;
    }
}
