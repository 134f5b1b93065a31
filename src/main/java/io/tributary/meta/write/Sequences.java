package io.tributary.meta.write;

import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The durable sequences behind SERIAL and identity columns, one per (table, column). A value is
 * taken in memory ({@link #next}); the statement that used it stages {@link #persist} with its
 * rows, which writes the sequence's current value (at least every value taken so far) in the same
 * epoch. So whenever rows holding a value are committed, so is a sequence position past it, and
 * after a {@code kill -9} no value in a committed row is handed out again. Values taken by
 * statements that never committed may be skipped or, if nothing later committed, reused; as in
 * PostgreSQL, sequences have gaps. Thread-safe.
 */
public final class Sequences {
    private static final String PREFIX = "sequence/";

    private final StateStore store;
    private final ConcurrentHashMap<Long, AtomicLong> current = new ConcurrentHashMap<>();

    public Sequences(StateStore store) {
        this.store = store;
    }

    /**
     * The next value of the sequence of {@code column} of table {@code tableId}: 1, 2, ... Any
     * thread.
     *
     * @throws TributaryException 22003 past the largest bigint
     */
    public long next(int tableId, int column) {
        // a negative position -n is setval(s, n, false): n is handed out next
        long value = counter(tableId, column).updateAndGet(v -> v < 0 ? -v : v + 1);
        if (value == Long.MIN_VALUE) {
            throw new TributaryException(
                    io.tributary.common.SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "nextval: reached maximum value");
        }
        return value;
    }

    /**
     * The position of the sequence of {@code column} of table {@code tableId} (in this process or,
     * before it, as committed): the last value {@link #next} has handed out, 0 when none (1 is
     * next), or {@code -n} when {@code setval(s, n, false)} made n the next value. Any thread.
     */
    public long current(int tableId, int column) {
        return counter(tableId, column).get();
    }

    /**
     * Sets the position ({@code setval}): with {@code isCalled}, {@code value} is the last value
     * handed out and the next {@link #next} returns {@code value + 1}; without, the next returns
     * {@code value} itself ({@code value} is at least 1). The caller stages {@link #persist} and
     * awaits it. Any thread.
     */
    public void set(int tableId, int column, long value, boolean isCalled) {
        counter(tableId, column).set(isCalled ? value : value == 1 ? 0 : -value);
    }

    /**
     * A change to stage with the rows that used values of the sequence: it writes the sequence's
     * current position into the epoch.
     */
    public EpochChange persist(int tableId, int column) {
        return new SequencePosition(key(tableId, column), counter(tableId, column));
    }

    /**
     * A change that gives the sequence of column {@code toColumn} of table {@code toTable} the
     * position the sequence of {@code fromColumn} of {@code fromTable} has when it is staged, in
     * memory and in the epoch: a table rebuilt under a new id keeps its SERIAL positions, a column
     * that adopts a created sequence carries on from it.
     */
    public EpochChange moved(int fromTable, int fromColumn, int toTable, int toColumn) {
        return buffer -> {
            long position = counter(fromTable, fromColumn).get();
            AtomicLong to = counter(toTable, toColumn);
            to.set(position);
            new SequencePosition(key(toTable, toColumn), to).stage(buffer);
        };
    }

    /** A sequence's position as of staging, which is past every value taken before it. */
    private record SequencePosition(byte[] key, AtomicLong counter) implements EpochChange {
        @Override
        public void stage(WriteBuffer buffer) {
            buffer.put(
                    Keyspace.CATALOG,
                    key,
                    ByteBuffer.allocate(8).putLong(counter.get()).array());
        }
    }

    private AtomicLong counter(int tableId, int column) {
        return current.computeIfAbsent(((long) tableId << 32) | column, k -> new AtomicLong(stored(tableId, column)));
    }

    /** The committed position of a sequence this process has not used yet: the store has it all. */
    private long stored(int tableId, int column) {
        try (ReadView view = store.latest()) {
            byte[] value = view.get(Keyspace.CATALOG, key(tableId, column));
            return value == null ? 0 : ByteBuffer.wrap(value).getLong();
        }
    }

    private static byte[] key(int tableId, int column) {
        return (PREFIX + tableId + "/" + column).getBytes(StandardCharsets.UTF_8);
    }
}
