package io.tributary.stream.backfill;

import io.tributary.storage.ReadView;
import io.tributary.stream.ChangeStream;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.RowStream;
import io.tributary.stream.StateWrites;
import io.tributary.stream.StoredLayout;
import io.tributary.stream.UpstreamTable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The snapshot backfill of one source of a view being created, in one actor, over the vnodes the
 * actor owns (docs/ARCHITECTURE.md, Backfill). Each vnode moves through consuming the upstream's snapshot, then its
 * change log epoch by epoch; when the job joins the upstream's live flow ({@link #joinLive}) the
 * remaining log is read and the source passes live changes from then on.
 *
 * <p>It is an explicit state machine ({@link VnodeProgress} per vnode) because at every barrier
 * the position of every vnode is written to the job's progress table in the same atomic write as
 * the view's state; after a restart, or when vnodes move to other actors, it resumes from there.
 * Used by its actor's thread only, except the {@code volatile} status read by the job's
 * coordinator and by progress queries.
 */
public final class BackfillInput implements AutoCloseable {
    private static final int STEP_ROWS = Chunk.TARGET_SIZE;

    /**
     * The most change-log rows an input may have read in the last checkpoint interval and still
     * count as caught up without having been idle at the barrier. Joining the live flow reads the
     * log's remainder inside the joining epoch, unthrottled, so this bounds the work that epoch
     * does for the job; the remainder is what committed since each vnode last reached the head,
     * which at a steady write rate is about one interval's worth, the same as what was read.
     */
    static final long JOIN_LOG_ROWS = 16_384;

    private final UpstreamTable upstream;
    private final int sourceOrdinal;
    private final int progressTableId;
    private final List<VnodeProgress> vnodes;
    private final BackfillRate.Bucket bucket;
    private final BackfillRate rate;
    private final int node;
    /** Held while a following input reads (see {@link #step}); null when nothing gates it. */
    private final java.util.concurrent.locks.Lock gate;
    /** An upstream that does not join: after the job joined the live flow, it reads on under the gate. */
    private boolean following;
    /**
     * How the upstream stores its rows, when its snapshot's stored bytes can travel with the rows
     * ({@link Chunk#ofStored}); null when they cannot.
     */
    private final StoredLayout storedLayout;
    /** The change chunks are collected in; reused, as its lists keep their capacity. */
    private final Chunk.Builder changes = new Chunk.Builder();

    private int cursor;
    private RowStream snapshotStream;
    private ChangeStream logStream;
    /** A full pass over the vnodes found nothing to read: every vnode has consumed every committed epoch. */
    private boolean idle;
    /** The epoch {@link #nextAnswer} answers for; actor thread only. */
    private long askedEpoch = -1;

    private OptionalLong nextAnswer = OptionalLong.empty();
    /** The epoch {@link #changedVnodes} describes (-1: none yet); actor thread only. */
    private long changedEpoch = -1;
    /** The vnodes epoch {@link #changedEpoch} changed, or null when the upstream cannot tell. */
    private java.util.BitSet changedVnodes;
    /** Change-log rows read since the last barrier; actor thread only. */
    private long logRowsSinceBarrier;

    private boolean live;
    /**
     * Inputs of the same job whose snapshots this one waits for before reading its own (see {@link
     * #readAfter}); emptied once they are read. Actor thread only.
     */
    private List<BackfillInput> after = List.of();
    /**
     * Every owned vnode has read its snapshot: written by this input's actor thread, read by the
     * actors of inputs that wait for it ({@link #readAfter}).
     */
    private volatile boolean snapshotRead;

    private volatile Status status;
    /**
     * Rows read so far, those since the last barrier included: what {@link Status#rows} will say
     * at the next one. Written by the actor thread once per chunk, read by any thread for the
     * progress users see between checkpoints; a crash goes back to the last checkpoint's figure.
     */
    private volatile long rowsRead;
    /** Every vnode has read its snapshot and every committed epoch, as of the last step. */
    private volatile boolean caughtUpNow;

    /** What the backfill had done at its last barrier. */
    record Status(
            long rows, long logRows, long consumedThrough, boolean caughtUp, List<BackfillProgress.Vnode> vnodes) {}

