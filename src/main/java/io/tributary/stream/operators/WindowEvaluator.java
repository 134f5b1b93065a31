package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.plan.WindowCall;
import io.tributary.plan.WindowFrame;
import io.tributary.plan.WindowKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;

/**
 * Computes an {@link io.tributary.plan.OverWindowNode}'s calls over one partition's rows, given in
 * window order, as PostgreSQL does: peers (rows equal in every ORDER BY column, or every row
 * without ORDER BY) share a rank and a RANGE frame's current-row bound; a framed function over an
 * empty frame is NULL ({@code count} 0). Frames only move forward as the current row does, so
 * SUM, COUNT and AVG over exact values slide in O(rows); MIN, MAX and floating-point sums are
 * computed again over a frame whose start moved (floating-point sums then add in the same order
 * PostgreSQL does). Used by one actor thread.
 */
final class WindowEvaluator {
    private final WindowFrame frame;
    private final List<WindowCall> calls;
    private final List<DataType> inputTypes;
    private final ByteWriter scratch = new ByteWriter(32);

    WindowEvaluator(WindowFrame frame, List<WindowCall> calls, List<DataType> inputTypes) {
        this.frame = frame;
        this.calls = calls;
        this.inputTypes = inputTypes;
    }

    /**
     * The output rows: each input row followed by the calls' values.
     *
     * @param peerStart for each row, the index of its first peer
     * @param peerEnd for each row, the index of its last peer
     */
    Object[][] evaluate(List<Object[]> rows, int[] peerStart, int[] peerEnd) {
        int n = rows.size();
        int width = inputTypes.size();
        Object[][] out = new Object[n][];
        for (int i = 0; i < n; i++) {
            out[i] = Arrays.copyOf(rows.get(i), width + calls.size());
        }
        int[] lo = new int[n];
        int[] hi = new int[n];
        for (int i = 0; i < n; i++) {
            lo[i] = Math.max(0, frame.rows() ? rowBound(frame.start(), i, n) : rangeStart(frame.start(), peerStart[i]));
            hi[i] = Math.min(n - 1, frame.rows() ? rowBound(frame.end(), i, n) : rangeEnd(frame.end(), peerEnd[i], n));
        }
        for (int c = 0; c < calls.size(); c++) {
            WindowCall call = calls.get(c);
            int col = width + c;
            switch (call.kind()) {
                case ROW_NUMBER -> {
                    for (int i = 0; i < n; i++) {
                        out[i][col] = (long) (i + 1);
                    }
                }
                case RANK -> {
                    for (int i = 0; i < n; i++) {
                        out[i][col] = (long) (peerStart[i] + 1);
                    }
                }
                case DENSE_RANK -> {
                    long dense = 0;
                    for (int i = 0; i < n; i++) {
                        if (peerStart[i] == i) {
                            dense++;
                        }
                        out[i][col] = dense;
                    }
                }
                case LAG, LEAD -> {
                    int step = call.kind() == WindowKind.LAG ? -call.offset() : call.offset();
                    for (int i = 0; i < n; i++) {
                        int j = i + step;
                        out[i][col] = j >= 0 && j < n ? rows.get(j)[call.arg()] : call.defaultValue();
                    }
                }
                case FIRST_VALUE, LAST_VALUE -> {
                    boolean first = call.kind() == WindowKind.FIRST_VALUE;
                    for (int i = 0; i < n; i++) {
                        out[i][col] = lo[i] > hi[i] ? null : rows.get(first ? lo[i] : hi[i])[call.arg()];
                    }
                }
                default -> aggregate(call, rows, lo, hi, out, col);
            }
        }
        return out;
    }

    private static int rowBound(long offset, int i, int n) {
        if (offset == WindowFrame.UNBOUNDED_PRECEDING) {
            return 0;
        }
        if (offset == WindowFrame.UNBOUNDED_FOLLOWING) {
            return n - 1;
        }
        // clipped to the partition: a start past its end or an end before its start leaves the frame empty
        return (int) Math.max(-1, Math.min(n, i + offset));
    }

    private static int rangeStart(long bound, int peerStart) {
        return bound == WindowFrame.UNBOUNDED_PRECEDING ? 0 : peerStart;
    }

    private static int rangeEnd(long bound, int peerEnd, int n) {
        return bound == WindowFrame.UNBOUNDED_FOLLOWING ? n - 1 : peerEnd;
    }

