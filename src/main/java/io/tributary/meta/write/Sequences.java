package io.tributary.meta.write;

import io.tributary.catalog.SequenceOptions;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

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

    /**
     * Where a sequence stands: {@code last} is the last value handed out when {@code called}, else
     * the value handed out next.
     */
    private record Position(long last, boolean called) {}

    /** How the sequences of SERIAL and identity columns count: 1, 2, ... */
    private static final SequenceOptions COLUMN = SequenceOptions.defaults("bigint");

    private final StateStore store;
    private final ConcurrentHashMap<Long, AtomicReference<Position>> current = new ConcurrentHashMap<>();

    public Sequences(StateStore store) {
        this.store = store;
    }

    /**
     * The next value of the sequence of {@code column} of table {@code tableId}: 1, 2, ... Any
     * thread.
     *
     * @throws TributaryException 2200H past the largest bigint
     */
    public long next(int tableId, int column) {
        return next(tableId, column, COLUMN, null);
    }

    /**
     * The next value of the sequence kept under ({@code tableId}, {@code column}), counting as
     * {@code options} say; the position moves only when a value is handed out. Any thread.
     *
     * @param name the sequence's name for the error, or null
     * @throws TributaryException 2200H past a bound without CYCLE, as PostgreSQL
     */
    public long next(int tableId, int column, SequenceOptions options, String name) {
        AtomicReference<Position> position = counter(tableId, column, options.start());
        while (true) {
            Position p = position.get();
            long value = p.called() ? step(p.last(), options, name) : p.last();
            if (position.compareAndSet(p, new Position(value, true))) {
                return value;
            }
        }
    }

    /** The value after {@code last}, or the other bound with CYCLE. */
    private static long step(long last, SequenceOptions options, String name) {
        long increment = options.increment();
        boolean past;
        long next = 0;
        try {
            next = Math.addExact(last, increment);
            past = increment > 0 ? next > options.max() : next < options.min();
        } catch (ArithmeticException overflow) {
            past = true;
        }
        if (!past) {
            return next;
        }
        if (options.cycle()) {
            return increment > 0 ? options.min() : options.max();
        }
        String which = increment > 0 ? "maximum" : "minimum";
        throw new TributaryException(
                SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
                "nextval: reached " + which + " value of sequence"
                        + (name == null ? "" : " \"" + name + "\"")
                        + " (" + (increment > 0 ? options.max() : options.min()) + ")");
    }

    /**
     * The position of the sequence of {@code column} of table {@code tableId} (in this process or,
     * before it, as committed), for a sequence counting 1, 2, ...: the last value {@link #next} has
     * handed out, 0 when none (1 is next), or {@code -n} when {@code setval(s, n, false)} made n
     * the next value. Any thread.
     */
    public long current(int tableId, int column) {
        Position p = counter(tableId, column, 1).get();
        return p.called() ? p.last() : p.last() == 1 ? 0 : -p.last();
    }

    /**
     * Where the sequence kept under ({@code tableId}, {@code column}) stands ({@code start} is the
     * value it hands out first): its last value handed out and true, or the value it hands out
     * next and false (made, RESTARTed or {@code setval(s, n, false)} since). Any thread.
     */
    public <T> T position(int tableId, int column, long start, PositionView<T> view) {
        Position p = counter(tableId, column, start).get();
        return view.of(p.last(), p.called());
    }

    /** How a caller of {@link #position} wants a sequence's position. */
    @FunctionalInterface
    public interface PositionView<T> {
        /** The position: {@code value} handed out last when {@code called}, else handed out next. */
        T of(long value, boolean called);
    }

    /**
     * Sets the position ({@code setval}, {@code ALTER SEQUENCE ... RESTART}): with {@code
     * isCalled}, {@code value} is the last value handed out and the next {@link #next} returns the
     * one after it; without, the next returns {@code value} itself. The caller checks the bounds,
     * stages {@link #persist} and awaits it. Any thread.
     */
    public void set(int tableId, int column, long value, boolean isCalled) {
        counter(tableId, column, value).set(new Position(value, isCalled));
    }

    /**
     * A change to stage with the rows that used values of the sequence: it writes the sequence's
     * current position into the epoch.
     */
    public EpochChange persist(int tableId, int column) {
        return new SequencePosition(key(tableId, column), counter(tableId, column, 1));
    }

    /**
     * A change that gives the sequence of column {@code toColumn} of table {@code toTable} the
     * position the sequence of {@code fromColumn} of {@code fromTable} has when it is staged, in
     * memory and in the epoch: a table rebuilt under a new id keeps its SERIAL positions, a column
     * that adopts a created sequence carries on from it.
     */
    public EpochChange moved(int fromTable, int fromColumn, int toTable, int toColumn) {
        return buffer -> {
            Position position = counter(fromTable, fromColumn, 1).get();
            AtomicReference<Position> to = counter(toTable, toColumn, 1);
            to.set(position);
            new SequencePosition(key(toTable, toColumn), to).stage(buffer);
        };
    }

    /**
     * A sequence's position as of staging, which is past every value taken before it: eight bytes
     * of value and one of {@code called}.
     */
    private record SequencePosition(byte[] key, AtomicReference<Position> counter) implements EpochChange {
        @Override
        public void stage(WriteBuffer buffer) {
            Position p = counter.get();
            buffer.put(
                    Keyspace.CATALOG,
                    key,
                    ByteBuffer.allocate(9)
                            .putLong(p.last())
                            .put((byte) (p.called() ? 1 : 0))
                            .array());
        }
    }

    /** The position under the key, read from the store once; {@code start} is next when none is stored. */
    private AtomicReference<Position> counter(int tableId, int column, long start) {
        return current.computeIfAbsent(
                ((long) tableId << 32) | column, k -> new AtomicReference<>(stored(tableId, column, start)));
    }

    /** The committed position of a sequence this process has not used yet: the store has it all. */
    private Position stored(int tableId, int column, long start) {
        byte[] value;
        try (ReadView view = store.latest()) {
            value = view.get(Keyspace.CATALOG, key(tableId, column));
        }
        if (value == null) {
            return new Position(start, false);
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        long v = b.getLong();
        if (value.length > 8) {
            return new Position(v, b.get() != 0);
        }
        // eight bytes, as written before sequences took options: the last value handed out, 0 for
        // none, -n when n is next
        return v > 0 ? new Position(v, true) : new Position(v == 0 ? 1 : -v, false);
    }

    private static byte[] key(int tableId, int column) {
        return (PREFIX + tableId + "/" + column).getBytes(StandardCharsets.UTF_8);
    }
}