    /**
     * @param sourceOrdinal which source of the view's plan this is (a view may read a relation twice)
     * @param keyColumns the upstream's key columns in its rows (the source's stream key)
     * @param columnsRead per column of the upstream's rows, whether the job reads it
     *     ({@code plan.ColumnsRead}): snapshot rows decode only those; null: all
     * @param owned the vnodes of the upstream this actor backfills
     * @param committed the job's committed state, to load the progress of the owned vnodes from
     * @param node the actor tree node the rows enter at
     * @param gate the database's staging lock, for an input that follows another database's log
     *     once its job is live (null: none)
     */
    public BackfillInput(
            UpstreamTable upstream,
            int[] keyColumns,
            boolean[] columnsRead,
            int sourceOrdinal,
            int progressTableId,
            int[] owned,
            ReadView committed,
            BackfillRate rate,
            int node,
            java.util.concurrent.locks.Lock gate) {
        this.gate = gate;
        this.upstream = upstream;
        this.sourceOrdinal = sourceOrdinal;
        this.progressTableId = progressTableId;
        this.bucket = rate.new Bucket();
        this.rate = rate;
        this.node = node;
        List<io.tributary.common.types.DataType> storedTypes = upstream.storedTypes();
        this.storedLayout = storedTypes == null ? null : new StoredLayout(keyColumns, storedTypes, columnsRead);
        this.vnodes = new ArrayList<>(owned.length);
        for (int v : owned) {
            byte[] stored = committed.get(
                    io.tributary.storage.Keyspace.DATA, VnodeProgress.key(progressTableId, v, sourceOrdinal));
            vnodes.add(
                    stored == null ? new VnodeProgress(v, upstream.snapshotEpoch()) : VnodeProgress.decode(v, stored));
        }
        this.status = summarize();
        this.rowsRead = status.rows();
        this.snapshotRead = snapshotsRead();
    }

    /**
     * Makes this input read nothing until each of {@code first} has read its snapshot: a dimension
     * join's big (left) side waits for its broadcast (right) side, so each of its rows probes a
     * complete build side and the join's output leaves each actor in the big side's key order
     * instead of in bursts when a late dimension row probes the big rows held so far. Order only:
     * the join is correct under any interleaving, so a restart or a late change-log row needs no
     * care. The inputs of {@code first} belong to other actors, which never wait for this one, so
     * the wait ends. Called by the job's builder before the actors start; not for a live job.
     */
    public void readAfter(List<BackfillInput> first) {
        after = List.copyOf(first);
    }

    /** Whether every owned vnode is past its snapshot; actor thread (or before the actor starts). */
    private boolean snapshotsRead() {
        for (VnodeProgress p : vnodes) {
            if (p.phase == VnodeProgress.Phase.SNAPSHOT) {
                return false;
            }
        }
        return true;
    }

    /** Whether the inputs this one waits for ({@link #readAfter}) have read their snapshots. */
    private boolean othersRead() {
        for (BackfillInput first : after) {
            if (!first.snapshotRead) {
                return false;
            }
        }
        after = List.of();
        return true;
    }

    public int node() {
        return node;
    }

    /** Makes this the input of a live job that follows its upstream's log; before the actor starts. */
    public void startFollowing() {
        following = true;
    }

    /** Which source of the view's plan this is. */
    public int sourceOrdinal() {
        return sourceOrdinal;
    }

    /**
     * The epoch through which every vnode of this input had consumed its upstream at the last
     * barrier ({@code Long.MAX_VALUE} when it owns no vnode); any thread.
     */
    public long consumedThrough() {
        return status.consumedThrough();
    }

    public boolean live() {
        return live;
    }

    Status status() {
        return status;
    }

    /** Rows read so far, including those a crash would read again; any thread. */
    long rowsRead() {
        return rowsRead;
    }

    /**
     * Whether this backfill's job reads nothing until its rate is changed (a paused job, or one
     * whose snapshot phase a worker runs); any thread.
     */
    public boolean paused() {
        return rate.paused();
    }

    /** Makes a change of this backfill's rate wake {@code thread} (see {@link BackfillRate#wakeOnChange}). */
    public void wakeOnRateChange(Thread thread) {
        rate.wakeOnChange(thread);
    }

    /** Whether this backfill has nothing left to read right now; any thread. */
    boolean caughtUpNow() {
        return caughtUpNow || vnodes.isEmpty();
    }

