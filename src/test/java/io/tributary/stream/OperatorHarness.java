package io.tributary.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.Epoch;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Drives one operator the way an actor does, over a real RocksDB store: chunks in, barriers
 * commit the operator's state writes atomically, {@link #restore()} rebuilds the operator from the
 * committed state only (dropping anything since the last barrier, as a crash would).
 *
 * <p>Everything the operator ever emitted is folded into {@link #result()}, a multiset that must
 * equal the operator's query over its inputs; folding checks the output stays consistent (never
 * deletes a row that is not there). Output since the last barrier is discarded by a restore, as
 * downstream state would be.
 *
 * <p>{@link #verify} runs one input scenario several ways ({@link Schedule}) and checks that
 * every way ends with the same output, as Hazelcast Jet's {@code TestSupport} does: an operator
 * whose result depends on where the barriers fall, or that loses or doubles anything when rebuilt
 * from its committed state, fails there.
 */
public final class OperatorHarness implements AutoCloseable {
    private final StateStore store;
    private final ReadView latest;
    private final Function<ReadView, Operator> factory;
    private Operator operator;
    private final Map<List<Object>, Integer> committedResult = new HashMap<>();
    private final List<Object[]> epochOutput = new ArrayList<>();
    private final List<Op> epochOps = new ArrayList<>();
    private final List<String> lastEmitted = new ArrayList<>();

    /** @param factory builds the operator over a view of the latest committed state; called again by {@link #restore()} */
    public OperatorHarness(Path dir, Function<ReadView, Operator> factory) {
        // a sub-directory: the store keeps its ingest and pins directories beside it, inside the @TempDir
        this.store = RocksStateStore.open(dir.resolve("state"));
        this.latest = store.latest();
        this.factory = factory;
        this.operator = factory.apply(latest);
    }

    private final Output output = (op, row) -> {
        epochOps.add(op);
        epochOutput.add(row);
        lastEmitted.add((op == Op.INSERT ? "+" : "-") + Arrays.toString(row));
    };

    public OperatorHarness push(int input, Chunk chunk) {
        operator.onChunk(input, chunk, output);
        return this;
    }

    public OperatorHarness insert(int input, Object[]... rows) {
        return push(input, Chunk.of(Op.INSERT, rows));
    }

    public OperatorHarness delete(int input, Object[]... rows) {
        return push(input, Chunk.of(Op.DELETE, rows));
    }

    /** Passes a barrier and commits the operator's state writes and its output as one epoch. */
    public OperatorHarness barrier() {
        long epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            operator.onBarrier(new Barrier(epoch), output, new StateWrites() {
                @Override
                public void put(byte[] key, byte[] value) {
                    buffer.put(Keyspace.DATA, key, value);
                }

                @Override
                public void delete(byte[] key) {
                    buffer.delete(Keyspace.DATA, key);
                }
            });
            store.commit(epoch, buffer);
        }
        for (int i = 0; i < epochOutput.size(); i++) {
            fold(committedResult, epochOps.get(i), epochOutput.get(i));
        }
        epochOps.clear();
        epochOutput.clear();
        return this;
    }

    /**
     * Passes a backfill checkpoint's barrier and writes what the operator hands over as the job's
     * coordinator does: the files it handed over first, then its state writes, in one atomic write
     * ({@code StateStore.write(buffer, files)}). Output is committed as with {@link #barrier()}.
     */
    public OperatorHarness checkpoint() {
        io.tributary.stream.runtime.EpochWrites writes = new io.tributary.stream.runtime.EpochWrites(16, true);
        operator.onBarrier(new Barrier(++checkpoints, NO_WAIT), output, writes);
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            writes.replay(new io.tributary.stream.runtime.DataWrites(buffer));
            store.write(buffer, writes.files());
        } finally {
            writes.files().forEach(io.tributary.storage.SortedFile::close);
        }
        for (int i = 0; i < epochOutput.size(); i++) {
            fold(committedResult, epochOps.get(i), epochOutput.get(i));
        }
        epochOps.clear();
        epochOutput.clear();
        return this;
    }

    /** A checkpoint nobody waits for: the harness writes it before the operator sees another chunk. */
    private static final Barrier.Checkpoint NO_WAIT = new Barrier.Checkpoint() {
        @Override
        public void passed(StateWrites writes) {}

        @Override
        public void awaitDurable() {}
    };

    private long checkpoints;

    /** What the operator holds for its next barrier ({@link Operator#heldChanges}). */
    public long heldChanges() {
        return operator.heldChanges();
    }

    /** Drops the operator and everything since the last barrier, and rebuilds it from the committed state. */
    public OperatorHarness restore() {
        epochOps.clear();
        epochOutput.clear();
        // as the actor of a stopped job does, then a restarted one
        operator.close();
        operator = factory.apply(latest);
        return this;
    }

    /** The committed output as a multiset (row as a list -> multiplicity); call after {@link #barrier()}. */
    public Map<List<Object>, Integer> result() {
        return new HashMap<>(committedResult);
    }

    /** The committed output as sorted strings, one per row occurrence, for readable assertions. */
    public List<String> rows() {
        TreeMap<String, Integer> sorted = new TreeMap<>();
        committedResult.forEach((k, v) -> sorted.merge(k.toString(), v, Integer::sum));
        List<String> out = new ArrayList<>();
        sorted.forEach((k, v) -> {
            for (int i = 0; i < v; i++) {
                out.add(k);
            }
        });
        return out;
    }

    /** Changes emitted since the last call, as {@code +[..]}/{@code -[..]} strings in order. */
    public List<String> takeEmitted() {
        List<String> out = new ArrayList<>(lastEmitted);
        lastEmitted.clear();
        return out;
    }

    public StateStore store() {
        return store;
    }

    private static void fold(Map<List<Object>, Integer> result, Op op, Object[] row) {
        List<Object> key = Arrays.asList(row.clone());
        int n = result.getOrDefault(key, 0) + op.sign();
        if (n < 0) {
            throw new AssertionError("operator deleted a row it never emitted: " + key);
        }
        if (n == 0) {
            result.remove(key);
        } else {
            result.put(key, n);
        }
    }

    @Override
    public void close() {
        latest.close();
        store.close();
    }

    /**
     * Starts a scenario for the operator {@code factory} builds; each run of it gets a fresh store
     * in a new directory under {@code dir}, which is created when missing.
     */
    public static Scenario verify(Path dir, Function<ReadView, Operator> factory) {
        return new Scenario(dir, factory);
    }

    /** Where a {@link Scenario}'s runs put barriers and restores. */
    public enum Schedule {
        /** Every chunk, then one barrier. */
        ALL_THEN_ONE_BARRIER,
        /** A barrier after every chunk. */
        BARRIER_AFTER_EACH_CHUNK,
        /** A barrier after every chunk, then a restore: the next chunk meets an operator rebuilt from committed state. */
        RESTORE_AFTER_EACH_CHUNK
    }

    /**
     * Input chunks, collected in order, and the output they must lead to. {@link #expectRows} runs
     * the chunks once per {@link Schedule}, each in its own store, and asserts each run's
     * committed output.
     */
    public static final class Scenario {
        private final Path dir;
        private final Function<ReadView, Operator> factory;
        private final List<Integer> inputs = new ArrayList<>();
        private final List<Chunk> chunks = new ArrayList<>();

        private Scenario(Path dir, Function<ReadView, Operator> factory) {
            this.dir = dir;
            this.factory = factory;
        }

        public Scenario push(int input, Chunk chunk) {
            inputs.add(input);
            chunks.add(chunk);
            return this;
        }

        public Scenario insert(int input, Object[]... rows) {
            return push(input, Chunk.of(Op.INSERT, rows));
        }

        public Scenario delete(int input, Object[]... rows) {
            return push(input, Chunk.of(Op.DELETE, rows));
        }

        /**
         * Asserts that under every schedule the committed output, as {@link #rows()} shows it, is
         * {@code expected}.
         */
        public void expectRows(List<String> expected) {
            for (Schedule schedule : Schedule.values()) {
                List<String> actual;
                try (OperatorHarness h = new OperatorHarness(newDirectory(schedule), factory)) {
                    run(h, schedule);
                    actual = h.rows();
                } catch (RuntimeException | AssertionError e) {
                    throw new AssertionError("under " + schedule + ": " + e.getMessage(), e);
                }
                assertEquals(expected, actual, "committed output under " + schedule);
            }
        }

        private void run(OperatorHarness h, Schedule schedule) {
            for (int i = 0; i < chunks.size(); i++) {
                h.push(inputs.get(i), chunks.get(i));
                if (schedule != Schedule.ALL_THEN_ONE_BARRIER) {
                    h.barrier();
                }
                if (schedule == Schedule.RESTORE_AFTER_EACH_CHUNK) {
                    h.restore();
                }
            }
            h.barrier();
        }

        private Path newDirectory(Schedule schedule) {
            try {
                return Files.createTempDirectory(Files.createDirectories(dir), schedule.name());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
