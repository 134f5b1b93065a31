package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Drives a protocol handler on an {@link EmbeddedChannel} with raw frontend messages. */
final class PgWireTestClient {
    /** One backend message. */
    record Msg(char type, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The value of an ErrorResponse/NoticeResponse field, or null. */
        String field(char code) {
            int i = 0;
            while (i < body.length && body[i] != 0) {
                char c = (char) body[i];
                int end = i + 1;
                while (body[end] != 0) {
                    end++;
                }
                if (c == code) {
                    return new String(body, i + 1, end - i - 1, StandardCharsets.UTF_8);
                }
                i = end + 1;
            }
            return null;
        }

        /** DataRow column values as text (null for NULL). */
        List<String> columns() {
            ByteBuf b = Unpooled.wrappedBuffer(body);
            int n = b.readShort();
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int len = b.readInt();
                out.add(
                        len < 0
                                ? null
                                : b.readCharSequence(len, StandardCharsets.UTF_8)
                                        .toString());
            }
            return out;
        }
    }

    final EmbeddedChannel channel;
    private final ByteBuf pending = Unpooled.buffer();

    PgWireTestClient(PgServerContext context) {
        channel = new EmbeddedChannel(
                new PgFrameDecoder(1 << 20), new PgConnectionHandler(context, Runnable::run, () -> {}));
    }

    void send(ByteBuf message) {
        channel.writeInbound(message);
    }

    /** Everything the server wrote since the last call, as messages. */
    List<Msg> receive() {
        drain();
        List<Msg> out = new ArrayList<>();
        while (pending.readableBytes() >= 5) {
            char type = (char) pending.readByte();
            byte[] body = new byte[pending.readInt() - 4];
            pending.readBytes(body);
            out.add(new Msg(type, body));
        }
        return out;
    }

    /** A single raw byte (the answer to SSLRequest). */
    byte receiveByte() {
        drain();
        return pending.readByte();
    }

    private void drain() {
        ByteBuf b;
        while ((b = channel.readOutbound()) != null) {
            pending.writeBytes(b);
            b.release();
        }
    }

    static String types(List<Msg> msgs) {
        StringBuilder sb = new StringBuilder();
        msgs.forEach(m -> sb.append(m.type()));
        return sb.toString();
    }

    // ---------------------------------------------------------------- frontend messages

    static ByteBuf startup(String... keyValues) {
        ByteBuf b = Unpooled.buffer();
        b.writeInt(0);
        b.writeInt(196608);
        for (String s : keyValues) {
            cstring(b, s);
        }
        b.writeByte(0);
        return b.setInt(0, b.readableBytes());
    }

    static ByteBuf untyped(int... ints) {
        ByteBuf b = Unpooled.buffer();
        b.writeInt(4 + 4 * ints.length);
        for (int i : ints) {
            b.writeInt(i);
        }
        return b;
    }

    static ByteBuf query(String sql) {
        ByteBuf b = begin('Q');
        cstring(b, sql);
        return end(b);
    }

    static ByteBuf parse(String name, String sql, int... oids) {
        ByteBuf b = begin('P');
        cstring(b, name);
        cstring(b, sql);
        b.writeShort(oids.length);
        for (int oid : oids) {
            b.writeInt(oid);
        }
        return end(b);
    }

    /** Bind with text parameters and one result format for all columns. */
    static ByteBuf bind(String portal, String statement, int resultFormat, String... params) {
        ByteBuf b = begin('B');
        cstring(b, portal);
        cstring(b, statement);
        b.writeShort(0);
        b.writeShort(params.length);
        for (String p : params) {
            if (p == null) {
                b.writeInt(-1);
            } else {
                byte[] v = p.getBytes(StandardCharsets.UTF_8);
                b.writeInt(v.length).writeBytes(v);
            }
        }
        b.writeShort(1);
        b.writeShort(resultFormat);
        return end(b);
    }

    static ByteBuf describe(char kind, String name) {
        ByteBuf b = begin('D');
        b.writeByte(kind);
        cstring(b, name);
        return end(b);
    }

    static ByteBuf execute(String portal, int maxRows) {
        ByteBuf b = begin('E');
        cstring(b, portal);
        b.writeInt(maxRows);
        return end(b);
    }

    static ByteBuf close(char kind, String name) {
        ByteBuf b = begin('C');
        b.writeByte(kind);
        cstring(b, name);
        return end(b);
    }

    static ByteBuf simple(char type) {
        return end(begin(type));
    }

    static ByteBuf withBody(char type, byte[] body) {
        ByteBuf b = begin(type);
        b.writeBytes(body);
        return end(b);
    }

    static ByteBuf saslInitial(String mechanism, byte[] data) {
        ByteBuf b = begin('p');
        cstring(b, mechanism);
        b.writeInt(data.length).writeBytes(data);
        return end(b);
    }

    private static ByteBuf begin(char type) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(type);
        b.writeInt(0);
        return b;
    }

    private static ByteBuf end(ByteBuf b) {
        return b.setInt(1, b.readableBytes() - 1);
    }

    private static void cstring(ByteBuf b, String s) {
        b.writeBytes(s.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }
}