    /**
     * Reads up to one chunk of rows (as the rate allows) from the vnode at the cursor and hands it
     * to {@code sink}.
     *
     * @return whether it read anything or moved a position (false: nothing to do right now)
     */
    public boolean step(Consumer<Chunk> sink) {
        if (live || vnodes.isEmpty() || !othersRead()) {
            return false;
        }
        int budget = bucket.take(STEP_ROWS);
        if (budget == 0) {
            return false;
        }
        boolean moved = false;
        for (int tried = 0; tried < vnodes.size(); tried++) {
            VnodeProgress p = vnodes.get(cursor);
            int read;
            if (following && gate != null) {
                // a live job's rows must enter inside one open epoch, as staged rows do: never between
                // a barrier and the epoch boundary after its commit, where views start reading this
                // job. The lock is tried per vnode, so writers wait for one vnode's read at most.
                if (!gate.tryLock()) {
                    bucket.giveBack(budget);
                    return moved;
                }
                try {
                    read = advance(p, budget, Long.MAX_VALUE, sink);
                } finally {
                    gate.unlock();
                }
            } else {
                read = advance(p, budget, Long.MAX_VALUE, sink);
            }
            if (read > 0) {
                idle = false;
                caughtUpNow = false;
                bucket.giveBack(budget - read);
                return true;
            }
            if (read == 0) {
                // only a position moved (an epoch that did not change this vnode): go on to the next
                // vnode in the same step rather than one vnode per step
                moved = true;
                continue;
            }
            // read < 0: this vnode has consumed every committed epoch, as of now
            p.reachedHead = true;
            cursor = (cursor + 1) % vnodes.size();
        }
        if (moved) {
            idle = false;
            caughtUpNow = false;
            bucket.giveBack(budget);
            return true;
        }
        idle = true;
        caughtUpNow = vnodes.stream().allMatch(p -> p.phase == VnodeProgress.Phase.LOG);
        bucket.giveBack(budget);
        return false;
    }

    /**
     * Moves vnode {@code p} forward by at most {@code budget} rows, reading no epoch after
     * {@code limit}.
     *
     * @return rows read (0 when only a position moved), or -1 when the vnode has nothing to read
     */
    private int advance(VnodeProgress p, int budget, long limit, Consumer<Chunk> sink) {
        Chunk.Builder out = changes;
        Chunk snapshotRows = null;
        int read = 0;
        if (p.phase == VnodeProgress.Phase.SNAPSHOT) {
            if (snapshotStream == null) {
                snapshotStream = upstream.snapshot(p.vnode, p.epoch, p.lastPk);
            }
            if (storedLayout != null) {
                // the rows travel as stored: decoded only by an operator that needs their values
                byte[][] pks = new byte[budget][];
                byte[][] values = new byte[budget][];
                while (read < budget && snapshotStream.next()) {
                    pks[read] = snapshotStream.pk();
                    values[read] = snapshotStream.encodedRow();
                    read++;
                }
                if (read > 0) {
                    p.lastPk = pks[read - 1];
                    snapshotRows = Chunk.ofStored(storedLayout, pks, values, read);
                }
            } else {
                while (read < budget && snapshotStream.next()) {
                    out.add(Op.INSERT, snapshotStream.row());
                    p.lastPk = snapshotStream.pk();
                    read++;
                }
            }
            if (read < budget) {
                snapshotStream.close();
                snapshotStream = null;
                p.phase = VnodeProgress.Phase.LOG;
                p.lastPk = null;
                cursor = (cursor + 1) % vnodes.size();
                snapshotRead = snapshotsRead();
            }
        } else {
            if (p.reading == 0) {
                if (p.epoch >= limit) {
                    return -1;
                }
                OptionalLong next = nextEpoch(p.epoch);
                if (next.isEmpty() || next.getAsLong() > limit) {
                    return -1;
                }
                if (!changed(next.getAsLong(), p.vnode)) {
                    // the epoch did not touch this vnode: move past it without opening its log
                    p.epoch = next.getAsLong();
                    p.lastPk = null;
                    p.dirty = true;
                    cursor = (cursor + 1) % vnodes.size();
                    return 0;
                }
                p.reading = next.getAsLong();
                p.lastPk = null;
            }
            if (logStream == null) {
                logStream = upstream.changeLog(p.vnode, p.reading, p.lastPk);
            }
            while (read < budget && logStream.next()) {
                if (logStream.oldRow() != null) {
                    out.add(Op.DELETE, logStream.oldRow());
                }
                if (logStream.newRow() != null) {
                    out.add(Op.INSERT, logStream.newRow());
                }
                p.lastPk = logStream.pk();
                read++;
            }
            p.logRows += read;
            logRowsSinceBarrier += read;
            if (read < budget) {
                logStream.close();
                logStream = null;
                p.epoch = p.reading;
                p.reading = 0;
                p.lastPk = null;
                cursor = (cursor + 1) % vnodes.size();
            }
        }
        p.rows += read;
        rowsRead += read; // the actor thread is the only writer
        p.dirty = true;
        Chunk chunk = snapshotRows != null ? snapshotRows : out.build();
        if (chunk != null) {
            sink.accept(chunk);
        }
        return read;
    }

    /**
     * The upstream's answer to {@code nextEpoch(epoch)}, asked once for all the vnodes at the same
     * position: a present answer stays valid (a later one may only be a later epoch the relation
     * did not change), so it is kept until asked about another epoch.
     */
    private OptionalLong nextEpoch(long epoch) {
        if (askedEpoch == epoch && nextAnswer.isPresent()) {
            return nextAnswer;
        }
        askedEpoch = epoch;
        nextAnswer = upstream.nextEpoch(epoch);
        return nextAnswer;
    }

