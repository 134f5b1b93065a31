package io.tributary.meta.epoch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.DelegatingStore;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarrierManagerTest {
    /** Long enough that only early barriers (awaitCommitted / flush / close) can commit within a test. */
    private static final long LONG_INTERVAL_MS = 10_000;

    @TempDir
    Path dir;

    private StateStore store;
    private BarrierManager barriers;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("state"));
    }

    @AfterEach
    void close() {
        if (barriers != null) {
            barriers.close();
        }
        store.close();
    }

    private BarrierManager start(StateStore s, long intervalMs) {
        barriers = new BarrierManager(s, intervalMs);
        barriers.start();
        return barriers;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String committed(String key) {
        try (ReadView v = store.snapshot()) {
            byte[] value = v.get(Keyspace.DATA, b(key));
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }
    }

    @Test
    void stagedChangesAreInvisibleUntilCommitted() throws Exception {
        start(store, LONG_INTERVAL_MS);
        long before = store.committedEpoch();
        long ticket = barriers.stage(wb -> wb.put(Keyspace.DATA, b("k"), b("v")));
        assertNull(committed("k"));
        assertEquals(before, store.committedEpoch());
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> barriers.awaitCommitted(ticket));
        assertEquals("v", committed("k"));
        assertTrue(store.committedEpoch() > before);
        assertEquals(store.committedEpoch(), barriers.committedEpoch());
    }

    @Test
    void awaitingAnOldTicketReturnsAtOnce() throws Exception {
        start(store, LONG_INTERVAL_MS);
        long t1 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        barriers.awaitCommitted(t1);
        long epoch = store.committedEpoch();
        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> barriers.awaitCommitted(t1));
        assertEquals(epoch, store.committedEpoch(), "no new epoch is needed for a committed ticket");
        long t2 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("b"), b("2")));
        assertTrue(t2 > t1, "tickets grow");
    }

    @Test
    void periodicBarrierCommitsWithoutWaiters() throws Exception {
        start(store, 50);
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("k"), b("v")));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (committed("k") == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals("v", committed("k"));
    }

    @Test
    void afterCommitHookRunsBeforeWaitersWake() throws Exception {
        start(store, LONG_INTERVAL_MS);
        AtomicBoolean ran = new AtomicBoolean();
        long ticket = barriers.stage(new EpochChange() {
            @Override
            public void stage(WriteBuffer wb) {
                wb.put(Keyspace.DATA, b("k"), b("v"));
            }

            @Override
            public void committed() {
                assertEquals("v", BarrierManagerTest.this.committed("k"), "the hook runs once the epoch is durable");
                ran.set(true);
            }
        });
        assertTrue(!ran.get());
        barriers.awaitCommitted(ticket);
        assertTrue(ran.get());
    }

    /** Stages {@code key}; once committed, adds the committed epoch to {@code epochs}. */
    private EpochChange recordingEpoch(String key, Set<Long> epochs) {
        return new EpochChange() {
            @Override
            public void stage(WriteBuffer wb) {
                wb.put(Keyspace.DATA, b(key), b("v"));
            }

            @Override
            public void committed() {
                epochs.add(store.committedEpoch());
            }
        };
    }

    /** Runs {@code threads} statements at once, each staging one key and awaiting it; returns their epochs. */
    private Set<Long> runConcurrentStatements(int threads) throws Exception {
        Set<Long> epochs = ConcurrentHashMap.newKeySet();
        CyclicBarrier go = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String key = "k" + i;
                futures.add(pool.submit(() -> {
                    go.await();
                    long ticket = barriers.stage(recordingEpoch(key, epochs));
                    barriers.awaitCommitted(ticket);
                    assertEquals("v", committed(key), "visible once awaitCommitted returns");
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(8, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < threads; i++) {
            assertEquals("v", committed("k" + i));
        }
        return epochs;
    }

    @Test
    void concurrentStatementsShareFewCommits() throws Exception {
        start(store, LONG_INTERVAL_MS);
        int threads = 50;
        long startNanos = System.nanoTime();
        Set<Long> epochs = runConcurrentStatements(threads);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        assertTrue(elapsedMs < 5_000, "50 waiters took " + elapsedMs + " ms with a 10 s barrier interval");
        // Commits are fast here, so groups depend on thread scheduling (typically 3-7 epochs); stay lenient.
        assertTrue(
                epochs.size() <= threads / 2,
                "group commit: " + threads + " statements used " + epochs.size() + " epochs");
    }

    @Test
    void statementsStagedBeforeABarrierShareOneCommit() throws Exception {
        // Deterministic group commit: all 50 stage first, then all wait; one barrier must take them all.
        start(store, LONG_INTERVAL_MS);
        int threads = 50;
        Set<Long> epochs = ConcurrentHashMap.newKeySet();
        CyclicBarrier allStaged = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String key = "s" + i;
                futures.add(pool.submit(() -> {
                    long ticket = barriers.stage(recordingEpoch(key, epochs));
                    allStaged.await();
                    barriers.awaitCommitted(ticket);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(8, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, epochs.size(), "statements staged before the barrier must share its commit");
    }

    @Test
    void failingStageLeavesNothingBehind() throws Exception {
        start(store, LONG_INTERVAL_MS);
        long t0 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("old"), b("o")));
        barriers.awaitCommitted(t0);
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("before"), b("1")));
        RuntimeException boom = new RuntimeException("boom");
        RuntimeException thrown = assertThrows(
                RuntimeException.class,
                () -> barriers.stage(new EpochChange() {
                    @Override
                    public void stage(WriteBuffer wb) {
                        wb.put(Keyspace.DATA, b("bad"), b("x"));
                        wb.put(Keyspace.DATA, b("before"), b("overwritten"));
                        wb.delete(Keyspace.DATA, b("old"));
                        throw boom;
                    }

                    @Override
                    public void committed() {
                        throw new AssertionError("the hook of a failed stage must not run");
                    }

                    @Override
                    public void failed() {
                        throw new AssertionError("the hook of a failed stage must not run");
                    }
                }));
        assertTrue(thrown == boom, "the lambda's exception propagates");
        long t2 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("after"), b("2")));
        barriers.awaitCommitted(t2);
        assertNull(committed("bad"));
        assertEquals("1", committed("before"));
        assertEquals("o", committed("old"));
        assertEquals("2", committed("after"));
    }

    @Test
    void failingStageRestoresWhatLaterStagesSee() throws Exception {
        start(store, LONG_INTERVAL_MS);
        barriers.awaitCommitted(barriers.stage(wb -> wb.put(Keyspace.DATA, b("committed"), b("c"))));
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("staged"), b("s")));
        assertThrows(
                IllegalStateException.class,
                () -> barriers.stage(wb -> {
                    wb.delete(Keyspace.DATA, b("committed"));
                    wb.delete(Keyspace.DATA, b("staged"));
                    wb.put(Keyspace.DATA, b("new"), b("n"));
                    // lookups inside the failing stage see its own writes
                    assertArrayEquals(
                            new boolean[] {false, false, true},
                            wb.existAll(Keyspace.DATA, List.of(b("committed"), b("staged"), b("new"))));
                    throw new IllegalStateException("boom");
                }));
        List<boolean[]> seen = new ArrayList<>();
        long ticket = barriers.stage(
                wb -> seen.add(wb.existAll(Keyspace.DATA, List.of(b("committed"), b("staged"), b("new")))));
        assertArrayEquals(
                new boolean[] {true, true, false},
                seen.get(0),
                "the next stage of the same epoch sees the state before the failed one");
        barriers.awaitCommitted(ticket);
        assertEquals("c", committed("committed"));
        assertEquals("s", committed("staged"));
        assertNull(committed("new"));
    }

    @Test
    void failingStageWithRangeDeleteLeavesNothingBehind() throws Exception {
        start(store, LONG_INTERVAL_MS);
        barriers.awaitCommitted(barriers.stage(wb -> wb.put(Keyspace.DATA, b("t/1"), b("row"))));
        assertThrows(
                IllegalStateException.class,
                () -> barriers.stage(wb -> {
                    wb.deleteRange(Keyspace.DATA, b("t/"), b("t0"));
                    throw new IllegalStateException("boom");
                }));
        barriers.flush();
        barriers.awaitCommitted(barriers.stage(wb -> wb.put(Keyspace.DATA, b("x"), b("y"))));
        assertEquals("row", committed("t/1"));
    }

    @Test
    void flushCommitsEverythingStaged() throws Exception {
        start(store, LONG_INTERVAL_MS);
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("b"), b("2")));
        assertTimeoutPreemptively(Duration.ofSeconds(5), barriers::flush);
        assertEquals("1", committed("a"));
        assertEquals("2", committed("b"));
    }

    @Test
    void closeCommitsWhatIsStagedAndRefusesNewStages() {
        start(store, LONG_INTERVAL_MS);
        barriers.stage(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        barriers.close();
        assertEquals("1", committed("a"));
        TributaryException e = assertThrows(
                TributaryException.class, () -> barriers.stage(wb -> wb.put(Keyspace.DATA, b("b"), b("2"))));
        assertEquals(SqlState.ADMIN_SHUTDOWN, e.sqlState());
        barriers = null;
    }

    @Test
    void failedCommitFailsItsWaitersOnly() throws Exception {
        AtomicInteger failNext = new AtomicInteger(1);
        StateStore flaky = new DelegatingStore(store) {
            @Override
            public void commit(long epoch, WriteBuffer buffer) {
                if (failNext.getAndDecrement() > 0) {
                    throw new TributaryException(SqlState.INTERNAL_ERROR, "disk on fire");
                }
                super.commit(epoch, buffer);
            }
        };
        start(flaky, LONG_INTERVAL_MS);
        long t1 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("lost"), b("1")));
        TributaryException e = assertThrows(TributaryException.class, () -> barriers.awaitCommitted(t1));
        assertEquals(SqlState.INTERNAL_ERROR, e.sqlState());
        assertTrue(e.getMessage().contains("disk on fire"), e.getMessage());
        // a late waiter of the failed ticket learns it too
        assertThrows(TributaryException.class, () -> barriers.awaitCommitted(t1));
        long t2 = barriers.stage(wb -> wb.put(Keyspace.DATA, b("kept"), b("2")));
        barriers.awaitCommitted(t2);
        assertNull(committed("lost"));
        assertNotNull(committed("kept"));
    }
}
