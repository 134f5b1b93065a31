package io.tributary.meta.ingest;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.write.TableWriter;
import io.tributary.storage.WriteBuffer;

/**
 * Reads one split on its own thread and applies what it reads to the table, through the same
 * {@link TableWriter} path as DML so views over the table see every change.
 *
 * <p>Each non-empty batch is one {@link io.tributary.meta.epoch.BarrierManager#stage}: the rows and the split's position
 * right after them go into the same epoch write, so after a crash the table and the position
 * agree. The reader is asked for its position once per staged batch (never per row). Once the
 * epoch is durable the commit hook records the position, and this thread hands it to
 * {@link SplitReader#onCheckpointComplete} at its next turn (so a slow acknowledgement upstream
 * never holds the barrier lock). To bound the open epoch's memory, a split that has staged
 * {@link #MAX_UNCOMMITTED_CHANGES} changes since its last wait commits the epoch early.
 */
final class SplitRunner implements Runnable {
    /** The most changes taken in one poll, and so in one staged batch. */
    static final int MAX_BATCH_CHANGES = 4096;
    /** How long a poll or a rate-limited wait blocks before the thread checks for stop and commits. */
    static final long POLL_WAIT_MILLIS = 100;

    private static final long MAX_UNCOMMITTED_CHANGES = 200_000;
    private static final String FINISHED = "finished";

    private final RunningSource owner;
    private final SourceEngine engine;
    private final TableDef table;
    private final String split;
    private final byte[] positionKey;
    private final int[] visibleColumns;
    private final boolean keyed;
    /** Where a source relation's batches go instead of a table writer; null for a table. */
    private final SourceStream stream;

    private volatile boolean stopping;

    /**
     * The last durable state with its position as text, replaced as a whole by the commit hook, so a
     * progress reader sees a position and counts of the same committed epoch. Read by this thread and
     * by progress readers.
     */
    private volatile Durable committed;
    /** The state of the last staged batch; this thread only. */
    private SourcePositions.Committed staged;
    /** The last durable state handed to the reader; this thread only. */
    private SourcePositions.Committed acknowledged;

    private volatile String phase = "starting";
    private volatile long lagMillis = -1;
    private volatile String lastError;
    /**
     * An epoch holding this split's rows failed to commit: set by the failure hook under the barrier
     * lock, so no later batch can be staged after the lost ones; the thread then reopens the reader
     * at the last durable position.
     */
    private volatile boolean epochLost;

    /**
     * A committed state and its {@link SplitReader#describe description}, which is made on the split's
     * thread when the batch is staged (the reader is not thread-safe, and the commit hook runs on the
     * barrier thread). {@code positionText} is empty before the first position is known;
     * {@code finished} says the reader had read everything once this state was staged.
     */
    private record Durable(SourcePositions.Committed state, String positionText, boolean finished) {}

    /** Refuses a batch staged after a lost epoch (thrown under the barrier lock, so nothing of it is staged). */
    private static final class EpochLost extends RuntimeException {
        EpochLost() {
            super(null, null, false, false);
        }
    }

    SplitRunner(
            RunningSource owner,
            SourceEngine engine,
            TableDef table,
            String split,
            byte[] positionKey,
            SourcePositions.Committed start) {
        this.owner = owner;
        this.engine = engine;
        this.table = table;
        this.split = split;
        this.positionKey = positionKey;
        this.committed = new Durable(start, "", false);
        this.staged = start;
        this.acknowledged = start;
        this.visibleColumns = java.util.stream.IntStream.range(
                        0, table.columns().size())
                .filter(i -> !table.columns().get(i).hidden()
                        && !table.columns().get(i).proctime())
                .toArray();
        this.keyed = !table.hasRowId();
        this.stream = table.isSource() ? new SourceStream(engine, table) : null;
    }

    String split() {
        return split;
    }

    /** Asks the thread to stop after its current step; any thread. */
    void stop() {
        stopping = true;
    }

