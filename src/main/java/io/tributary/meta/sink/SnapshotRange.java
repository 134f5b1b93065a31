package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.SourceDef;
import io.tributary.common.SqlState;
import io.tributary.stream.UpstreamTable;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.postgresql.copy.CopyIn;

/**
 * One key range of a sink's backfill, copied over one target connection in chunk transactions
 * (see {@link SnapshotDelivery} for why this is exactly once and never clobbers the head): the
 * whole snapshot when the backfill runs as one range, or one of the ranges copied side by side.
 * Each chunk's rows and the range's new position commit together; where a position is kept and how
 * it is fenced is the {@link Position}'s business. The thread that calls {@link #copy}; one at a time.
 */
final class SnapshotRange {
    /**
     * Most rows of a straight COPY's chunk: large, since each chunk costs a commit and a wait for
     * the target to finish its COPY, with the reader idle; {@link #CHUNK_NANOS} bounds it in time.
     */
    private static final int CHUNK_ROWS = 100_000;
    /**
     * How long a straight COPY's chunk may stream without a rate limit: it holds the sink's lock,
     * so the head waits for it.
     */
    private static final long CHUNK_NANOS = 500_000_000L;
    /** Rows of a staged chunk, read before its transaction and merged by one statement. */
    private static final int MERGE_CHUNK_ROWS = 20_000;
    /** Under a rate limit, a chunk is at most this fraction of a second of rows, so progress commits often. */
    private static final int CHUNKS_PER_SECOND = 5;

    private static final int MIN_CHUNK_ROWS = 100;
    /** Rows formatted per piece of a straight COPY: the target ingests a piece while the next is formatted. */
    private static final int PIECE_ROWS = 1_000;

    /** Where a range's position is kept: one chunk transaction's lock, fence and position write. */
    interface Position {
        /** Starts a chunk transaction: the sink's advisory lock, exclusive or shared. */
        void lock(Connection c) throws SQLException;

        /**
         * In the chunk's transaction, after its rows: throws (40001) when another attempt moved the
         * position since this one read it, else writes the range's new position: through {@code
         * lastKey}, or the whole range when {@code finished}.
         */
        void save(Connection c, byte[] lastKey, boolean finished) throws SQLException;

        /** The transaction of the last {@link #save} committed. */
        void committed();
    }

    private final RunningSink sink;
    private final SinkDef def;
    private final Position position;
    private final BooleanSupplier stopping;
    private final Runnable onChunk;
    /** Staged chunks' body (with the operation); {@link #direct}, a straight COPY's. Both encode stored rows. */
    private final CopyBody staged;

    private final CopyBody direct;
    /** The current chunk's rows as stored, kept until the transaction decides which to write. */
    private final List<byte[]> chunkRows = new ArrayList<>();
    /** Their primary keys, as the head's key set holds them. */
    private final List<ByteBuffer> chunkKeys = new ArrayList<>();

    /** Whether chunks go straight into the target by COPY (see {@link RunningSink#touchedKeys}). */
    private boolean copyStraight;
    /** The range being read, while {@link #copy} runs; its current row is the next to take. */
    private KeyOrderedSnapshot reader;
    /** Whether {@link #reader} has a current row. */
    private boolean more;

    /**
     * @param def the sink as of the backfill's snapshot
     * @param stopping true once the backfill must stop (checked between chunks)
     * @param onChunk runs on this thread after each committed chunk
     */
    SnapshotRange(RunningSink sink, SinkDef def, Position position, BooleanSupplier stopping, Runnable onChunk) {
        this.sink = sink;
        this.def = def;
        this.position = position;
        this.stopping = stopping;
        this.onChunk = onChunk;
        int[] columns = sink.table().columnIndexes();
        int[] key = sink.table().keyIndexes(sink.relation());
        this.staged = CopyBody.of(sink.relation().columnTypes(), columns, key, true);
        this.direct = CopyBody.of(sink.relation().columnTypes(), columns, key, false);
    }

    /** Vnodes this range has read to their end (a lower bound while it runs); 0 before it starts. */
    volatile int vnodesDone;

