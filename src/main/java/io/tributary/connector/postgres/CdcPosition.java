package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.replication.LogSequenceNumber;

/**
 * Where a {@code postgres-cdc} reader is: either in the initial snapshot, after a primary key, or
 * streaming, after a transaction. Immutable.
 */
sealed interface CdcPosition {
    byte SNAPSHOT = 1;
    byte STREAMING = 2;

    /**
     * In the snapshot.
     *
     * @param lastKey the text forms of the primary-key values of the last row returned, in the
     *     upstream key's column order; null before the first row
     */
    record Snapshot(List<String> lastKey) implements CdcPosition {}

    /**
     * Streaming from the slot.
     *
     * @param lsn the end LSN of the last transaction returned in full (the consistent point when
     *     none was; a later LSN the server reported while nothing was in flight): decoding resumes
     *     with the first transaction committed at or after it
     * @param skip how many changes of the transaction after {@code lsn} were returned already; not
     *     zero only when a transaction larger than a whole batch had to be split
     */
    record Streaming(long lsn, int skip) implements CdcPosition {}

    static byte[] encode(CdcPosition position) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (position instanceof Snapshot s) {
                out.writeByte(SNAPSHOT);
                out.writeInt(s.lastKey() == null ? -1 : s.lastKey().size());
                if (s.lastKey() != null) {
                    for (String value : s.lastKey()) {
                        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                        out.writeInt(utf8.length);
                        out.write(utf8);
                    }
                }
            } else {
                Streaming s = (Streaming) position;
                out.writeByte(STREAMING);
                out.writeLong(s.lsn());
                out.writeInt(s.skip());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws ConnectorException XX000 when {@code bytes} is not a position this connector wrote */
    static CdcPosition decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte kind = in.readByte();
            if (kind == SNAPSHOT) {
                int n = in.readInt();
                if (n < 0) {
                    return new Snapshot(null);
                }
                List<String> key = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    key.add(new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8));
                }
                return new Snapshot(List.copyOf(key));
            }
            if (kind == STREAMING) {
                return new Streaming(in.readLong(), in.readInt());
            }
            throw new IOException("unknown kind " + kind);
        } catch (IOException e) {
            throw new ConnectorException(
                    SqlState.INTERNAL_ERROR,
                    "postgres-cdc: a stored source position is unreadable (" + e.getMessage() + ")");
        }
    }

    /** For {@code source_progress}: {@code snapshot after key (3)} or {@code lsn 0/16B3790}. */
    static String describe(CdcPosition position) {
        if (position instanceof Snapshot s) {
            return s.lastKey() == null
                    ? "snapshot, not started"
                    : "snapshot after key (" + String.join(", ", s.lastKey()) + ")";
        }
        Streaming s = (Streaming) position;
        return "lsn " + LogSequenceNumber.valueOf(s.lsn()).asString()
                + (s.skip() == 0 ? "" : " + " + s.skip() + " changes of the next transaction");
    }
}
