package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.InputRef;
import io.tributary.plan.SourceNode;
import io.tributary.plan.TemporalFilterNode;
import io.tributary.plan.TimeBound;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temporal filter over rows timed around the wall clock (the harness's barriers carry the
 * wall clock's epochs): rows leave under a lower bound and enter under an upper bound as barriers
 * pass, across restores from committed state, and the state keeps only the rows that may change.
 */
class TemporalFilterOperatorTest {
    /** (id BIGINT, ts TIMESTAMP) keyed by id. */
    private static final SourceNode INPUT = new SourceNode(
            1, "t", List.of(new Field("id", DataType.BIGINT), new Field("ts", DataType.TIMESTAMP)), new int[] {0});

    private static final int[] STATE = {100, 101};
    private static final long MS = 1_000L;

    @TempDir
    Path dir;

    private OperatorHarness harness(TimeBound... bounds) {
        TemporalFilterNode node = new TemporalFilterNode(INPUT, new InputRef(1, DataType.TIMESTAMP), List.of(bounds));
        return new OperatorHarness(dir, view -> new TemporalFilterOperator(node, STATE, view, 0));
    }

    private static long wall() {
        return System.currentTimeMillis() * MS;
    }

    @Test
    void rowsLeaveALowerBoundAsTimePassesAndAreForgotten() throws Exception {
        // ts > now - 1 s
        try (OperatorHarness h = harness(new TimeBound(false, false, -1_000 * MS))) {
            long t = wall();
            h.insert(
                            0,
                            row(1L, t + 2_000 * MS),
                            row(2L, t - 3_600_000 * MS),
                            row(3L, t + 3_600_000 * MS),
                            row(4L, null))
                    .barrier();
            assertEquals(List.of("[1, " + (t + 2_000 * MS) + "]", "[3, " + (t + 3_600_000 * MS) + "]"), h.rows());
            assertEquals(2, keys(h, STATE[0]), "the row never visible is not kept");
            h.restore();
            Thread.sleep(3_500);
            h.barrier();
            assertEquals(List.of("[3, " + (t + 3_600_000 * MS) + "]"), h.rows());
            assertEquals(1, keys(h, STATE[0]));
            // deleting a row that left, or never entered, changes nothing downstream
            h.delete(0, row(1L, t + 2_000 * MS), row(2L, t - 3_600_000 * MS), row(4L, null))
                    .barrier();
            assertEquals(List.of("[3, " + (t + 3_600_000 * MS) + "]"), h.rows());
            h.delete(0, row(3L, t + 3_600_000 * MS)).barrier();
            assertEquals(List.of(), h.rows());
            assertEquals(0, keys(h, STATE[0]));
        }
    }

    @Test
    void rowsEnterUnderAnUpperBoundAndAreForgottenOnceVisible() throws Exception {
        // ts <= now + 200 ms
        try (OperatorHarness h = harness(new TimeBound(true, true, 200 * MS))) {
            long t = wall();
            h.insert(0, row(1L, t - 1_000 * MS), row(2L, t + 3_000 * MS), row(3L, t + 3_600_000 * MS))
                    .barrier();
            assertEquals(List.of("[1, " + (t - 1_000 * MS) + "]"), h.rows());
            assertEquals(2, keys(h, STATE[0]), "only the rows not yet due are kept");
            h.restore();
            Thread.sleep(3_500);
            h.barrier();
            assertEquals(List.of("[1, " + (t - 1_000 * MS) + "]", "[2, " + (t + 3_000 * MS) + "]"), h.rows());
            assertEquals(1, keys(h, STATE[0]));
            h.delete(0, row(2L, t + 3_000 * MS), row(3L, t + 3_600_000 * MS)).barrier();
            assertEquals(List.of("[1, " + (t - 1_000 * MS) + "]"), h.rows());
            assertEquals(0, keys(h, STATE[0]));
        }
    }

    @Test
    void aRowPassesThroughAWindowOfBothBounds() throws Exception {
        // now - 5 s < ts < now - 500 ms: a row at t + 0 is due after 500 ms and gone after 5 s
        try (OperatorHarness h =
                harness(new TimeBound(false, false, -5_000 * MS), new TimeBound(true, false, -500 * MS))) {
            long t = wall();
            h.insert(0, row(1L, t)).barrier();
            assertEquals(List.of(), h.rows());
            Thread.sleep(1_000);
            h.restore().barrier();
            assertEquals(List.of("[1, " + t + "]"), h.rows());
            Thread.sleep(5_000);
            h.barrier();
            assertEquals(List.of(), h.rows());
            assertEquals(0, keys(h, STATE[0]));
        }
    }

    private static long keys(OperatorHarness h, int table) {
        long n = 0;
        try (ReadView view = h.store().latest();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(table), TableKeys.tableEnd(table))) {
            while (it.next()) {
                n++;
            }
        }
        return n;
    }
}
