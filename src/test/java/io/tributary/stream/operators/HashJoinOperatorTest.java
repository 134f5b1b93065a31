package io.tributary.stream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.VirtualNodes;
import io.tributary.common.types.DataType;
import io.tributary.plan.Distribution;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.Field;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.JoinKind;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.SourceNode;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.OperatorHarness;
import io.tributary.stream.WatermarkReader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HashJoinOperatorTest {
    private static final int[] TABLES = {11, 12};

    @TempDir
    Path dir;

    /** {@code $a < $b} over integers, NULL when either is NULL (SQL's unknown). */
    private record LessThan(int a, int b) implements ScalarExpr {
        @Override
        public Object eval(Object[] row) {
            Integer x = (Integer) row[a];
            Integer y = (Integer) row[b];
            return x == null || y == null ? null : x < y;
        }

        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }

        @Override
        public String toString() {
            return "$" + a + " < $" + b;
        }
    }

    /**
     * Left (id INTEGER, k, v INTEGER) with stream key id; right (k, id BIGINT, w INTEGER) with
     * stream key id; joined on left.k = right.k.
     */
    private static HashJoinNode node(
            JoinKind kind, DataType leftKey, DataType rightKey, boolean nullSafe, ScalarExpr condition) {
        List<Field> lf =
                List.of(new Field("id", DataType.INTEGER), new Field("k", leftKey), new Field("v", DataType.INTEGER));
        List<Field> rf =
                List.of(new Field("k", rightKey), new Field("id", DataType.BIGINT), new Field("w", DataType.INTEGER));
        List<Field> out = new ArrayList<>(lf);
        out.addAll(rf);
        return new HashJoinNode(
                new SourceNode(1, "l", lf, new int[] {0}),
                new SourceNode(2, "r", rf, new int[] {1}),
                kind,
                new int[] {1},
                new int[] {0},
                new boolean[] {nullSafe},
                condition,
                out,
                new int[] {0, 4});
    }

    private static HashJoinNode node(JoinKind kind) {
        return node(kind, DataType.INTEGER, DataType.INTEGER, false, null);
    }

    /** A harness over a fresh store in its own directory {@code name}. */
    private OperatorHarness harness(String name, HashJoinNode node) {
        return new OperatorHarness(dir.resolve(name), view -> new HashJoinOperator(node, TABLES, view));
    }

    private static Object[] l(Object id, Object k, Object v) {
        return new Object[] {id, k, v};
    }

    private static Object[] r(Object k, Object id, Object w) {
        return new Object[] {k, id, w};
    }

    /**
     * Left snapshot rows given as their stored bytes ({@link Chunk#ofStored}), as a dimension join's
     * big side reads them, leave the same state bytes and join the same as the rows given decoded:
     * an INNER join's left side keeps the stored values as they are, a LEFT join's (which stores a
     * degree after the row) encodes them as before. The rows cover a NULL join key, a NULL value,
     * matched and unmatched keys; a later delete of a stored row retracts its match in both.
     */
    @ParameterizedTest
    @EnumSource(
            value = JoinKind.class,
            names = {"INNER", "LEFT"})
    void storedLeftRowsStoreWhatDecodedRowsStore(JoinKind kind) {
        Object[][] lefts = {l(1, 10, 5), l(2, null, 6), l(3, 20, null), l(4, 10, 7), l(5, 99, 8)};
        Object[][] rights = {r(10, 1L, 0), r(20, 2L, 1)};
        List<DataType> types = List.of(DataType.INTEGER, DataType.INTEGER, DataType.INTEGER);
        io.tributary.common.codec.RowCodec codec = new io.tributary.common.codec.RowCodec(types);
        byte[][] pks = new byte[lefts.length][];
        byte[][] values = new byte[lefts.length][];
        for (int i = 0; i < lefts.length; i++) {
            io.tributary.common.codec.ByteWriter w = new io.tributary.common.codec.ByteWriter(8);
            io.tributary.common.codec.KeyCodec.encodeValue(w, DataType.INTEGER, lefts[i][0]);
            pks[i] = w.toByteArray();
            values[i] = codec.encode(lefts[i]);
        }
        List<String> state = new ArrayList<>();
        List<List<String>> emitted = new ArrayList<>();
        for (boolean stored : new boolean[] {false, true}) {
            try (OperatorHarness h = harness(kind + (stored ? "-stored" : "-decoded"), node(kind))) {
                h.insert(1, rights);
                h.push(
                        0,
                        stored
                                ? Chunk.ofStored(
                                        new io.tributary.stream.StoredLayout(new int[] {0}, types),
                                        pks,
                                        values,
                                        lefts.length)
                                : Chunk.of(Op.INSERT, lefts));
                h.barrier();
                h.delete(0, l(4, 10, 7)).barrier();
                emitted.add(h.takeEmitted());
                List<String> bytes = new ArrayList<>();
                try (ReadView view = h.store().snapshot();
                        KvIterator it = view.scan(
                                Keyspace.DATA,
                                io.tributary.storage.TableKeys.tableStart(TABLES[0]),
                                io.tributary.storage.TableKeys.tableEnd(TABLES[1]))) {
                    java.util.HexFormat hex = java.util.HexFormat.of();
                    while (it.next()) {
                        bytes.add(hex.formatHex(it.key()) + "=" + hex.formatHex(it.value()));
                    }
                }
                state.add(String.join(",", bytes));
            }
        }
        assertEquals(state.get(0), state.get(1));
        assertEquals(emitted.get(0), emitted.get(1));
        assertTrue(emitted.get(0).size() >= 4, emitted.get(0).toString());
    }

    @Test
    void innerJoinMatchesManyToManyWhicheverSideComesFirst() {
        for (boolean leftFirst : new boolean[] {true, false}) {
            try (OperatorHarness h = harness(leftFirst ? "left-first" : "right-first", node(JoinKind.INNER))) {
                Object[][] lefts = {l(1, 10, 0), l(2, 10, 0), l(3, 20, 0)};
                Object[][] rights = {r(10, 1L, 0), r(10, 2L, 0), r(10, 3L, 0), r(30, 4L, 0)};
                if (leftFirst) {
                    h.insert(0, lefts).insert(1, rights);
                } else {
                    h.insert(1, rights).insert(0, lefts);
                }
                h.barrier();
                assertEquals(
                        List.of(
                                "[1, 10, 0, 10, 1, 0]",
                                "[1, 10, 0, 10, 2, 0]",
                                "[1, 10, 0, 10, 3, 0]",
                                "[2, 10, 0, 10, 1, 0]",
                                "[2, 10, 0, 10, 2, 0]",
                                "[2, 10, 0, 10, 3, 0]"),
                        h.rows());

                h.delete(0, l(1, 10, 0))
                        .delete(1, r(10, 2L, 0))
                        .insert(1, r(20, 5L, 0))
                        .barrier();
                assertEquals(List.of("[2, 10, 0, 10, 1, 0]", "[2, 10, 0, 10, 3, 0]", "[3, 20, 0, 20, 5, 0]"), h.rows());

                h.delete(1, r(10, 1L, 0), r(10, 3L, 0), r(30, 4L, 0))
                        .delete(0, l(3, 20, 0))
                        .barrier();
                assertEquals(List.of(), h.rows());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JoinKind.class)
    void everyJoinEndsTheSameWhereverBarriersAndRestoresFall(JoinKind kind) {
        List<String> expected = new ArrayList<>(List.of("[2, 10, 0, 10, 1, 0]", "[3, 20, 0, 20, 5, 0]"));
        if (kind.padsLeft()) {
            expected.add("[4, 40, 0, null, null, null]");
        }
        if (kind.padsRight()) {
            expected.add("[null, null, null, 30, 4, 0]");
        }
        HashJoinNode node = node(kind);
        OperatorHarness.verify(dir, view -> new HashJoinOperator(node, TABLES, view))
                .insert(0, l(1, 10, 0), l(2, 10, 0), l(3, 20, 0))
                .insert(1, r(10, 1L, 0), r(10, 2L, 0), r(30, 4L, 0))
                .delete(0, l(1, 10, 0))
                .delete(1, r(10, 2L, 0))
                .insert(1, r(20, 5L, 0))
                .insert(0, l(4, 40, 0))
                .expectRows(expected);
    }

    @Test
    void leftJoinPadsALeftRowExactlyWhileItHasNoMatch() {
        try (OperatorHarness h = harness("store", node(JoinKind.LEFT))) {
            h.insert(0, l(1, 10, 7));
            assertEquals(List.of("+[1, 10, 7, null, null, null]"), h.takeEmitted());
            h.insert(1, r(10, 1L, 8));
            assertEquals(List.of("-[1, 10, 7, null, null, null]", "+[1, 10, 7, 10, 1, 8]"), h.takeEmitted());
            h.insert(1, r(10, 2L, 9));
            assertEquals(List.of("+[1, 10, 7, 10, 2, 9]"), h.takeEmitted());
            h.barrier();
            h.delete(1, r(10, 1L, 8));
            assertEquals(List.of("-[1, 10, 7, 10, 1, 8]"), h.takeEmitted());
            h.delete(1, r(10, 2L, 9));
            assertEquals(List.of("-[1, 10, 7, 10, 2, 9]", "+[1, 10, 7, null, null, null]"), h.takeEmitted());
            // unmatched right rows do not appear in a LEFT join
            h.insert(1, r(99, 3L, 0));
            assertEquals(List.of(), h.takeEmitted());
            h.barrier();
            assertEquals(List.of("[1, 10, 7, null, null, null]"), h.rows());

            h.insert(1, r(10, 4L, 1)).delete(0, l(1, 10, 7));
            assertEquals(
                    List.of("-[1, 10, 7, null, null, null]", "+[1, 10, 7, 10, 4, 1]", "-[1, 10, 7, 10, 4, 1]"),
                    h.takeEmitted());
            h.insert(0, l(2, 20, 0)).delete(0, l(2, 20, 0));
            assertEquals(List.of("+[2, 20, 0, null, null, null]", "-[2, 20, 0, null, null, null]"), h.takeEmitted());
            h.barrier();
            assertEquals(List.of(), h.rows());
        }
    }

    @Test
    void rightJoinPadsARightRowExactlyWhileItHasNoMatch() {
        try (OperatorHarness h = harness("store", node(JoinKind.RIGHT))) {
            h.insert(1, r(10, 1L, 5));
            assertEquals(List.of("+[null, null, null, 10, 1, 5]"), h.takeEmitted());
            h.insert(0, l(1, 10, 0), l(2, 10, 0), l(3, 99, 0));
            assertEquals(
                    List.of("-[null, null, null, 10, 1, 5]", "+[1, 10, 0, 10, 1, 5]", "+[2, 10, 0, 10, 1, 5]"),
                    h.takeEmitted());
            h.barrier();
            h.delete(0, l(1, 10, 0));
            assertEquals(List.of("-[1, 10, 0, 10, 1, 5]"), h.takeEmitted());
            h.delete(0, l(2, 10, 0));
            assertEquals(List.of("-[2, 10, 0, 10, 1, 5]", "+[null, null, null, 10, 1, 5]"), h.takeEmitted());
            h.barrier();
            assertEquals(List.of("[null, null, null, 10, 1, 5]"), h.rows());
        }
    }

    @Test
    void fullJoinPadsBothSidesAndMovesPaddingWithMatches() {
        try (OperatorHarness h = harness("store", node(JoinKind.FULL))) {
            h.insert(0, l(1, 10, 0)).insert(1, r(20, 1L, 0)).barrier();
            assertEquals(List.of("[1, 10, 0, null, null, null]", "[null, null, null, 20, 1, 0]"), h.rows());
            h.takeEmitted();

            h.insert(1, r(10, 2L, 0));
            assertEquals(List.of("-[1, 10, 0, null, null, null]", "+[1, 10, 0, 10, 2, 0]"), h.takeEmitted());
            h.insert(0, l(2, 10, 0));
            assertEquals(List.of("+[2, 10, 0, 10, 2, 0]"), h.takeEmitted());
            h.barrier();
            // the right row keeps one match, so it stays unpadded
            h.delete(0, l(1, 10, 0));
            assertEquals(List.of("-[1, 10, 0, 10, 2, 0]"), h.takeEmitted());
            h.delete(0, l(2, 10, 0));
            assertEquals(List.of("-[2, 10, 0, 10, 2, 0]", "+[null, null, null, 10, 2, 0]"), h.takeEmitted());
            h.barrier();
            assertEquals(List.of("[null, null, null, 10, 2, 0]", "[null, null, null, 20, 1, 0]"), h.rows());

            h.delete(1, r(10, 2L, 0), r(20, 1L, 0)).barrier();
            assertEquals(List.of(), h.rows());
        }
    }

    @Test
    void nullKeysMatchNothingUnlessNullSafe() {
        HashJoinNode plainNode = node(JoinKind.FULL, DataType.INTEGER, DataType.INTEGER, false, null);
        try (OperatorHarness h = harness("plain", plainNode)) {
            h.insert(0, l(1, null, 0), l(2, 10, 0))
                    .insert(1, r(null, 1L, 0), r(10, 2L, 0))
                    .barrier();
            assertEquals(
                    List.of("[1, null, 0, null, null, null]", "[2, 10, 0, 10, 2, 0]", "[null, null, null, null, 1, 0]"),
                    h.rows());
            h.restore().delete(0, l(1, null, 0)).delete(1, r(null, 1L, 0)).barrier();
            assertEquals(List.of("[2, 10, 0, 10, 2, 0]"), h.rows());
        }
        HashJoinNode nullSafeNode = node(JoinKind.FULL, DataType.INTEGER, DataType.INTEGER, true, null);
        try (OperatorHarness h = harness("null-safe", nullSafeNode)) {
            h.insert(0, l(1, null, 0), l(2, 10, 0))
                    .insert(1, r(null, 1L, 0), r(null, 2L, 0))
                    .barrier();
            assertEquals(
                    List.of("[1, null, 0, null, 1, 0]", "[1, null, 0, null, 2, 0]", "[2, 10, 0, null, null, null]"),
                    h.rows());
            h.restore().delete(0, l(1, null, 0)).barrier();
            assertEquals(
                    List.of(
                            "[2, 10, 0, null, null, null]",
                            "[null, null, null, null, 1, 0]",
                            "[null, null, null, null, 2, 0]"),
                    h.rows());
        }
    }

    @Test
    void extraConditionDecidesMatchesAndDegrees() {
        // left.v < right.w; unknown (NULL) is no match
        HashJoinNode node = node(JoinKind.LEFT, DataType.INTEGER, DataType.INTEGER, false, new LessThan(2, 5));
        try (OperatorHarness h = harness("store", node)) {
            h.insert(0, l(1, 10, 5)).insert(1, r(10, 1L, 3), r(10, 2L, null));
            assertEquals(List.of("+[1, 10, 5, null, null, null]"), h.takeEmitted());
            h.insert(1, r(10, 3L, 9));
            assertEquals(List.of("-[1, 10, 5, null, null, null]", "+[1, 10, 5, 10, 3, 9]"), h.takeEmitted());
            h.barrier().restore();
            // non-matching rows of the key must not count towards the degree
            h.delete(1, r(10, 1L, 3), r(10, 2L, null));
            assertEquals(List.of(), h.takeEmitted());
            h.delete(1, r(10, 3L, 9));
            assertEquals(List.of("-[1, 10, 5, 10, 3, 9]", "+[1, 10, 5, null, null, null]"), h.takeEmitted());
            h.insert(0, l(2, 10, null)).insert(1, r(10, 4L, 6)).barrier();
            assertEquals(List.of("[1, 10, 5, 10, 4, 6]", "[2, 10, null, null, null, null]"), h.rows());
        }
    }

    @Test
    void keysMatchBySqlEqualityNotByRepresentation() {
        HashJoinNode numericNode = node(JoinKind.INNER, DataType.NUMERIC, DataType.numeric(10, 2), false, null);
        try (OperatorHarness h = harness("numeric", numericNode)) {
            h.insert(0, l(1, new BigDecimal("1.0"), 0))
                    .insert(1, r(new BigDecimal("1.00"), 1L, 0))
                    .barrier();
            assertEquals(List.of("[1, 1.0, 0, 1.00, 1, 0]"), h.rows());
            h.restore().delete(1, r(new BigDecimal("1.00"), 1L, 0)).barrier();
            assertEquals(List.of(), h.rows());
        }
        HashJoinNode doubleNode = node(JoinKind.INNER, DataType.DOUBLE, DataType.DOUBLE, false, null);
        try (OperatorHarness h = harness("double", doubleNode)) {
            h.insert(0, l(1, -0.0, 0)).insert(1, r(0.0, 1L, 0)).barrier();
            assertEquals(List.of("[1, -0.0, 0, 0.0, 1, 0]"), h.rows());
        }
        HashJoinNode textNode = node(JoinKind.INNER, DataType.varchar(5), DataType.TEXT, false, null);
        try (OperatorHarness h = harness("text", textNode)) {
            h.insert(0, l(1, "ab", 0))
                    .insert(1, r("ab", 1L, 0), r("abc", 2L, 0))
                    .barrier();
            assertEquals(List.of("[1, ab, 0, ab, 1, 0]"), h.rows());
        }
    }

    @Test
    void refusesKeysOfDifferentEncodings() {
        HashJoinNode node = node(JoinKind.INNER, DataType.INTEGER, DataType.BIGINT, false, null);
        assertThrows(IllegalArgumentException.class, () -> new HashJoinOperator(node, TABLES, null));
    }

    @Test
    void restoreKeepsCommittedStateAndDropsTheRest() {
        try (OperatorHarness h = harness("store", node(JoinKind.FULL))) {
            h.insert(0, l(1, 10, 0)).insert(1, r(10, 1L, 0)).barrier();
            h.insert(0, l(2, 10, 0)).delete(1, r(10, 1L, 0)).insert(1, r(20, 2L, 0));
            h.restore();
            assertEquals(List.of("[1, 10, 0, 10, 1, 0]"), h.rows());
            h.takeEmitted();

            // the committed right row still has its one match: losing it re-pads the row
            h.delete(0, l(1, 10, 0));
            assertEquals(List.of("-[1, 10, 0, 10, 1, 0]", "+[null, null, null, 10, 1, 0]"), h.takeEmitted());
            h.insert(1, r(10, 2L, 0)).barrier().restore();
            assertEquals(List.of("[null, null, null, 10, 1, 0]", "[null, null, null, 10, 2, 0]"), h.rows());
            h.insert(0, l(3, 10, 0)).barrier();
            assertEquals(List.of("[3, 10, 0, 10, 1, 0]", "[3, 10, 0, 10, 2, 0]"), h.rows());
        }
    }

    /** Counts prefix scans reaching the committed store, i.e. cache misses. */
    private static final class CountingView implements ReadView {
        private final ReadView inner;
        int scans;

        CountingView(ReadView inner) {
            this.inner = inner;
        }

        @Override
        public byte[] get(Keyspace keyspace, byte[] key) {
            return inner.get(keyspace, key);
        }

        @Override
        public KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive) {
            scans++;
            return inner.scan(keyspace, from, toExclusive);
        }

        @Override
        public void close() {
            // the harness owns the wrapped view
        }
    }

    @Test
    void aProbeIsOneCacheHitOrOneScanAndTheCacheStaysBoundedAndCoherent() {
        CountingView[] view = new CountingView[1];
        HashJoinNode node = node(JoinKind.INNER);
        try (OperatorHarness h = new OperatorHarness(dir.resolve("store"), v -> {
            view[0] = new CountingView(v);
            return new HashJoinOperator(node, TABLES, view[0], 2, 0);
        })) {
            h.insert(0, l(1, 10, 0), l(2, 20, 0), l(3, 30, 0));
            assertEquals(3, view[0].scans);
            // the right cache holds 20 and 30 now; 10 was evicted
            h.insert(0, l(4, 30, 0), l(5, 20, 0));
            assertEquals(3, view[0].scans);
            h.insert(0, l(6, 10, 0));
            assertEquals(4, view[0].scans);

            // right rows with key 10 land in the cached right bucket; left 10 is loaded once
            h.insert(1, r(10, 1L, 0), r(10, 2L, 0));
            assertEquals(5, view[0].scans);
            h.takeEmitted();
            h.insert(0, l(7, 10, 0));
            assertEquals(5, view[0].scans);
            assertEquals(List.of("+[7, 10, 0, 10, 1, 0]", "+[7, 10, 0, 10, 2, 0]"), h.takeEmitted());
            h.delete(1, r(10, 1L, 0)).insert(0, l(8, 10, 0));
            assertEquals(5, view[0].scans);
            h.barrier();
            assertEquals(
                    List.of(
                            "[1, 10, 0, 10, 2, 0]",
                            "[6, 10, 0, 10, 2, 0]",
                            "[7, 10, 0, 10, 2, 0]",
                            "[8, 10, 0, 10, 2, 0]"),
                    h.rows());
        }
    }

    @Test
    void aSideStartingEmptyIsHeldAndProbesItWithoutScansUntilItOutgrowsItsBound() {
        CountingView[] view = new CountingView[1];
        HashJoinNode node = node(JoinKind.LEFT);
        try (OperatorHarness h = new OperatorHarness(dir.resolve("store"), v -> {
            view[0] = new CountingView(v);
            return new HashJoinOperator(node, TABLES, view[0], 2, 6);
        })) {
            // one scan per side finds its table empty; after that neither side reaches the store
            h.insert(0, l(1, 10, 0), l(2, 20, 0), l(3, 30, 0));
            h.insert(1, r(10, 1L, 0), r(20, 2L, 0), r(40, 3L, 0));
            h.delete(1, r(20, 2L, 0)).insert(0, l(4, 20, 0), l(5, 40, 0));
            assertEquals(2, view[0].scans);
            h.barrier();
            assertEquals(2, view[0].scans);
            assertEquals(
                    List.of(
                            "[1, 10, 0, 10, 1, 0]",
                            "[2, 20, 0, null, null, null]",
                            "[3, 30, 0, null, null, null]",
                            "[4, 20, 0, null, null, null]",
                            "[5, 40, 0, 40, 3, 0]"),
                    h.rows());

            // the left side passes 6 rows: it drops what it held, and a probe of it scans again
            h.insert(0, l(6, 50, 0), l(7, 50, 0));
            h.insert(1, r(50, 4L, 0));
            assertEquals(3, view[0].scans);
            h.barrier();
            assertTrue(h.rows().contains("[7, 50, 0, 50, 4, 0]"));

            // a side restored over stored rows is not held: probes of a key not cached scan again
            h.restore();
            int before = view[0].scans;
            h.insert(0, l(8, 10, 0));
            assertTrue(view[0].scans > before + 2, "a restored side probes the store");
            h.barrier();
            assertTrue(h.rows().contains("[8, 10, 0, 10, 1, 0]"));
        }
    }

    @Test
    void aHeldSideIsLetGoOnceTheOtherSideStopsBringingRows() {
        CountingView[] view = new CountingView[1];
        HashJoinNode node = node(JoinKind.INNER);
        int bound = (int) JoinSide.RELEASE_ROWS;
        try (OperatorHarness h = new OperatorHarness(dir.resolve("store"), v -> {
            view[0] = new CountingView(v);
            return new HashJoinOperator(node, TABLES, view[0]);
        })) {
            // before the right side brought any row, the left side stays held however many it takes
            h.insert(0, lefts(0, bound + 1));
            h.insert(1, r(5, 1L, 0));
            int scans = view[0].scans;
            // the bound itself after a right row: still held, a probe reaches no store
            h.insert(0, lefts(100_000, bound));
            h.insert(1, r(6, 2L, 0));
            assertEquals(scans, view[0].scans);
            assertEquals(List.of("+[5, 5, 0, 5, 1, 0]", "+[6, 6, 0, 6, 2, 0]"), h.takeEmitted());
            // one row more with none from the right: let go, so the next probe scans and still finds its rows
            h.insert(0, lefts(200_000, bound + 1));
            h.insert(1, r(7, 3L, 0), r(200_001, 4L, 0));
            assertEquals(scans + 2, view[0].scans);
            assertEquals(List.of("+[7, 7, 0, 7, 3, 0]", "+[200001, 200001, 0, 200001, 4, 0]"), h.takeEmitted());
            h.barrier();
            assertEquals(4, h.rows().size());
        }
    }

    /** {@code n} left rows with ids from {@code first} on, each its own join key. */
    private static Object[][] lefts(int first, int n) {
        Object[][] rows = new Object[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = l(first + i, first + i, 0);
        }
        return rows;
    }

    @ParameterizedTest
    @EnumSource(JoinKind.class)
    void randomChangesMatchABruteForceJoin(JoinKind kind) {
        for (long seed = 1; seed <= 18; seed++) {
            try {
                // held mode off (every probe a cache hit or a store scan), leaving it early, and on throughout
                int heldRows = new int[] {0, 4, HashJoinOperator.DEFAULT_HELD_ROWS}[(int) (seed % 3)];
                new RandomRun(kind, seed, heldRows, dir.resolve(kind + "-" + seed)).run();
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(kind + " join, seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Random changes on both sides, with barriers and restores, against a join recomputed from the
     * committed live rows. Left (id INTEGER, k1 INTEGER, k2 VARCHAR, v INTEGER), right (k2 TEXT,
     * w INTEGER, id BIGINT, k1 INTEGER), on k1 and, in some runs, k2; some keys null-safe, some runs
     * with {@code v < w}. Small key domains with NULLs make many-to-many matches and NULL keys common.
     */
    private static final class RandomRun {
        private final Random rnd;
        private final Path dir;
        private final JoinKind kind;
        private final int[] leftKeys;
        private final int[] rightKeys;
        private final boolean[] nullSafe;
        private final ScalarExpr condition;
        private final int cacheKeys;
        private final int heldRows;
        private Map<Object, Object[]> left = new LinkedHashMap<>();
        private Map<Object, Object[]> right = new LinkedHashMap<>();
        private Map<Object, Object[]> committedLeft = new LinkedHashMap<>();
        private Map<Object, Object[]> committedRight = new LinkedHashMap<>();
        private int nextId;

        RandomRun(JoinKind kind, long seed, int heldRows, Path dir) {
            this.rnd = new Random(seed);
            this.heldRows = heldRows;
            this.dir = dir;
            this.kind = kind;
            boolean twoKeys = rnd.nextBoolean();
            this.leftKeys = twoKeys ? new int[] {1, 2} : new int[] {1};
            this.rightKeys = twoKeys ? new int[] {3, 0} : new int[] {3};
            this.nullSafe = new boolean[leftKeys.length];
            for (int i = 0; i < nullSafe.length; i++) {
                nullSafe[i] = rnd.nextInt(3) == 0;
            }
            this.condition = rnd.nextBoolean() ? new LessThan(3, 5) : null;
            this.cacheKeys = new int[] {1, 2, 64}[rnd.nextInt(3)];
        }

        void run() {
            List<Field> lf = List.of(
                    new Field("id", DataType.INTEGER),
                    new Field("k1", DataType.INTEGER),
                    new Field("k2", DataType.VARCHAR),
                    new Field("v", DataType.INTEGER));
            List<Field> rf = List.of(
                    new Field("k2", DataType.TEXT),
                    new Field("w", DataType.INTEGER),
                    new Field("id", DataType.BIGINT),
                    new Field("k1", DataType.INTEGER));
            List<Field> out = new ArrayList<>(lf);
            out.addAll(rf);
            HashJoinNode node = new HashJoinNode(
                    new SourceNode(1, "l", lf, new int[] {0}),
                    new SourceNode(2, "r", rf, new int[] {2}),
                    kind,
                    leftKeys,
                    rightKeys,
                    nullSafe,
                    condition,
                    out,
                    new int[] {0, 6});
            try (OperatorHarness h =
                    new OperatorHarness(dir, v -> new HashJoinOperator(node, TABLES, v, cacheKeys, heldRows))) {
                for (int step = 0; step < 300; step++) {
                    int input = rnd.nextInt(2);
                    h.push(input, changes(input == 0 ? left : right, input == 0));
                    int roll = rnd.nextInt(100);
                    if (roll < 15) {
                        h.barrier();
                        committedLeft = new LinkedHashMap<>(left);
                        committedRight = new LinkedHashMap<>(right);
                        assertSameRows(h.result(), "after step " + step);
                    } else if (roll < 20) {
                        h.restore();
                        left = new LinkedHashMap<>(committedLeft);
                        right = new LinkedHashMap<>(committedRight);
                    }
                }
                h.barrier();
                committedLeft = left;
                committedRight = right;
                assertSameRows(h.result(), "at the end");
            }
        }

        /** Fails naming the rows missing from and the rows extra in {@code actual}, with their counts. */
        private void assertSameRows(Map<List<Object>, Integer> actual, String when) {
            Map<List<Object>, Integer> expected = expected();
            if (expected.equals(actual)) {
                return;
            }
            Map<List<Object>, Integer> missing = new HashMap<>(expected);
            actual.forEach((row, n) -> missing.merge(row, -n, Integer::sum));
            Map<List<Object>, Integer> extra = new HashMap<>();
            missing.forEach((row, n) -> {
                if (n < 0) {
                    extra.put(row, -n);
                }
            });
            missing.values().removeIf(n -> n <= 0);
            throw new AssertionError(when + ": missing " + missing + ", extra " + extra);
        }

        /** One chunk of 1..8 inserts, deletes and updates (delete then insert of one id) on one side. */
        private Chunk changes(Map<Object, Object[]> live, boolean isLeft) {
            List<Op> ops = new ArrayList<>();
            List<Object[]> rows = new ArrayList<>();
            int n = 1 + rnd.nextInt(8);
            for (int i = 0; i < n; i++) {
                int roll = rnd.nextInt(100);
                if (!live.isEmpty() && roll < 55) {
                    Object id = new ArrayList<>(live.keySet()).get(rnd.nextInt(live.size()));
                    ops.add(Op.DELETE);
                    rows.add(live.remove(id));
                    if (roll < 20) {
                        Object[] row = newRow(isLeft, id);
                        ops.add(Op.INSERT);
                        rows.add(row);
                        live.put(id, row);
                    }
                } else {
                    int id = nextId++;
                    Object[] row = newRow(isLeft, isLeft ? (Object) id : (Object) (long) id);
                    ops.add(Op.INSERT);
                    rows.add(row);
                    live.put(row[isLeft ? 0 : 2], row);
                }
            }
            return new Chunk(ops.toArray(new Op[0]), rows.toArray(new Object[0][]));
        }

        private Object[] newRow(boolean isLeft, Object id) {
            Integer k1 = rnd.nextInt(7) == 0 ? null : rnd.nextInt(3);
            String k2 = rnd.nextInt(7) == 0 ? null : rnd.nextBoolean() ? "a" : "b";
            Integer value = rnd.nextInt(8) == 0 ? null : rnd.nextInt(4);
            return isLeft ? new Object[] {id, k1, k2, value} : new Object[] {k2, value, id, k1};
        }

        /** PostgreSQL's join over the committed rows, as a multiset. */
        private Map<List<Object>, Integer> expected() {
            Map<List<Object>, Integer> result = new HashMap<>();
            Map<Object, Boolean> rightMatched = new HashMap<>();
            for (Object[] l : committedLeft.values()) {
                boolean matched = false;
                for (Object[] r : committedRight.values()) {
                    Object[] joined = new Object[8];
                    System.arraycopy(l, 0, joined, 0, 4);
                    System.arraycopy(r, 0, joined, 4, 4);
                    if (matches(l, r) && (condition == null || Boolean.TRUE.equals(condition.eval(joined)))) {
                        matched = true;
                        rightMatched.put(r[2], true);
                        result.merge(Arrays.asList(joined), 1, Integer::sum);
                    }
                }
                if (!matched && kind.padsLeft()) {
                    result.merge(Arrays.asList(Arrays.copyOf(l, 8)), 1, Integer::sum);
                }
            }
            if (kind.padsRight()) {
                for (Object[] r : committedRight.values()) {
                    if (!rightMatched.containsKey(r[2])) {
                        Object[] padded = new Object[8];
                        System.arraycopy(r, 0, padded, 4, 4);
                        result.merge(Arrays.asList(padded), 1, Integer::sum);
                    }
                }
            }
            return result;
        }

        private boolean matches(Object[] l, Object[] r) {
            for (int i = 0; i < leftKeys.length; i++) {
                Object a = l[leftKeys[i]];
                Object b = r[rightKeys[i]];
                boolean equal = a == null || b == null ? a == null && b == null && nullSafe[i] : a.equals(b);
                if (!equal) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * A LEFT join on a window bound (TIMESTAMP micros) cleaned by two watermarks: keys both
     * watermarks passed are forgotten at the barrier, so a (never really possible) later row of such
     * a key matches nothing and the padded row stays as it was emitted; other keys still join, also
     * after a restore that indexes the stored keys again and then forgets them.
     */
    @Test
    void cleaningForgetsKeysBothWatermarksPassedAndKeepsTheOthersAcrossRestores() {
        List<Field> lf = List.of(new Field("id", DataType.INTEGER), new Field("ws", DataType.TIMESTAMP));
        List<Field> rf = List.of(new Field("ws", DataType.TIMESTAMP), new Field("id", DataType.BIGINT));
        List<Field> out = new ArrayList<>(lf);
        out.addAll(rf);
        HashJoinNode node = new HashJoinNode(
                new SourceNode(1, "l", lf, new int[] {0}),
                new SourceNode(2, "r", rf, new int[] {1}),
                JoinKind.LEFT,
                new int[] {1},
                new int[] {0},
                new boolean[] {false},
                null,
                out,
                new int[] {0, 3, 1},
                new io.tributary.plan.JoinCleaning(0, 1, 0, 2, 10),
                null);
        long[] watermarks = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
        int[] vnodes = java.util.stream.IntStream.range(0, io.tributary.common.VirtualNodes.COUNT)
                .toArray();
        try (OperatorHarness h = new OperatorHarness(
                dir.resolve("cleaning"),
                view -> new HashJoinOperator(node, TABLES, view, id -> watermarks[id], vnodes))) {
            h.insert(0, new Object[] {1, 100L}, new Object[] {2, 200L}, new Object[] {3, 300L})
                    .insert(1, new Object[] {100L, 1L})
                    .barrier();
            watermarks[1] = 300;
            watermarks[2] = 205; // key 200 needs 210 on the right: only key 100 is finished
            h.barrier();
            h.insert(1, new Object[] {100L, 2L}, new Object[] {200L, 3L}).barrier();
            assertEquals(List.of("[1, 100, 100, 1]", "[2, 200, 200, 3]", "[3, 300, null, null]"), h.rows());

            watermarks[2] = 210;
            h.restore().barrier();
            h.insert(1, new Object[] {200L, 4L}, new Object[] {300L, 5L}).barrier();
            assertEquals(
                    List.of("[1, 100, 100, 1]", "[2, 200, 200, 3]", "[3, 300, 300, 5]"),
                    h.rows(),
                    "key 200 forgotten after the restore, key 300 still joins");
        }
    }

    /**
     * An interval join forgets rows by their own time, not their join key's: of one key's rows,
     * those the watermarks finished go and the others stay (the key indexed again under the least
     * remaining time), still joining; after a restore the kept ones are indexed again and forgotten
     * once the watermarks pass them. The condition is left out, so every row of a key joins.
     */
    @Test
    void intervalCleaningForgetsRowsByTheirTimeWithinAKeyAcrossRestores() {
        List<Field> lf = List.of(
                new Field("k", DataType.INTEGER),
                new Field("ts", DataType.TIMESTAMP),
                new Field("id", DataType.INTEGER));
        List<Field> rf = List.of(
                new Field("k", DataType.INTEGER),
                new Field("ts", DataType.TIMESTAMP),
                new Field("id", DataType.BIGINT));
        List<Field> out = new ArrayList<>(lf);
        out.addAll(rf);
        // left ts - right ts in [0, 10]: a left row waits for right times up to its own
        HashJoinNode node = new HashJoinNode(
                new SourceNode(1, "l", lf, new int[] {2}),
                new SourceNode(2, "r", rf, new int[] {2}),
                JoinKind.INNER,
                new int[] {0},
                new int[] {0},
                new boolean[] {false},
                null,
                out,
                new int[] {2, 5, 0},
                null,
                new io.tributary.plan.IntervalJoinCleaning(1, 1, 1, 1, 2, 1, 0, 10));
        long[] watermarks = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
        int[] vnodes = java.util.stream.IntStream.range(0, io.tributary.common.VirtualNodes.COUNT)
                .toArray();
        try (OperatorHarness h = new OperatorHarness(
                dir.resolve("interval"),
                view -> new HashJoinOperator(node, TABLES, view, id -> watermarks[id], vnodes))) {
            h.insert(0, new Object[] {1, 100L, 1}, new Object[] {1, 300L, 2})
                    .insert(1, new Object[] {1, 95L, 10L})
                    .barrier();
            watermarks[1] = 200;
            watermarks[2] = 200; // left up to 199 (row 100 goes, row 300 stays), right up to 189
            h.barrier();
            h.insert(1, new Object[] {1, 250L, 11L}).barrier();
            assertEquals(
                    List.of("[1, 100, 1, 1, 95, 10]", "[1, 300, 2, 1, 250, 11]", "[1, 300, 2, 1, 95, 10]"),
                    h.rows(),
                    "the right row at 250 meets only the left row kept");

            watermarks[1] = 400;
            watermarks[2] = 400;
            h.restore().barrier();
            h.insert(1, new Object[] {1, 500L, 12L}).barrier();
            assertEquals(3, h.rows().size(), "the left row at 300 forgotten after the restore");

            // a NULL time is never finished: the row stays, and forgetting around it works
            h.insert(0, new Object[] {1, null, 3}).barrier();
            watermarks[1] = 1000;
            watermarks[2] = 1000;
            h.barrier().insert(1, new Object[] {1, 2000L, 13L}).barrier();
            assertEquals(
                    List.of(
                            "[1, 100, 1, 1, 95, 10]",
                            "[1, 300, 2, 1, 250, 11]",
                            "[1, 300, 2, 1, 95, 10]",
                            "[1, null, 3, 1, 2000, 13]",
                            "[1, null, 3, 1, 500, 12]"),
                    h.rows());
        }
    }

    /**
     * A dimension join's actors share its left table, whose rows are stored by join key: restored
     * over rows all actors wrote, each actor's probe by a new right row joins only the left rows of
     * its own vnodes, so together they join each left row exactly once.
     */
    @Test
    void dimensionJoinActorsEachJoinOnlyTheirOwnStoredLeftRows() {
        // the right side keyed by its join key k, so each left row matches at most one right row
        HashJoinNode hash = node(JoinKind.INNER);
        HashJoinNode node = new HashJoinNode(
                hash.left(),
                new ExchangeNode(new SourceNode(2, "r", hash.right().fields(), new int[] {0}), Distribution.BROADCAST),
                JoinKind.INNER,
                hash.leftKeys(),
                hash.rightKeys(),
                hash.nullSafe(),
                null,
                hash.fields(),
                new int[] {0});
        assertTrue(node.broadcastsRight());
        int half = VirtualNodes.COUNT / 2;
        int[][] owned = {IntStream.range(0, VirtualNodes.COUNT).toArray()};
        try (OperatorHarness h = new OperatorHarness(
                dir.resolve("shared"),
                view -> new HashJoinOperator(node, TABLES, view, WatermarkReader.NONE, owned[0]))) {
            List<String> expected = new ArrayList<>();
            for (int id = 1; id <= 40; id++) {
                h.insert(0, l(id, 10, id));
                expected.add("+[" + id + ", 10, " + id + ", 10, 7, 70]");
            }
            h.barrier();
            List<String> joined = new ArrayList<>();
            for (int[] vnodes : new int[][] {
                IntStream.range(0, half).toArray(),
                IntStream.range(half, VirtualNodes.COUNT).toArray()
            }) {
                owned[0] = vnodes;
                h.restore();
                h.takeEmitted();
                h.insert(1, r(10, 7L, 70));
                List<String> mine = h.takeEmitted();
                assertTrue(!mine.isEmpty() && mine.size() < expected.size(), "each actor owns some rows: " + mine);
                joined.addAll(mine);
            }
            joined.sort(null);
            expected.sort(null);
            assertEquals(expected, joined);
        }
    }
}