    /** A consistent view of the split for {@code source_progress}; any thread. */
    SourceManager.SplitProgress progress(long rateLimit, String sourceError) {
        Durable d = committed;
        SourcePositions.Committed c = d.state();
        String live = phase;
        // a reader that has read everything is finished only once what it read is committed
        String readerPhase = FINISHED.equals(live) && !d.finished() ? "streaming" : live;
        String shownPhase = sourceError != null ? "failed" : rateLimit == 0 ? "paused" : readerPhase;
        return new SourceManager.SplitProgress(
                table.name(),
                table.source().connector(),
                split,
                d.positionText(),
                c.rows(),
                shownPhase,
                lagMillis,
                rateLimit,
                lastError != null ? lastError : sourceError,
                c.skipped());
    }

    @Override
    public void run() {
        SplitReader reader = null;
        try {
            Durable start = committed;
            reader = owner.source().reader(split, start.state().position());
            if (start.state().position() != null) {
                committed = new Durable(
                        start.state(), reader.describe(start.state().position()), FINISHED.equals(reader.phase()));
            }
            long uncommitted = 0;
            while (!stopping) {
                acknowledge(reader);
                phase = reader.phase();
                lagMillis = reader.lagMillis();
                int allowance = owner.limiter().acquire(MAX_BATCH_CHANGES, POLL_WAIT_MILLIS);
                if (allowance == 0) {
                    continue;
                }
                SourceBatch batch = reader.poll(POLL_WAIT_MILLIS, allowance);
                owner.limiter().giveBack(allowance - batch.changes().size());
                if (batch.isEmpty()) {
                    continue;
                }
                long ticket;
                try {
                    ticket = stage(reader, batch);
                } catch (EpochLost lost) {
                    SplitReader stale = reader;
                    reader = null;
                    stale.close();
                    reader = reopen();
                    uncommitted = 0;
                    continue;
                }
                uncommitted += batch.changes().size();
                if (uncommitted >= MAX_UNCOMMITTED_CHANGES) {
                    try {
                        engine.barriers().awaitCommitted(ticket);
                    } catch (TributaryException e) {
                        if (!epochLost) {
                            throw e;
                        }
                        // the failed epoch's hook ran before this wait ended: the next batch reopens the reader
                    }
                    uncommitted = 0;
                }
            }
        } catch (InterruptedException e) {
            // stop() interrupts a thread that does not stop in time; the staged batches still commit
        } catch (TributaryException e) {
            if (SqlState.UNDEFINED_TABLE.equals(e.sqlState())
                    && engine.catalog()
                            .table(table.name())
                            .map(t -> t.id() != table.id())
                            .orElse(true)) {
                return; // the table was dropped: its source is being released
            }
            failed(e);
        } catch (RuntimeException | Error e) {
            failed(e);
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (RuntimeException e) {
                    owner.log().warn("closing reader of split {} of table {} failed", split, table.name(), e);
                }
            }
            owner.exited(this);
        }
    }

    private void failed(Throwable e) {
        if (stopping) {
            return;
        }
        String message =
                e instanceof ConnectorException || e instanceof TributaryException ? e.getMessage() : e.toString();
        lastError = message;
        owner.fail(split, message, e);
    }

    /**
     * After a failed commit: reads again from the last durable position, so the rows of the lost
     * epoch come again and nothing after them was committed without them.
     */
    private SplitReader reopen() {
        SourcePositions.Committed durable = committed.state();
        staged = durable;
        epochLost = false;
        SplitReader reader = owner.source().reader(split, durable.position());
        owner.log()
                .warn(
                        "an epoch with rows of split {} of table {} failed to commit; reading again from {}",
                        split,
                        table.name(),
                        durable.position() == null ? "the start" : reader.describe(durable.position()));
        return reader;
    }

    /** Hands the last durable position to the reader once. */
    private void acknowledge(SplitReader reader) {
        SourcePositions.Committed c = committed.state();
        if (c != acknowledged && c.position() != null) {
            acknowledged = c;
            reader.onCheckpointComplete(c.position());
        }
    }

    /**
     * Stages the batch's changes and the position after them in one epoch write.
     *
     * @return the ticket of that epoch
     */
    private long stage(SplitReader reader, SourceBatch batch) {
        if (stream != null) {
            return stageStreamed(reader, batch);
        }
        TableWriter writer = engine.newTableWriter(table);
        for (SourceChange change : batch.changes()) {
            Object[] row = widen(change.row());
            switch (change.kind()) {
                case INSERT, UPDATE -> {
                    if (keyed) {
                        writer.replace(row); // an upsert: a change read again after a restart does no harm
                    } else {
                        writer.insert(row);
                    }
                }
                case DELETE -> {
                    if (!keyed) {
                        throw new TributaryException(
                                SqlState.FEATURE_NOT_SUPPORTED,
                                "split " + split
                                        + " sent a DELETE, but table " + table.name()
                                        + " has no primary key to delete by; declare one");
                    }
                    writer.delete(row);
                }
            }
        }
        long ticket = writer.apply(position(reader, batch));
        owner.skipped(split, batch.skipped());
        return ticket;
    }

    /**
     * {@link #stage} for a source relation: the rows (inserts only: a source has no key to apply
     * updates or deletes by) go to the views reading it through {@link #stream}, with the position.
     */
    private long stageStreamed(SplitReader reader, SourceBatch batch) {
        Object[][] rows = new Object[batch.changes().size()][];
        int rowId = table.primaryKey()[0];
        for (int i = 0; i < rows.length; i++) {
            SourceChange change = batch.changes().get(i);
            if (change.kind() != SourceChange.Kind.INSERT) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "split " + split + " sent an " + change.kind() + ", but source " + table.name()
                                + " only passes inserts on; read this connector into a table with a primary key");
            }
            Object[] row = widen(change.row());
            row[rowId] = engine.rowIds().next();
            rows[i] = row;
        }
        long ticket = stream.stage(rows, position(reader, batch));
        owner.skipped(split, batch.skipped());
        return ticket;
    }

    /** The position and counts after {@code batch}, remembered as the last staged state. */
    private BatchPosition position(SplitReader reader, SourceBatch batch) {
        SourcePositions.Committed next = new SourcePositions.Committed(
                reader.position(),
                staged.rows() + batch.changes().size(),
                staged.skipped() + batch.skipped().size());
        BatchPosition position =
                new BatchPosition(new Durable(next, reader.describe(next.position()), FINISHED.equals(reader.phase())));
        staged = next;
        return position;
    }

    /**
     * The split's position and counts after a batch, staged with the batch's rows: it refuses the
     * batch if an earlier epoch of this split was lost (so nothing is committed past a gap), and
     * publishes itself as the split's durable state once committed.
     */
    private final class BatchPosition implements EpochChange {
        private final Durable after;

        BatchPosition(Durable after) {
            this.after = after;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (epochLost) {
                throw new EpochLost();
            }
            SourcePositions.stage(buffer, positionKey, after.state());
        }

        @Override
        public void committed() {
            committed = after;
        }

        @Override
        public void failed() {
            epochLost = true;
        }
    }

    /** The reader's row (visible columns) at full table width; the hidden row id is filled in by the writer. */
    private Object[] widen(Object[] values) {
        if (values.length != visibleColumns.length) {
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR,
                    "split " + split + " returned a row of "
                            + values.length + " values for the " + visibleColumns.length + " columns of table "
                            + table.name());
        }
        if (visibleColumns.length == table.columns().size()) {
            return values; // the batch is ours: readers hand over their rows
        }
        Object[] row = new Object[table.columns().size()];
        for (int i = 0; i < visibleColumns.length; i++) {
            row[visibleColumns[i]] = values[i];
        }
        return row;
    }
}
