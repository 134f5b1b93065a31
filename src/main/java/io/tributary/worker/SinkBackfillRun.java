package io.tributary.worker;

import io.tributary.common.VirtualNodes;
import io.tributary.meta.sink.BackfillTarget;
import io.tributary.meta.sink.SinkBackfillJob;
import java.io.ByteArrayOutputStream;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;

/**
 * A worker's run of one sink backfill attempt: reads the exported snapshot from the server in
 * pieces (PostgreSQL's binary COPY format, encoded by the server straight from its stored rows, or
 * COPY text for a relation with a NUMERIC column) and writes it to the target in chunks, each
 * chunk's rows, status row and position committed in one target transaction (exactly once: see {@link BackfillTarget}). Resumes from the
 * position the target holds, whoever wrote it (an earlier attempt, or the server).
 */
final class SinkBackfillRun {
    /** PostgreSQL's binary COPY header: signature, no flags, no extension. */
    private static final byte[] BINARY_HEADER = java.util.Arrays.copyOf(
            "PGCOPY\n\u00ff\r\n\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
            ExportedSnapshotReader.BinaryPiece.HEADER);

    /** Rows per target transaction, as the local backfill. */
    static final int CHUNK_ROWS = 20_000;

    private final SinkBackfillJob job;
    private final String serverAddress;
    private final String serverPassword;

    /** @param serverAddress host:port of the server that exports the snapshot */
    SinkBackfillRun(SinkBackfillJob job, String serverAddress, String serverPassword) {
        this.job = job;
        this.serverAddress = serverAddress;
        this.serverPassword = serverPassword;
    }

    /**
     * Copies the rest of the snapshot.
     *
     * @param stillMine checked before each chunk: false once the server gave this attempt up
     * @return true when the target holds the whole snapshot; false when this attempt was fenced out
     */
    boolean run(BooleanSupplier stillMine) throws SQLException {
        try (BackfillTarget target = BackfillTarget.open(job.sink(), job.relation());
                ExportedSnapshotReader reader =
                        new ExportedSnapshotReader(serverAddress, serverPassword, job.database(), job.snapshotId())) {
            BackfillTarget.Position at = target.position();
            if (at == null) {
                return true;
            }
            int vnode = at.vnode();
            byte[] lastKey = at.lastKey();
            ByteArrayOutputStream chunk = new ByteArrayOutputStream();
            boolean binary = target.binary();
            // the sink's rate limit as of the job: chunks of a fifth of a second of rows, paced
            long rate = job.sink().rateLimit();
            int chunkRows = rate > 0 ? (int) Math.max(100, Math.min(CHUNK_ROWS, rate / 5)) : CHUNK_ROWS;
            while (vnode < VirtualNodes.COUNT) {
                long began = System.nanoTime();
                if (!stillMine.getAsBoolean()) {
                    return false;
                }
                chunk.reset();
                int rows = 0;
                if (binary) {
                    chunk.write(BINARY_HEADER, 0, BINARY_HEADER.length);
                }
                while (rows < chunkRows && vnode < VirtualNodes.COUNT) {
                    int wanted = chunkRows - rows;
                    int got;
                    if (binary) {
                        ExportedSnapshotReader.BinaryPiece piece = reader.readBinary(vnode, lastKey, wanted);
                        chunk.write(piece.data(), piece.from(), piece.to() - piece.from());
                        got = piece.rows();
                        lastKey = piece.lastKey();
                    } else {
                        ExportedSnapshotReader.Piece piece = reader.read(vnode, lastKey, wanted);
                        chunk.write(piece.text(), 0, piece.text().length);
                        got = piece.rows();
                        lastKey = got < wanted ? null : piece.lastKey();
                    }
                    rows += got;
                    if (got < wanted) {
                        vnode++;
                        lastKey = null;
                    }
                }
                if (binary) {
                    // the trailer: a tuple of -1 fields
                    chunk.write(0xff);
                    chunk.write(0xff);
                }
                if (!target.writeChunk(chunk.toByteArray(), new BackfillTarget.Position(vnode, lastKey))) {
                    return false;
                }
                if (rate > 0) {
                    pace(began, rows, rate);
                }
            }
            return stillMine.getAsBoolean() && target.complete();
        }
    }

    /** Sleeps so that {@code rows} take at least {@code rows / rate} seconds since {@code began}. */
    private static void pace(long began, int rows, long rate) {
        long dueNanos = rows * 1_000_000_000L / rate - (System.nanoTime() - began);
        if (dueNanos > 0) {
            try {
                Thread.sleep(dueNanos / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
