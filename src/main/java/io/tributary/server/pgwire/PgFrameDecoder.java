package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tributary.common.SqlState;
import java.util.List;

/**
 * Cuts the inbound byte stream into {@link PgFrame}s. Until a protocol-3 StartupMessage has been
 * seen, packets are {@code int32 length, body} (length includes itself); afterwards every message
 * is {@code byte type, int32 length, body}. SSLRequest and GSSENCRequest keep the decoder in the
 * startup phase because the client follows them with another untyped packet.
 *
 * <p>Runs on the channel's event loop. A length below 4 or above the limit is answered with a
 * FATAL 08P01 ErrorResponse and the connection is closed, since the stream cannot be resynchronised.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
    /** PostgreSQL's own limit for startup packets. */
    static final int MAX_STARTUP_LENGTH = 10_000;

    static final int PROTOCOL_3 = 3 << 16;

    private final int maxMessageLength;
    private boolean startupPhase = true;
    private boolean broken;

    /** @param maxMessageLength largest accepted regular message, length field included */
    PgFrameDecoder(int maxMessageLength) {
        this.maxMessageLength = maxMessageLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int headerLength = startupPhase ? 4 : 5;
        if (in.readableBytes() < headerLength) {
            return;
        }
        int start = in.readerIndex();
        char type = startupPhase ? PgFrame.UNTYPED : (char) in.getUnsignedByte(start);
        int length = in.getInt(start + headerLength - 4);
        int limit = startupPhase ? MAX_STARTUP_LENGTH : maxMessageLength;
        if (length < 4 || length > limit) {
            reject(ctx, in, "invalid message length " + length);
            return;
        }
        if (in.readableBytes() < headerLength + length - 4) {
            return;
        }
        in.skipBytes(headerLength);
        byte[] body = new byte[length - 4];
        in.readBytes(body);
        if (startupPhase && body.length >= 4) {
            int code = (body[0] & 0xff) << 24 | (body[1] & 0xff) << 16 | (body[2] & 0xff) << 8 | (body[3] & 0xff);
            // Only a StartupMessage ends the untyped phase; SSL/GSS requests are followed by one.
            startupPhase = (code >>> 16) != 3;
        }
        out.add(new PgFrame(type, body));
    }

    private void reject(ChannelHandlerContext ctx, ByteBuf in, String message) {
        broken = true;
        in.skipBytes(in.readableBytes());
        PgErrorFields error = new PgErrorFields("FATAL", SqlState.PROTOCOL_VIOLATION, message, 0, null, null);
        ctx.writeAndFlush(PgBackendMessages.errorResponse(ctx.alloc(), error)).addListener(ChannelFutureListener.CLOSE);
    }
}
