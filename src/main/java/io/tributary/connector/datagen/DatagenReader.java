package io.tributary.connector.datagen;

import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes one split's rows at the split's share of {@code datagen.rows.per.second}. Its position
 * is the next sequence number it will make; rows are a pure function of the sequence number, so a
 * reader reopened at a position makes exactly the rows after it, identical to the first time.
 * One engine thread at a time.
 */
final class DatagenReader implements SplitReader {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final DatagenSpec spec;
    private final int step;
    private final double rowsPerSecond;
    private long next;
    /** Rows the rate allows now; at most one second's worth accrues while nobody polls. */
    private double credit = 1;

    private long creditAt = System.nanoTime();

    DatagenReader(DatagenSpec spec, long next) {
        this.spec = spec;
        this.step = spec.splitCount();
        this.rowsPerSecond = spec.rowsPerSecond() / spec.splitCount();
        this.next = next;
    }

    @Override
    public SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException {
        if (next >= spec.totalRows()) {
            Thread.sleep(maxWaitMillis); // all made: nothing will ever come
            return SourceBatch.EMPTY;
        }
        refill();
        if (credit < 1) {
            long nanos = (long) Math.ceil((1 - credit) * NANOS_PER_SECOND / rowsPerSecond);
            long waitNanos = Math.min(nanos, maxWaitMillis * 1_000_000L);
            Thread.sleep(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
            refill();
            if (credit < 1) {
                return SourceBatch.EMPTY;
            }
        }
        long left = (spec.totalRows() - next - 1) / step + 1; // next < total, so nothing overflows
        int n = (int) Math.min(Math.min(maxRows, (long) credit), left);
        credit -= n;
        List<FieldGenerator> fields = spec.fields();
        int width = fields.size();
        List<SourceChange> changes = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) {
                row[c] = fields.get(c).value(next);
            }
            changes.add(SourceChange.insert(row));
            next += step;
        }
        return new SourceBatch(changes, List.of());
    }

    private void refill() {
        long now = System.nanoTime();
        credit = Math.min(Math.max(1, rowsPerSecond), credit + (now - creditAt) * rowsPerSecond / NANOS_PER_SECOND);
        creditAt = now;
    }

    @Override
    public byte[] position() {
        return ByteBuffer.allocate(Long.BYTES).putLong(next).array();
    }

    @Override
    public String describe(byte[] position) {
        return "next sequence " + ByteBuffer.wrap(position).getLong();
    }

    @Override
    public String phase() {
        return next >= spec.totalRows() ? "finished" : "streaming";
    }
}
