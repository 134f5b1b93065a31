package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.SessionCleaning;
import io.tributary.plan.SortKey;
import io.tributary.plan.SourceNode;
import io.tributary.plan.WindowCall;
import io.tributary.plan.WindowFrame;
import io.tributary.plan.WindowKind;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window-function operator forgetting closed sessions ({@link SessionCleaning}), on the
 * expansion's first node, {@code lag(t)} per partition in time order with a gap of 10 ms: the rows
 * of closed sessions leave state at a barrier after the watermark passes their end, except the
 * closed row just before an open session, which the open session's first row's lag reads; every
 * retraction the operator emits is of a row it emitted (the harness checks it), and the remaining
 * rows' values are the true lags. A restored operator indexes its stored partitions and goes on.
 */
class SessionCleaningOperatorTest {
    /** (id BIGINT, g INTEGER, t BIGINT) keyed by id: t is the session time in ms. */
    private static final SourceNode INPUT = new SourceNode(
            1,
            "t",
            List.of(
                    new Field("id", DataType.BIGINT),
                    new Field("g", DataType.INTEGER),
                    new Field("t", DataType.BIGINT)),
            new int[] {0});

    private static final int[] STATE = {100};
    private static final int TABLE = 7;

    @TempDir
    Path dir;

    private final AtomicLong watermarkMicros = new AtomicLong(Long.MIN_VALUE);

    private static OverWindowNode lagNode() {
        return new OverWindowNode(
                INPUT,
                new int[] {1},
                List.of(new SortKey(2, false, false)),
                new WindowFrame(true, WindowFrame.UNBOUNDED_PRECEDING, WindowFrame.CURRENT),
                List.of(new WindowCall(WindowKind.LAG, 2, 1, null, DataType.BIGINT)),
                -1,
                0,
                List.of(
                        new Field("id", DataType.BIGINT),
                        new Field("g", DataType.INTEGER),
                        new Field("t", DataType.BIGINT),
                        new Field("lag", DataType.BIGINT)),
                new SessionCleaning(2, 10, TABLE));
    }

    private OverWindowOperator operator(ReadView view) {
        return new OverWindowOperator(
                lagNode(), STATE, view, relation -> relation == TABLE ? watermarkMicros.get() : Long.MIN_VALUE, null);
    }

    @Test
    void closedSessionsLeaveStateAndOpenRowsKeepTheirLag() {
        try (OperatorHarness h = new OperatorHarness(dir.resolve("one"), this::operator)) {
            // partition 1: sessions {0, 5} and {30}; partition 2: session {3}
            h.insert(0, row(1L, 1, 0L), row(2L, 1, 5L), row(3L, 1, 30L), row(4L, 2, 3L))
                    .barrier();
            assertEquals(4, stateKeys(h));
            // 5 + 10 < 16: {0, 5} and {3} are closed; 5 stays, as 30's lag reads it; partition 2 goes
            watermarkMicros.set(16_000);
            h.barrier();
            assertEquals(2, stateKeys(h));
            // a row at the watermark joins {30}; nothing else changes
            h.takeEmitted();
            h.insert(0, row(5L, 1, 36L)).barrier();
            assertEquals(List.of("+[5, 1, 36, 30]"), h.takeEmitted());
            // an on-time row between 5 and 30 changes 30's lag from what was emitted, 5 (kept for it)
            h.insert(0, row(6L, 1, 22L)).barrier();
            assertEquals(List.of("-[3, 1, 30, 5]", "+[6, 1, 22, 5]", "+[3, 1, 30, 22]"), h.takeEmitted());
            // the session {22, 30, 36} ends at 46: a row at 46 ms would still join it
            watermarkMicros.set(46_000);
            h.barrier();
            assertEquals(4, stateKeys(h), "the session {22, 30, 36} ends at 46: still open");
            watermarkMicros.set(46_999);
            h.barrier();
            assertEquals(4, stateKeys(h), "a row at 46.999 ms is at 46 ms, 10 after 36: still open");
            watermarkMicros.set(47_000);
            h.barrier();
            assertEquals(0, stateKeys(h));
            // a partition forgotten whole: a new row's lag is NULL, more than the gap after its old rows alike
            h.insert(0, row(7L, 1, 60L)).barrier();
            assertEquals(List.of("+[7, 1, 60, null]"), h.takeEmitted());
            assertEquals(
                    List.of(
                            "[1, 1, 0, null]",
                            "[2, 1, 5, 0]",
                            "[3, 1, 30, 22]",
                            "[4, 2, 3, null]",
                            "[5, 1, 36, 30]",
                            "[6, 1, 22, 5]",
                            "[7, 1, 60, null]"),
                    h.rows());
        }
    }

    @Test
    void noCleaningWithoutAWatermark() {
        try (OperatorHarness h = new OperatorHarness(dir.resolve("two"), this::operator)) {
            h.insert(0, row(1L, 1, 0L), row(2L, 1, 500L)).barrier();
            h.barrier();
            assertEquals(2, stateKeys(h));
        }
    }

    private static long stateKeys(OperatorHarness h) {
        long keys = 0;
        try (ReadView view = h.store().latest();
                KvIterator it =
                        view.scan(Keyspace.DATA, TableKeys.tableStart(STATE[0]), TableKeys.tableEnd(STATE[0]))) {
            while (it.next()) {
                keys++;
            }
        }
        return keys;
    }
}
