package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.nio.charset.StandardCharsets;

/**
 * Sequential reader over one message body, in network byte order. Reading past the end throws
 * 08P01, which is how a truncated or malformed message reaches the client. Not thread-safe; used
 * by the connection's session thread only.
 */
final class PgMessageReader {
    private final byte[] data;
    private int pos;

    PgMessageReader(byte[] data) {
        this.data = data;
    }

    int readInt16() {
        require(2);
        int v = (short) ((data[pos] & 0xff) << 8 | (data[pos + 1] & 0xff));
        pos += 2;
        return v;
    }

    int readInt32() {
        require(4);
        int v = (data[pos] & 0xff) << 24
                | (data[pos + 1] & 0xff) << 16
                | (data[pos + 2] & 0xff) << 8
                | (data[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    byte readByte() {
        require(1);
        return data[pos++];
    }

    byte[] readBytes(int n) {
        if (n < 0) {
            throw malformed();
        }
        require(n);
        byte[] out = new byte[n];
        System.arraycopy(data, pos, out, 0, n);
        pos += n;
        return out;
    }

    /** Reads a NUL-terminated UTF-8 string. */
    String readCString() {
        for (int i = pos; i < data.length; i++) {
            if (data[i] == 0) {
                String s = new String(data, pos, i - pos, StandardCharsets.UTF_8);
                pos = i + 1;
                return s;
            }
        }
        throw malformed();
    }

    boolean hasRemaining() {
        return pos < data.length;
    }

    private void require(int n) {
        if (data.length - pos < n) {
            throw malformed();
        }
    }

    private static TributaryException malformed() {
        return new TributaryException(SqlState.PROTOCOL_VIOLATION, "invalid message format");
    }
}