    /**
     * Whether committed epoch {@code epoch} may hold changes of {@code vnode}. One scan of the
     * epoch's log answers for every vnode of this input, instead of one log seek per vnode: with
     * a writer committing an epoch every few milliseconds, a seek per vnode and epoch cost more
     * than the epochs' interval on a loaded machine, and the backfill fell further behind.
     */
    private boolean changed(long epoch, int vnode) {
        if (changedEpoch != epoch) {
            changedEpoch = epoch;
            changedVnodes = upstream.changedVnodes(epoch);
        }
        return changedVnodes == null || changedVnodes.get(vnode);
    }

    /**
     * The job joins the live flow after epoch {@code upTo} (committed; no later epoch can commit
     * before this actor passes the next barrier): reads every vnode's log through {@code upTo},
     * whatever the rate limit, then lets live changes through. An upstream that does not
     * {@linkplain UpstreamTable#joinsLive join} is left as it is: this input goes on reading its log.
     */
    public void joinLive(long upTo, Consumer<Chunk> sink) {
        if (!upstream.joinsLive()) {
            // another database's table: its epochs are not this database's, so it stays a log consumer
            following = true;
            return;
        }
        closeStreams();
        for (VnodeProgress p : vnodes) {
            if (p.phase == VnodeProgress.Phase.SNAPSHOT) {
                throw new IllegalStateException(
                        "vnode " + p.vnode + " joins the live flow before its snapshot was read");
            }
            while (advance(p, STEP_ROWS, upTo, sink) >= 0) {
                // keeps reading until the vnode has consumed every epoch through upTo
            }
        }
        closeStreams();
        live = true;
    }

    /** Actor thread, passing a barrier: writes the changed vnode positions with the operators' state. */
    public void onBarrier(StateWrites writes) {
        if (live) {
            return;
        }
        for (VnodeProgress p : vnodes) {
            if (p.dirty) {
                writes.put(VnodeProgress.key(progressTableId, p.vnode, sourceOrdinal), p.encode());
                p.dirty = false;
            }
        }
        status = summarize();
        for (VnodeProgress p : vnodes) {
            p.reachedHead = false;
        }
        logRowsSinceBarrier = 0;
    }

    private Status summarize() {
        long rows = 0;
        long logRows = 0;
        long consumed = Long.MAX_VALUE;
        boolean snapshotDone = true;
        boolean everyVnodeReachedHead = true;
        List<BackfillProgress.Vnode> perVnode = new ArrayList<>(vnodes.size());
        for (VnodeProgress p : vnodes) {
            rows += p.rows;
            logRows += p.logRows;
            consumed = Math.min(consumed, p.consumedThrough());
            snapshotDone &= p.phase == VnodeProgress.Phase.LOG;
            everyVnodeReachedHead &= p.reachedHead;
            perVnode.add(new BackfillProgress.Vnode(
                    sourceOrdinal,
                    p.vnode,
                    p.phase == VnodeProgress.Phase.SNAPSHOT ? "snapshot" : "log",
                    p.consumedThrough(),
                    p.rows));
        }
        return new Status(
                rows,
                logRows,
                vnodes.isEmpty() ? Long.MAX_VALUE : consumed,
                snapshotDone && (idle || vnodes.isEmpty() || nearHead(everyVnodeReachedHead)),
                perVnode);
    }

    /**
     * Whether the input is close enough to its upstream's head to join the live flow at the next
     * epoch boundary although it was not idle at this barrier. Requiring idleness alone never
     * converges while writers keep writing: each committed epoch that changed the relation makes
     * every vnode read it again (one change-log seek per vnode), and the barrier must then fall
     * in the short moment after the last vnode caught up and before the next epoch commits, in
     * every actor at once. Instead, every vnode reaching the head at some point since the last
     * barrier, with a log read of at most {@link #JOIN_LOG_ROWS} rows in that interval, means the
     * remainder is about one interval of writes, which {@link #joinLive} reads inside the joining
     * epoch.
     */
    private boolean nearHead(boolean everyVnodeReachedHead) {
        return everyVnodeReachedHead && logRowsSinceBarrier <= JOIN_LOG_ROWS;
    }

    private void closeStreams() {
        if (snapshotStream != null) {
            snapshotStream.close();
            snapshotStream = null;
        }
        if (logStream != null) {
            logStream.close();
            logStream = null;
        }
    }

    @Override
    public void close() {
        closeStreams();
    }
}
