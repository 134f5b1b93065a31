package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * The outbound side of one connection as the session thread sees it. Netty's channel methods are
 * thread-safe and keep the order of writes issued by one thread, so the session thread writes
 * directly; this class adds back-pressure so a large result cannot pile up in memory.
 */
final class PgChannelWriter {
    private final Channel channel;
    private final Object writable = new Object();

    PgChannelWriter(Channel channel) {
        this.channel = channel;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Queues a message without flushing; the channel takes ownership of the buffer. */
    void write(ByteBuf message) {
        channel.write(message, channel.voidPromise());
    }

    void flush() {
        channel.flush();
    }

    /** Queues and flushes a message; safe from any thread (used for notices). */
    void writeAndFlush(ByteBuf message) {
        channel.writeAndFlush(message, channel.voidPromise());
    }

    /** Flushes what is queued, then closes the connection. */
    void flushAndClose() {
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Blocks the calling session thread while the channel's outbound buffer is above its high-water
     * mark (the client reads slower than we produce). Returns at once on the event loop itself,
     * which must never block, or when the connection is gone.
     */
    void awaitWritable() throws InterruptedException {
        if (channel.isWritable() || channel.eventLoop().inEventLoop()) {
            return;
        }
        channel.flush();
        synchronized (writable) {
            while (!channel.isWritable() && channel.isActive()) {
                writable.wait(1000);
            }
        }
    }

    /** Called by the event loop when writability or activity changes, to wake {@link #awaitWritable}. */
    void wakeWaiters() {
        synchronized (writable) {
            writable.notifyAll();
        }
    }
}
