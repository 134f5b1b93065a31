package io.tributary.worker;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Rows of a staging table of the jobs database ({@code tributary_job_results}, {@code
 * tributary_job_checkpoints}: job id, attempt, seq, key, value) sent with one {@code COPY ... FROM
 * STDIN (FORMAT binary)} in the caller's open transaction, in pieces of {@link #PIECE_BYTES}, so a
 * checkpoint of tens of megabytes is neither one round trip per row nor one array in memory.
 * PostgreSQL's binary copy format: a signature and two zero words, then per row a field count and
 * each field as length and bytes (length -1 for NULL), then -1. One thread; {@link #end} or the
 * transaction's rollback finishes it.
 */
final class StagingCopy {
    private static final int PIECE_BYTES = 1 << 20;
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};

    private final CopyIn copy;
    private final byte[] jobId;
    private final int attempt;
    private ByteBuffer piece = ByteBuffer.allocate(PIECE_BYTES);

    /** Starts the copy into {@code table} for rows of attempt {@code attempt} of job {@code jobId}. */
    StagingCopy(Connection c, String table, String jobId, int attempt) throws SQLException {
        this.copy = c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " (job_id, attempt, seq, k, v) FROM STDIN (FORMAT binary)");
        this.jobId = jobId.getBytes(StandardCharsets.UTF_8);
        this.attempt = attempt;
        piece.put(SIGNATURE).putInt(0).putInt(0);
    }

    /** Adds row {@code seq}; a null {@code value} is SQL NULL. */
    void row(int seq, byte[] key, byte[] value) throws SQLException {
        int size = 2 + 4 + jobId.length + 8 + 8 + 4 + key.length + 4 + (value == null ? 0 : value.length);
        if (piece.remaining() < size) {
            send();
            if (piece.capacity() < size) {
                piece = ByteBuffer.allocate(size);
            }
        }
        piece.putShort((short) 5);
        piece.putInt(jobId.length).put(jobId);
        piece.putInt(4).putInt(attempt);
        piece.putInt(4).putInt(seq);
        piece.putInt(key.length).put(key);
        if (value == null) {
            piece.putInt(-1);
        } else {
            piece.putInt(value.length).put(value);
        }
    }

    /** Sends the trailer and ends the copy; the rows commit with the caller's transaction. */
    void end() throws SQLException {
        if (piece.remaining() < 2) {
            send();
        }
        piece.putShort((short) -1);
        send();
        copy.endCopy();
    }

    private void send() throws SQLException {
        if (piece.position() > 0) {
            copy.writeToCopy(piece.array(), 0, piece.position());
            piece.clear();
        }
    }
}