    /** SUM, SUM0, COUNT, AVG, MIN or MAX over each row's frame {@code [lo, hi]}, clipped to the rows. */
    private void aggregate(WindowCall call, List<Object[]> rows, int[] lo, int[] hi, Object[][] out, int col) {
        int n = rows.size();
        WindowKind kind = call.kind();
        DataType argType = call.arg() < 0 ? null : inputTypes.get(call.arg());
        boolean exactSlide =
                kind == WindowKind.COUNT || (!isFloating(argType) && kind != WindowKind.MIN && kind != WindowKind.MAX);
        Frame f = new Frame(call, argType);
        int from = 0;
        int to = -1; // the rows in the accumulator: [from, to]
        for (int i = 0; i < n; i++) {
            int a = lo[i];
            int b = hi[i];
            if (a > b) {
                out[i][col] = f.emptyResult();
                continue;
            }
            if (a < from || a > to + 1 || (a > from && !exactSlide)) {
                f.reset();
                from = a;
                to = a - 1;
            }
            while (from < a) {
                f.add(rows.get(from++), -1);
            }
            while (to < b) {
                f.add(rows.get(++to), 1);
            }
            out[i][col] = f.result();
        }
    }

    private static boolean isFloating(DataType type) {
        return type != null && (type.kind() == TypeKind.REAL || type.kind() == TypeKind.DOUBLE);
    }

    /** One aggregate's running value over the rows of a frame. */
    private final class Frame {
        private final WindowCall call;
        private final DataType argType;
        private long count;
        private BigDecimal exact;
        private double floating;
        private Object extreme;
        private byte[] extremeKey;

        Frame(WindowCall call, DataType argType) {
            this.call = call;
            this.argType = argType;
            reset();
        }

        void reset() {
            count = 0;
            exact = BigDecimal.ZERO;
            floating = 0;
            extreme = null;
            extremeKey = null;
        }

        /** Counts the row in (+1) or out (-1); out only for COUNT and exact sums. */
        void add(Object[] row, int sign) {
            Object v = call.arg() < 0 ? Boolean.TRUE : row[call.arg()];
            if (v == null) {
                return;
            }
            count += sign;
            switch (call.kind()) {
                case SUM, SUM0, AVG -> {
                    if (v instanceof Double d) {
                        floating += d;
                    } else if (v instanceof Float x) {
                        floating += x;
                    } else {
                        BigDecimal d = v instanceof BigDecimal b ? b : BigDecimal.valueOf(((Number) v).longValue());
                        exact = sign > 0 ? exact.add(d) : exact.subtract(d);
                    }
                }
                case MIN, MAX -> {
                    scratch.reset();
                    KeyCodec.encodeValue(scratch, argType, v);
                    byte[] key = scratch.toByteArray();
                    int cmp = extremeKey == null ? 0 : Arrays.compareUnsigned(key, extremeKey);
                    if (extremeKey == null || (call.kind() == WindowKind.MIN ? cmp < 0 : cmp > 0)) {
                        extreme = v;
                        extremeKey = key;
                    }
                }
                default -> {}
            }
        }

        Object emptyResult() {
            return switch (call.kind()) {
                case COUNT -> 0L;
                case SUM0 -> typed(BigDecimal.ZERO, 0);
                default -> null;
            };
        }

        Object result() {
            return switch (call.kind()) {
                case COUNT -> count;
                case SUM -> count == 0 ? null : typed(exact, floating);
                case SUM0 -> typed(exact, floating);
                case AVG -> count == 0 ? null : average();
                case MIN, MAX -> extreme;
                default -> throw new IllegalStateException(call.kind().name());
            };
        }

        private Object average() {
            DataType t = call.type();
            if (t.kind() == TypeKind.DOUBLE || t.kind() == TypeKind.REAL) {
                double sum = isFloating(argType) ? floating : exact.doubleValue();
                return typed(null, sum / count);
            }
            int scale = t.kind() == TypeKind.NUMERIC && t.scale() >= 0 ? t.scale() : Math.max(exact.scale(), 16);
            return typed(exact.divide(BigDecimal.valueOf(count), scale, RoundingMode.HALF_UP), 0);
        }

        /** {@code exact} (or {@code floating}, for floating-point types) as a value of the call's type. */
        private Object typed(BigDecimal exactValue, double floatingValue) {
            return switch (call.type().kind()) {
                case SMALLINT -> exactValue.shortValueExact();
                case INTEGER -> exactValue.intValueExact();
                case BIGINT -> exactValue.longValueExact();
                case DOUBLE -> exactValue == null ? floatingValue : floatingOrExact(exactValue, floatingValue);
                case REAL -> (float) (exactValue == null ? floatingValue : floatingOrExact(exactValue, floatingValue));
                default -> exactValue;
            };
        }

        private double floatingOrExact(BigDecimal exactValue, double floatingValue) {
            return isFloating(argType) ? floatingValue : exactValue.doubleValue();
        }
    }
}
