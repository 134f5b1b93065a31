package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTimeZone;
import io.tributary.server.session.ColumnDesc;
import io.tributary.server.session.RowCursor;
import io.tributary.server.session.StatementResult;
import java.util.List;
import java.util.function.Supplier;

/**
 * Streams a statement's rows or COPY TO output to one connection, in batches, waiting while the
 * client is behind. Called by {@link PgProtocol} (simple query) and {@link PgExtendedQuery}
 * (Execute) on the connection's serial executor.
 */
final class PgResultWriter {
    /** Rows fetched from a cursor per round, bounding memory for unlimited Executes. */
    private static final int FETCH_BATCH = 1024;

    private final PgChannelWriter out;
    /** The zone of the connection's session as of now, which text timestamptz values print in. */
    private final Supplier<PgTimeZone> timeZone;

    PgResultWriter(PgChannelWriter out, Supplier<PgTimeZone> timeZone) {
        this.out = out;
        this.timeZone = timeZone;
    }

    /**
     * Writes up to {@code maxRows} rows (0 = all) as DataRow messages.
     *
     * @return the number of rows written
     */
    long streamRows(List<ColumnDesc> columns, short[] formats, RowCursor cursor, int maxRows) {
        long sent = 0;
        PgTimeZone zone = timeZone.get();
        while (maxRows == 0 || sent < maxRows) {
            int want = maxRows == 0 ? FETCH_BATCH : (int) Math.min(FETCH_BATCH, maxRows - sent);
            List<Object[]> rows = cursor.fetch(want);
            for (Object[] row : rows) {
                out.write(PgBackendMessages.dataRow(out.alloc(), columns, formats, row, zone));
            }
            sent += rows.size();
            awaitClientReading();
            if (rows.isEmpty() || cursor.exhausted()) {
                break;
            }
        }
        return sent;
    }

    /**
     * Sends COPY TO's CopyOutResponse, one CopyData per line and CopyDone, reading the cursor in
     * batches and waiting while the client is behind; closes the cursor.
     *
     * @return the CommandComplete tag, {@code COPY n}
     */
    String copyOut(StatementResult.CopyOut copy) {
        try (RowCursor cursor = copy.cursor()) {
            out.write(PgBackendMessages.copyOutResponse(
                    out.alloc(), copy.columns().size()));
            String header = copy.encoder().header();
            if (header != null) {
                out.write(PgBackendMessages.copyData(out.alloc(), header));
            }
            long sent = 0;
            while (true) {
                List<Object[]> rows = cursor.fetch(FETCH_BATCH);
                for (Object[] row : rows) {
                    out.write(PgBackendMessages.copyData(
                            out.alloc(), copy.encoder().line(row)));
                }
                sent += rows.size();
                awaitClientReading();
                if (rows.isEmpty() || cursor.exhausted()) {
                    break;
                }
            }
            out.write(PgBackendMessages.copyDone(out.alloc()));
            return "COPY " + sent;
        }
    }

    /**
     * Sends a binary COPY TO's CopyOutResponse, its encoded body in CopyData messages of at most
     * {@link #COPY_PIECE} bytes (waiting while the client is behind) and CopyDone.
     *
     * @return the CommandComplete tag, {@code COPY n}
     */
    String copyOutBinary(StatementResult.CopyOutBinary copy) {
        out.write(PgBackendMessages.copyOutResponseBinary(out.alloc(), copy.fields()));
        byte[] body = copy.body();
        for (int at = 0; at < body.length; at += COPY_PIECE) {
            out.write(PgBackendMessages.copyData(out.alloc(), body, at, Math.min(COPY_PIECE, body.length - at)));
            awaitClientReading();
        }
        out.write(PgBackendMessages.copyDone(out.alloc()));
        return "COPY " + copy.rows();
    }

    /** Bytes per CopyData message of a binary COPY TO. */
    private static final int COPY_PIECE = 64 * 1024;

    private void awaitClientReading() {
        try {
            out.awaitWritable();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException(SqlState.ADMIN_SHUTDOWN, "terminating connection due to server shutdown");
        }
    }
}