    /**
     * Copies the range's rows of the snapshot after a position, each chunk committed with its
     * position; the last chunk (or, for a range with nothing left, a transaction of its own) marks
     * the range finished.
     *
     * @param vnode the position's vnode ({@link KeyOrderedSnapshot#MERGED} or the vnode-by-vnode order's)
     * @param after the position's last key, or null from the range's start
     * @param upTo the range's last key, inclusive; null for no bound
     * @return false when stopped before the range was copied
     */
    boolean copy(Connection c, UpstreamTable upstream, int vnode, byte[] after, byte[] upTo) throws SQLException {
        long snapshot = def.snapshotEpoch();
        boolean resync = def.generation() > 0;
        copyStraight = sink.touchedKeys() != null && def.generation() == 0;
        try (KeyOrderedSnapshot rows = new KeyOrderedSnapshot(upstream, snapshot, vnode, after, upTo)) {
            vnodesDone = rows.vnodesDone();
            reader = rows;
            more = rows.next();
            if (!more) {
                position.lock(c);
                position.save(c, null, true);
                c.commit();
                position.committed();
            }
            while (more) {
                if (stopping.getAsBoolean()) {
                    return false;
                }
                sink.backfillProgress().phase(sink.limiter().paused() ? "paused" : "snapshotting");
                chunkRows.clear();
                chunkKeys.clear();
                long rate = sink.limiter().rate();
                boolean limited = rate != SourceDef.UNLIMITED;
                int chunk = copyStraight ? CHUNK_ROWS : MERGE_CHUNK_ROWS;
                if (limited) {
                    chunk = (int) Math.max(MIN_CHUNK_ROWS, Math.min(chunk, rate / CHUNKS_PER_SECOND));
                    // only the snapshot's last chunk takes fewer rows than it acquired
                    if (!sink.limiter().acquire(chunk, stopping)) {
                        return false;
                    }
                }
                if (!writeChunk(c, snapshot, resync, chunk, !limited)) {
                    // the target holds some of these keys already: merge from now on
                    c.rollback();
                    copyStraight = false;
                    writeChunk(c, snapshot, resync, chunk, false);
                }
                vnodesDone = more ? rows.vnodesDone() : io.tributary.common.VirtualNodes.COUNT;
                sink.backfillProgress().delivered(snapshot, chunkRows.size());
                onChunk.run();
            }
            vnodesDone = io.tributary.common.VirtualNodes.COUNT;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            reader = null;
        }
    }

    /** Moves the reader's current row into the chunk and advances. */
    private void take() {
        chunkRows.add(reader.encodedRow());
        chunkKeys.add(ByteBuffer.wrap(reader.pk()));
        more = reader.next();
    }

    /**
     * One chunk's transaction: up to {@code chunk} rows of the reader (more of them if a rolled-back
     * attempt already took some), written straight (skipping the keys the head wrote) or merged,
     * with the position (the chunk's last key), committed together. A straight COPY reads the rows
     * while it streams them, so the target ingests a piece while the reader decodes the next.
     *
     * @return false when a straight COPY met a key the target holds; the transaction must be rolled back
     */
    private boolean writeChunk(Connection c, long snapshot, boolean resync, int chunk, boolean timed)
            throws SQLException {
        TargetTable table = sink.table();
        boolean straight = copyStraight && sink.touchedKeys() != null;
        if (!straight) {
            // staged: read before taking the lock, so the head waits only for the merge
            while (more && chunkRows.size() < chunk) {
                take();
            }
        }
        position.lock(c);
        Set<ByteBuffer> touched = sink.touchedKeys();
        if (straight && touched != null) {
            // read under the lock: every head transaction committed before it has added its keys
            CopyIn copy = table.copyDirect(c, direct);
            long deadline = System.nanoTime() + CHUNK_NANOS;
            try {
                direct.start();
                for (int i = 0; ; i++) {
                    if (i == chunkRows.size()) {
                        if (!more || i >= chunk || timed && i % PIECE_ROWS == 0 && System.nanoTime() > deadline) {
                            break;
                        }
                        take();
                    }
                    if (!touched.contains(chunkKeys.get(i))) {
                        direct.add(chunkRows.get(i), 'U');
                        if (direct.rows() % PIECE_ROWS == 0) {
                            direct.drainTo(copy);
                        }
                    }
                }
                direct.finish();
                direct.drainTo(copy);
                copy.endCopy();
            } catch (SQLException e) {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
                if (SqlState.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    return false;
                }
                throw e;
            }
        } else {
            while (more && chunkRows.size() < chunk) {
                take();
            }
            if (!chunkRows.isEmpty()) {
                staged.start();
                for (byte[] row : chunkRows) {
                    staged.add(row, 'U');
                }
                staged.finish();
                table.copyIn(c, staged);
                table.mergeSnapshot(c, snapshot, resync);
            }
        }
        position.save(c, chunkKeys.get(chunkKeys.size() - 1).array(), !more);
        c.commit();
        position.committed();
        return true;
    }
}
