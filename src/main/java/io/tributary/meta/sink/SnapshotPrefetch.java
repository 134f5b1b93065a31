package io.tributary.meta.sink;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Reads a backfill's {@link KeyOrderedSnapshot} ahead on a thread of its own, in pieces of rows
 * already formatted for a straight COPY, so the backfill thread can end a chunk's COPY and commit
 * it while the next rows are read and formatted. It only reads ahead: what is delivered, and the
 * position committed with it, is still decided by the backfill thread, one chunk at a time.
 *
 * <p>The reader thread owns the snapshot reader from construction on and closes it when it ends;
 * the backfill thread calls {@link #next}, {@link #stopFormatting} and {@link #close}. Neither is
 * ever interrupted: both poll a flag.
 */
final class SnapshotPrefetch implements AutoCloseable {
    /** Pieces read ahead: enough rows to cover a chunk's COPY end and commit. */
    private static final int DEPTH = 32;

    private static final long POLL_MS = 50;

    /**
     * Up to {@code count} consecutive rows of the snapshot, in key order; immutable once queued.
     *
     * @param rows the rows, full width, canonical values
     * @param keys their memcomparable primary keys
     * @param text their lines for a straight COPY, one after the other; null when not formatted
     * @param ends by row, the end offset of its line in {@code text}
     * @param vnodesDone the reader's {@link KeyOrderedSnapshot#vnodesDone} after the last row
     */
    record Piece(Object[][] rows, byte[][] keys, int count, byte[] text, int[] ends, int vnodesDone) {}

    private final KeyOrderedSnapshot reader;
    private final CopyText format;
    private final int pieceRows;
    private final BlockingQueue<Piece> queue = new ArrayBlockingQueue<>(DEPTH);
    private final Thread thread;

    private volatile boolean closing;
    private volatile boolean formatting;
    /** Set by the reader thread when it has queued its last piece (or failed). */
    private volatile boolean done;
    /** Why the reader thread failed, if it did. */
    private volatile RuntimeException failure;

    /**
     * Starts reading.
     *
     * @param reader the snapshot; this object's thread reads and closes it from now on
     * @param format formats the rows for a straight COPY (used by the reader thread only)
     * @param formatting whether to format rows at first
     * @param pieceRows rows per piece
     */
    SnapshotPrefetch(KeyOrderedSnapshot reader, CopyText format, boolean formatting, int pieceRows, String name) {
        this.reader = reader;
        this.format = format;
        this.formatting = formatting;
        this.pieceRows = pieceRows;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** From now on pieces carry no COPY text (the backfill merges instead); backfill thread. */
    void stopFormatting() {
        formatting = false;
    }

    /**
     * Backfill thread: the next piece, waiting for it if needed.
     *
     * @param stopped polled while waiting
     * @return null at the snapshot's end, or when {@code stopped} turned true (the caller tells
     *     the two apart by asking {@code stopped} again)
     * @throws RuntimeException what reading the snapshot failed with
     */
    Piece next(BooleanSupplier stopped) throws InterruptedException {
        while (true) {
            Piece p = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
            if (p != null) {
                return p;
            }
            if (done && queue.isEmpty()) {
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
            if (stopped.getAsBoolean()) {
                return null;
            }
        }
    }

    /** Stops the reader thread and waits until it has closed the snapshot reader; backfill thread. */
    @Override
    public void close() throws InterruptedException {
        closing = true;
        queue.clear();
        thread.join();
    }

    private void run() {
        try (reader) {
            boolean more = reader.next();
            while (more && !closing) {
                Object[][] rows = new Object[pieceRows][];
                byte[][] keys = new byte[pieceRows][];
                boolean text = formatting;
                int[] ends = text ? new int[pieceRows] : null;
                format.reset();
                int n = 0;
                while (more && n < pieceRows) {
                    rows[n] = reader.row();
                    keys[n] = reader.pk();
                    if (text) {
                        format.add(rows[n], 'U');
                        ends[n] = format.length();
                    }
                    n++;
                    more = reader.next();
                }
                Piece piece = new Piece(rows, keys, n, text ? format.bytes() : null, ends, reader.vnodesDone());
                while (!closing && !queue.offer(piece, POLL_MS, TimeUnit.MILLISECONDS)) {
                    // the backfill thread is committing: wait for room
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            // never interrupted by this project; end as if closed
        } finally {
            done = true;
        }
    }
}
