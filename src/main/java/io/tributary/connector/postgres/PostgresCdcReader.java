package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader of a {@code postgres-cdc} source's single split: first the initial snapshot in
 * primary-key order (phase {@code snapshotting}), then the slot's changes from the consistent point
 * on (phase {@code streaming}).
 *
 * <p>Streaming returns whole transactions, buffered until their Commit, so a checkpoint never
 * splits one; only a transaction larger than a whole batch ({@code maxRows}) is returned in parts,
 * and its position then counts the changes of it already returned. The position while streaming
 * is the end LSN of the last transaction returned in full; reopening starts replication there, and
 * transactions committed before it are skipped (PostgreSQL skips them too).
 *
 * <p>{@link #poll}, {@link #position} and {@link #close} run on the engine's thread for this split;
 * {@link #onCheckpointComplete} may run on any thread.
 */
final class PostgresCdcReader implements SplitReader {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresCdcReader.class);
    /** How long a slot may stay busy (an old walsender not gone yet) before the reader gives up. */
    private static final long SLOT_BUSY_LIMIT_MILLIS = 30_000;

    private static final long IDLE_SLEEP_MILLIS = 5;
    /** PostgreSQL timestamps count microseconds from 2000-01-01 UTC. */
    private static final long PG_EPOCH_MILLIS = 946_684_800_000L;

    private final PostgresCdcSource source;
    private final ChangeDecoder decoder;
    private final int chunkRows;
    private volatile CdcPosition position;
    private SnapshotReader snapshot;
    private volatile ReplicationChannel channel;
    private long slotBusySince = -1;
    /** The highest streaming LSN the engine reported durable; confirmed upstream as soon as possible. */
    private final AtomicLong durableLsn = new AtomicLong();

    /** The transaction being received, or null between transactions. */
    private Transaction receiving;
    /** A received transaction not yet returned in full, or null. */
    private Transaction pending;
    /** A failure met after a batch was filled, thrown by the next poll. */
    private ConnectorException failure;

    private volatile boolean caughtUp;
    private volatile long lastCommitMillis = -1;

    private static final class Transaction {
        final boolean skip;
        final long commitMillis;
        final List<SourceChange> changes = new ArrayList<>();
        long endLsn;
        int returned;

        Transaction(boolean skip, long commitMillis) {
            this.skip = skip;
            this.commitMillis = commitMillis;
        }
    }

    PostgresCdcReader(PostgresCdcSource source, ChangeDecoder decoder, int chunkRows, CdcPosition start) {
        this.source = source;
        this.decoder = decoder;
        this.chunkRows = chunkRows;
        this.position = start;
    }

    @Override
    public SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException {
        if (failure != null) {
            throw failure;
        }
        long deadline = System.currentTimeMillis() + maxWaitMillis;
        if (maxRows <= 0) {
            Thread.sleep(Math.max(0, maxWaitMillis));
            return SourceBatch.EMPTY;
        }
        try {
            if (position instanceof CdcPosition.Snapshot s) {
                List<SourceChange> rows = readSnapshot(s, maxRows);
                if (!rows.isEmpty()) {
                    return new SourceBatch(rows, List.of());
                }
            }
            return stream(deadline, maxRows);
        } catch (SQLException e) {
            throw ReplicationChannel.failed(source.options(), e);
        }
    }

    private List<SourceChange> readSnapshot(CdcPosition.Snapshot at, int maxRows) throws SQLException {
        if (snapshot == null) {
            snapshot = source.openSnapshot(at.lastKey());
        }
        int limit = Math.min(maxRows, chunkRows);
        List<SourceChange> rows = snapshot.next(limit);
        if (rows.size() < limit) {
            // a short chunk is the last: end the transaction now, as its locks hold off upstream DDL.
            // The snapshot is the slot's state at the consistent point: the stream goes on from there.
            snapshot.close();
            snapshot = null;
            position = new CdcPosition.Streaming(source.slotIdentity().consistentPoint(), 0);
        } else {
            position = new CdcPosition.Snapshot(snapshot.lastKey());
        }
        return rows;
    }

    private SourceBatch stream(long deadline, int maxRows) throws SQLException, InterruptedException {
        ReplicationChannel ch = channel;
        if (ch == null) {
            ch = startChannel();
            if (ch == null) {
                Thread.sleep(Math.max(0, deadline - System.currentTimeMillis()));
                return SourceBatch.EMPTY;
            }
        }
        List<SourceChange> out = new ArrayList<>();
        while (true) {
            if (pending != null) {
                if (!returnPending(out, maxRows)) {
                    break;
                }
                continue;
            }
            ByteBuffer message;
            try {
                message = ch.readPending();
            } catch (SQLException e) {
                // the server restarted, the network broke, or wal_sender_timeout passed while the
                // engine did not poll: what was returned is in the position, so start over from it
                LOG.warn(
                        "postgres-cdc: replication connection to {} broke ({}); resuming from {}",
                        source.options().where(),
                        e.getMessage(),
                        CdcPosition.describe(position));
                dropChannel();
                break;
            }
            if (message == null) {
                caughtUp = receiving == null;
                advanceWhileIdle(ch);
                long left = deadline - System.currentTimeMillis();
                if (!out.isEmpty() || left <= 0) {
                    break;
                }
                Thread.sleep(Math.min(IDLE_SLEEP_MILLIS, left));
                continue;
            }
            caughtUp = false;
            try {
                receive(PgOutputDecoder.decode(message));
            } catch (ConnectorException e) {
                if (out.isEmpty()) {
                    throw e;
                }
                // the changes before the failure are good and in the position: hand them out first
                failure = e;
                break;
            }
        }
        return out.isEmpty() ? SourceBatch.EMPTY : new SourceBatch(out, List.of());
    }

    /**
     * Moves the pending transaction's changes into {@code out} as far as they fit.
     *
     * @return whether to go on reading (the transaction was returned in full and there is room)
     */
    private boolean returnPending(List<SourceChange> out, int maxRows) {
        int room = maxRows - out.size();
        int left = pending.changes.size() - pending.returned;
        if (left <= room) {
            out.addAll(pending.changes.subList(pending.returned, pending.changes.size()));
            position = new CdcPosition.Streaming(pending.endLsn, 0);
            lastCommitMillis = pending.commitMillis;
            pending = null;
            return out.size() < maxRows;
        }
        if (out.isEmpty()) {
            // larger than a whole batch: return it in parts, counting the parts in the position
            out.addAll(pending.changes.subList(pending.returned, pending.returned + room));
            pending.returned += room;
            CdcPosition.Streaming at = (CdcPosition.Streaming) position;
            position = new CdcPosition.Streaming(at.lsn(), pending.returned);
        }
        return false;
    }

    private void receive(PgOutputMessage message) {
        CdcPosition.Streaming at = (CdcPosition.Streaming) position;
        if (message instanceof PgOutputMessage.Begin b) {
            receiving = new Transaction(b.finalLsn() < at.lsn(), PG_EPOCH_MILLIS + b.commitTime() / 1000);
        } else if (message instanceof PgOutputMessage.Relation r) {
            decoder.relation(r);
        } else if (message instanceof PgOutputMessage.Commit c) {
            Transaction t = receiving;
            receiving = null;
            if (t == null || t.skip) {
                return;
            }
            t.endLsn = c.endLsn();
            // after a reopen inside a split transaction, its first changes were returned before
            t.returned = Math.min(at.skip(), t.changes.size());
            pending = t;
        } else if (receiving != null && !receiving.skip) {
            decoder.decode(message, receiving.changes);
        }
    }

    /**
     * With no transaction open, nothing lies between the last one returned and the last LSN the
     * server reported, so the position may move there: confirming it later lets PostgreSQL recycle
     * WAL written for other tables while this one is idle.
     */
    private void advanceWhileIdle(ReplicationChannel ch) {
        CdcPosition.Streaming at = (CdcPosition.Streaming) position;
        if (receiving == null && pending == null && at.skip() == 0) {
            long received = ch.lastReceiveLsn();
            if (received > at.lsn()) {
                position = new CdcPosition.Streaming(received, 0);
            }
        }
    }

    private ReplicationChannel startChannel() throws SQLException {
        CdcPosition.Streaming at = (CdcPosition.Streaming) position;
        ReplicationChannel ch = ReplicationChannel.start(source.options(), source.slotIdentity(), at.lsn());
        if (ch == null) {
            long now = System.currentTimeMillis();
            if (slotBusySince < 0) {
                slotBusySince = now;
            } else if (now - slotBusySince > SLOT_BUSY_LIMIT_MILLIS) {
                throw new ConnectorException(
                        SqlState.OBJECT_IN_USE,
                        "postgres-cdc: replication slot \""
                                + source.slotIdentity().slot() + "\" at "
                                + source.options().where() + " is in use by another connection");
            }
            return null;
        }
        slotBusySince = -1;
        channel = ch;
        if (durableLsn.get() > 0) {
            ch.confirm(durableLsn.get());
        }
        return ch;
    }

    /** Forgets the channel and what it delivered beyond the position; the next poll starts a new one. */
    private void dropChannel() {
        ReplicationChannel ch = channel;
        channel = null;
        receiving = null;
        pending = null;
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public byte[] position() {
        return CdcPosition.encode(position);
    }

    @Override
    public String describe(byte[] position) {
        return CdcPosition.describe(CdcPosition.decode(position));
    }

    /** Confirms a streaming position's LSN upstream; snapshot positions have nothing to confirm. */
    @Override
    public void onCheckpointComplete(byte[] durable) {
        if (!(CdcPosition.decode(durable) instanceof CdcPosition.Streaming s)) {
            return;
        }
        long lsn = durableLsn.accumulateAndGet(s.lsn(), Math::max);
        ReplicationChannel ch = channel;
        if (ch != null) {
            try {
                ch.confirm(lsn);
            } catch (SQLException e) {
                // the next completion, or the next start of the channel, confirms it again
                LOG.warn(
                        "postgres-cdc: could not confirm LSN to {}: {}",
                        source.options().where(),
                        e.getMessage());
            }
        }
    }

    @Override
    public String phase() {
        return position instanceof CdcPosition.Snapshot ? "snapshotting" : "streaming";
    }

    @Override
    public long lagMillis() {
        if (position instanceof CdcPosition.Snapshot) {
            return -1;
        }
        if (caughtUp) {
            return 0;
        }
        long commit = lastCommitMillis;
        return commit < 0 ? -1 : Math.max(0, System.currentTimeMillis() - commit);
    }

    @Override
    public void close() {
        if (snapshot != null) {
            snapshot.close();
            snapshot = null;
        }
        dropChannel();
    }
}
