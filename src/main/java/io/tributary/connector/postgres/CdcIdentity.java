package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What a {@code postgres-cdc} source created upstream, kept for the table's life: the logical
 * replication slot, the publication the slot's pgoutput reads, and the slot's consistent point
 * (the LSN its exported snapshot corresponds to, from which streaming starts after the snapshot).
 */
record CdcIdentity(String slot, String publication, long consistentPoint) {
    private static final byte FORMAT = 1;

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(slot);
            out.writeUTF(publication);
            out.writeLong(consistentPoint);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws ConnectorException XX000 when {@code bytes} is not an identity this connector wrote */
    static CdcIdentity decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readByte() != FORMAT) {
                throw new IOException("unknown format");
            }
            return new CdcIdentity(in.readUTF(), in.readUTF(), in.readLong());
        } catch (IOException e) {
            throw new ConnectorException(
                    SqlState.INTERNAL_ERROR,
                    "postgres-cdc: the stored source identity is unreadable (" + e.getMessage() + ")");
        }
    }
}
