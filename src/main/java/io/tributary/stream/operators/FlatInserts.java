package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.plan.AggCall;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The inserted rows {@link HashAggOperator} took in for each group since it last folded them into
 * the group's state, summed in primitive arrays indexed by the group's id in the operator's {@link
 * ByteKeyMap}: the row count, per COUNT call its count, per SUM call its terms and their sum as an
 * unscaled {@code long} and a scale, and per MIN/MAX call up to {@link #VALUES} distinct values
 * (their memcomparable encodings as two words) with their occurrences and first representations.
 *
 * <p>Why: a group's state is a chain of objects (its {@code Held}, {@link GroupState}, the
 * accumulators, the held or pending values and their arrays), and a row of a snapshot with tens of
 * thousands of groups missed the cache on most links of that chain, one after the other (JFR of
 * {@code bench backfill}'s GROUP BY). Here a row's sums are one stretch of one {@code long[]}: a
 * group of the query {@code count(*), sum(amount), max(amount)} takes 16 words, two cache lines.
 * The operator folds a group's sums into its state when a row takes the ordinary path for it (a
 * delete, a row that does not fit here) and for every group at the barrier, so the state, the
 * output and the state writes are those of applying the same rows one by one: inserts commute,
 * NUMERIC sums are exact and keep the largest scale, and a value keeps its representation as first
 * seen.
 *
 * <p>Only operators all of whose calls {@link #supports} are COUNT, NUMERIC SUM and MIN/MAX without
 * DISTINCT or FILTER use it. Memory: {@link #stride} words and {@link #VALUES} references per MIN/MAX
 * call for each id the map handed out. Actor thread only.
 */
final class FlatInserts {
    /** The distinct values one group keeps per MIN/MAX call between folds; a further one folds the group. */
    static final int VALUES = 4;

    /** The longest value encoding kept as two words: 15 bytes and its length. */
    private static final int WORD_BYTES = 15;

    private static final long[] POWERS_OF_TEN = DecimalSumAccumulator.POWERS_OF_TEN;

    private final AggCall[] calls;
    private final DataType[] argTypes;
    /** Per call, the offset of its sums within a group's stretch (after the row count at 0). */
    private final int[] offsets;
    /** Per call, the index of its first representation slot within a group's, or -1 for non-MIN/MAX. */
    private final int[] valueSlots;

    private final int stride;
    private final int valueStride;
    private long[] words;
    private Object[] firstSeen;
    /** The ids with rows not yet folded, in the order of their first row since the last fold. */
    private int[] pendingIds = new int[1024];

    private int pendingCount;
    /** Distinct values with occurrences not yet folded, over all groups and calls. */
    private long pendingValues;

    private final ByteWriter scratch = new ByteWriter(16);
    /** Per call, where {@link #add} found room for the row's value, decided before anything changes. */
    private final int[] valueAt;
    /** Per call, the SUM's new unscaled value and scale, computed before anything changes. */
    private final long[] newSums;

    private final int[] newScales;
    private final long[] valueWord0;
    private final long[] valueWord1;

    /** Whether every call is one this class can sum (see the class comment). */
    static boolean supports(AggCall[] calls, DataType[] argTypes) {
        for (int c = 0; c < calls.length; c++) {
            AggCall call = calls[c];
            if (call.distinct() || call.filterArg() >= 0) {
                return false;
            }
            boolean fits = switch (call.kind()) {
                case COUNT, MIN, MAX -> true;
                case SUM, SUM0 ->
                    call.type().kind() == TypeKind.NUMERIC
                            && argTypes[c].kind().isNumeric()
                            && argTypes[c].kind() != TypeKind.REAL
                            && argTypes[c].kind() != TypeKind.DOUBLE;
                default -> false;
            };
            if (!fits) {
                return false;
            }
        }
        return true;
    }

    FlatInserts(AggCall[] calls, DataType[] argTypes) {
        this.calls = calls;
        this.argTypes = argTypes;
        this.offsets = new int[calls.length];
        this.valueSlots = new int[calls.length];
        int at = 1;
        int slots = 0;
        for (int c = 0; c < calls.length; c++) {
            offsets[c] = at;
            valueSlots[c] = -1;
            switch (calls[c].kind()) {
                case COUNT -> at += 1;
                case SUM, SUM0 -> at += 3;
                default -> {
                    valueSlots[c] = slots;
                    slots += VALUES;
                    at += 3 * VALUES;
                }
            }
        }
        this.stride = at;
        this.valueStride = slots;
        this.words = new long[stride * 1024];
        this.firstSeen = new Object[valueStride * 1024];
        this.valueAt = new int[calls.length];
        this.newSums = new long[calls.length];
        this.newScales = new int[calls.length];
        this.valueWord0 = new long[calls.length];
        this.valueWord1 = new long[calls.length];
    }

    /** Makes room for ids below {@code idLimit}. */
    void ensure(int idLimit) {
        if ((long) idLimit * stride > words.length) {
            int ids = Math.max(idLimit, words.length / stride * 2);
            words = Arrays.copyOf(words, ids * stride);
            firstSeen = Arrays.copyOf(firstSeen, ids * valueStride);
        }
    }

    /** The inserted rows of group {@code id} not yet folded; zero when it has none. */
    long rows(int id) {
        return words[id * stride];
    }

    /**
     * Counts {@code row} as an insert into group {@code id} and returns true, or returns false having
     * changed nothing when it does not fit: a SUM term or sum outside a {@code long} at a scale of
     * at most 18, a MIN/MAX value encoded in more than 15 bytes, or a fifth distinct value of a call.
     */
    boolean add(int id, Object[] row) {
        int base = id * stride;
        for (int c = 0; c < calls.length; c++) {
            Object value = argument(c, row);
            if (value == null) {
                continue;
            }
            switch (calls[c].kind()) {
                case COUNT -> {}
                case SUM, SUM0 -> {
                    if (!sum(c, base + offsets[c], value)) {
                        return false;
                    }
                }
                default -> {
                    if (!findValue(c, base + offsets[c], value)) {
                        return false;
                    }
                }
            }
        }
        if (words[base] == 0) {
            if (pendingCount == pendingIds.length) {
                pendingIds = Arrays.copyOf(pendingIds, pendingCount * 2);
            }
            pendingIds[pendingCount++] = id;
        }
        words[base]++;
        for (int c = 0; c < calls.length; c++) {
            Object value = argument(c, row);
            if (value == null) {
                continue;
            }
            int at = base + offsets[c];
            switch (calls[c].kind()) {
                case COUNT -> words[at]++;
                case SUM, SUM0 -> {
                    words[at]++;
                    words[at + 1] = newSums[c];
                    words[at + 2] = newScales[c];
                }
                default -> {
                    int k = valueAt[c];
                    int e = at + 3 * k;
                    if (words[e + 2] == 0) {
                        words[e] = valueWord0[c];
                        words[e + 1] = valueWord1[c];
                        firstSeen[id * valueStride + valueSlots[c] + k] = value;
                        pendingValues++;
                    }
                    words[e + 2]++;
                }
            }
        }
        return true;
    }

    /** Call {@code c}'s argument in {@code row}, or null for {@code count(*)} and a NULL argument (nothing to sum). */
    private Object argument(int c, Object[] row) {
        int arg = calls[c].arg();
        return arg < 0 ? null : row[arg];
    }

    /** Computes the SUM at {@code at} plus {@code value} into {@link #newSums}; false when it does not fit. */
    private boolean sum(int c, int at, Object value) {
        long x;
        int xScale;
        if (value instanceof BigDecimal d) {
            if (!DecimalSumAccumulator.compact(d)) {
                return false;
            }
            xScale = d.scale();
            x = DecimalSumAccumulator.unscaled(d);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            x = ((Number) value).longValue();
            xScale = 0;
        } else {
            return false;
        }
        long sum = words[at + 1];
        int scale = (int) words[at + 2];
        int to = Math.max(scale, xScale);
        long scaledSum = sum * POWERS_OF_TEN[to - scale];
        long scaledX = x * POWERS_OF_TEN[to - xScale];
        if (Math.multiplyHigh(sum, POWERS_OF_TEN[to - scale]) != (scaledSum >> 63)
                || Math.multiplyHigh(x, POWERS_OF_TEN[to - xScale]) != (scaledX >> 63)) {
            return false;
        }
        long r = scaledSum + scaledX;
        if (((scaledSum ^ r) & (scaledX ^ r)) < 0) {
            return false;
        }
        newSums[c] = r;
        newScales[c] = to;
        return true;
    }

    /** Finds {@code value}'s entry, or a free one, among the call's at {@code at} into {@link #valueAt}. */
    private boolean findValue(int c, int at, Object value) {
        scratch.reset();
        KeyCodec.encodeValue(scratch, argTypes[c], value);
        int len = scratch.length();
        if (len > WORD_BYTES) {
            return false;
        }
        byte[] b = scratch.array();
        long w0 = 0;
        long w1 = 0;
        for (int i = 0; i < 8; i++) {
            w0 = w0 << 8 | (i < len ? b[i] & 0xff : 0);
        }
        for (int i = 8; i < WORD_BYTES; i++) {
            w1 = w1 << 8 | (i < len ? b[i] & 0xff : 0);
        }
        w1 = w1 << 8 | len;
        int free = -1;
        for (int k = 0; k < VALUES; k++) {
            int e = at + 3 * k;
            if (words[e + 2] == 0) {
                if (free < 0) {
                    free = k;
                }
            } else if (words[e] == w0 && words[e + 1] == w1) {
                valueAt[c] = k;
                return true;
            }
        }
        if (free < 0) {
            return false;
        }
        valueAt[c] = free;
        valueWord0[c] = w0;
        valueWord1[c] = w1;
        return true;
    }

    /** Call {@code c}'s COUNT of non-null values in group {@code id} (for {@code count(*)}, use {@link #rows}). */
    long count(int id, int c) {
        return words[id * stride + offsets[c]];
    }

    /** Call {@code c}'s number of SUM terms in group {@code id}. */
    long sumTerms(int id, int c) {
        return words[id * stride + offsets[c]];
    }

    /** Call {@code c}'s SUM of group {@code id}, exactly, at the largest scale of its terms. */
    BigDecimal sum(int id, int c) {
        int at = id * stride + offsets[c];
        return BigDecimal.valueOf(words[at + 1], (int) words[at + 2]);
    }

    /** The occurrences of MIN/MAX call {@code c}'s {@code k}-th value in group {@code id}; 0 when unused. */
    long valueCount(int id, int c, int k) {
        return words[id * stride + offsets[c] + 3 * k + 2];
    }

    /** The representation the {@code k}-th value was first seen with. */
    Object value(int id, int c, int k) {
        return firstSeen[id * valueStride + valueSlots[c] + k];
    }

    /** Forgets group {@code id}'s sums (the operator folded them). */
    void clear(int id) {
        int base = id * stride;
        for (int c = 0; c < calls.length; c++) {
            if (valueSlots[c] >= 0) {
                for (int k = 0; k < VALUES; k++) {
                    if (words[base + offsets[c] + 3 * k + 2] != 0) {
                        pendingValues--;
                    }
                }
            }
        }
        Arrays.fill(words, base, base + stride, 0);
        Arrays.fill(firstSeen, id * valueStride, (id + 1) * valueStride, null);
    }

    /** The ids that had rows since the last {@link #clearPending}, some perhaps folded since. */
    int[] pendingIds() {
        return pendingIds;
    }

    int pendingCount() {
        return pendingCount;
    }

    /** Forgets the list of {@link #pendingIds}; every one of them must have been folded. */
    void clearPending() {
        pendingCount = 0;
        if (pendingIds.length > 65_536) {
            pendingIds = new int[1024];
        }
    }

    /** Distinct MIN/MAX values with occurrences not yet folded: value-table writes to come. */
    long pendingValues() {
        return pendingValues;
    }
}
