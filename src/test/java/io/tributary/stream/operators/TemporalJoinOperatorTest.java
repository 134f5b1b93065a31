package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.Epoch;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.JoinKind;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.SourceNode;
import io.tributary.plan.TemporalJoinNode;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.OperatorHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temporal join over a right table written straight into the store: a left row joins the right row committed
 * when it is processed, keeps it when the table changes, and its delete retracts exactly what it emitted, across
 * restores from committed state (the memo). A LEFT join pads unmatched rows, a NULL key matches nothing, and the
 * condition filters on the right row.
 */
class TemporalJoinOperatorTest {
    /** (id BIGINT, k BIGINT) keyed by id. */
    private static final SourceNode LEFT = new SourceNode(
            1, "bids", List.of(new Field("id", DataType.BIGINT), new Field("k", DataType.BIGINT)), new int[] {0});

    private static final int RIGHT_TABLE = 2;
    /** (key BIGINT, value VARCHAR) keyed by key. */
    private static final List<Field> RIGHT =
            List.of(new Field("key", DataType.BIGINT), new Field("value", DataType.VARCHAR));

    private static final int[] STATE = {100};

    @TempDir
    Path dir;

    private OperatorHarness harness(JoinKind kind, ScalarExpr condition) {
        return harness(kind, condition, true);
    }

    private OperatorHarness harness(JoinKind kind, ScalarExpr condition, boolean memoized) {
        List<Field> fields = new ArrayList<>(LEFT.fields());
        fields.addAll(RIGHT);
        TemporalJoinNode node = new TemporalJoinNode(
                LEFT, kind, RIGHT_TABLE, "side", RIGHT, new int[] {0}, new int[] {1}, condition, fields, memoized);
        return new OperatorHarness(dir, view -> new TemporalJoinOperator(node, STATE, view));
    }

    /** Commits {@code rows} of the right table (a null value deletes the key) as one epoch. */
    private static void side(StateStore store, Object[]... rows) {
        List<DataType> types = RIGHT.stream().map(Field::type).toList();
        RowCodec codec = new RowCodec(types);
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            for (Object[] r : rows) {
                ByteWriter key = new ByteWriter(16);
                key.skip(TableKeys.PREFIX_LENGTH);
                KeyCodec.encode(key, List.of(DataType.BIGINT), r, new int[] {0});
                byte[] k = TableKeys.fillPrefix(RIGHT_TABLE, key.toByteArray());
                if (r[1] == null) {
                    buffer.delete(Keyspace.DATA, k);
                } else {
                    buffer.put(Keyspace.DATA, k, codec.encode(r));
                }
            }
            store.commit(Epoch.next(store.committedEpoch(), System.currentTimeMillis()), buffer);
        }
    }

    @Test
    void rowsKeepTheVersionTheyJoinedAndRetractIt() {
        try (OperatorHarness h = harness(JoinKind.INNER, null)) {
            side(h.store(), row(1L, "one"), row(2L, "two"));
            h.insert(0, row(10L, 1L), row(11L, 2L), row(12L, 3L), row(13L, null))
                    .barrier();
            assertEquals(List.of("[10, 1, 1, one]", "[11, 2, 2, two]"), h.rows());
            side(h.store(), row(1L, "uno"), row(2L, null), row(3L, "three"));
            h.restore();
            h.insert(0, row(14L, 1L), row(15L, 2L), row(16L, 3L)).barrier();
            assertEquals(
                    List.of("[10, 1, 1, one]", "[11, 2, 2, two]", "[14, 1, 1, uno]", "[16, 3, 3, three]"), h.rows());
            // the memo gives back what was emitted, though the table changed since
            h.delete(0, row(10L, 1L), row(11L, 2L), row(12L, 3L)).barrier();
            assertEquals(List.of("[14, 1, 1, uno]", "[16, 3, 3, three]"), h.rows());
            // an update is a delete and an insert: joined anew within one chunk
            h.delete(0, row(14L, 1L)).insert(0, row(14L, 3L)).restore();
            h.delete(0, row(14L, 1L)).insert(0, row(14L, 3L)).barrier();
            assertEquals(List.of("[14, 3, 3, three]", "[16, 3, 3, three]"), h.rows());
        }
    }

    @Test
    void leftJoinPadsAndTheConditionFilters() {
        ScalarExpr notX = new TestExpr("$3 <> 'x'", DataType.BOOLEAN, r -> r[3] == null ? null : !r[3].equals("x"));
        try (OperatorHarness h = harness(JoinKind.LEFT, notX)) {
            side(h.store(), row(1L, "one"), row(2L, "x"));
            h.insert(0, row(10L, 1L), row(11L, 2L), row(12L, 3L), row(13L, null))
                    .barrier();
            assertEquals(
                    List.of("[10, 1, 1, one]", "[11, 2, null, null]", "[12, 3, null, null]", "[13, null, null, null]"),
                    h.rows());
            side(h.store(), row(2L, "two"), row(3L, "three"));
            h.restore();
            h.delete(0, row(11L, 2L), row(12L, 3L), row(13L, null)).barrier();
            assertEquals(List.of("[10, 1, 1, one]"), h.rows());
        }
    }

    @Test
    void anAppendOnlyLeftSideKeepsNoMemo() {
        try (OperatorHarness h = harness(JoinKind.INNER, null, false)) {
            side(h.store(), row(1L, "one"));
            h.insert(0, row(10L, 1L), row(11L, 2L)).barrier();
            side(h.store(), row(1L, "uno"));
            h.insert(0, row(12L, 1L)).barrier();
            assertEquals(List.of("[10, 1, 1, one]", "[12, 1, 1, uno]"), h.rows());
            assertEquals(0, keys(h, STATE[0]), "no memo rows");
        }
        try (OperatorHarness h = harness(JoinKind.INNER, null, true)) {
            side(h.store(), row(1L, "one"));
            h.insert(0, row(10L, 1L), row(11L, 2L)).barrier();
            assertEquals(1, keys(h, STATE[0]), "a memo row per matched left row");
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
