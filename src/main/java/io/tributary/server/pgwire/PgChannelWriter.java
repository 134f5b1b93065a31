package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbound side of one connection as the session thread sees it. Netty's channel methods are
 * thread-safe and keep the order of writes issued by one thread, so the session thread writes
 * directly; this class adds back-pressure so a large result cannot pile up in memory.
 *
 * <p>It also holds back what answers statements that returned before they were durable ({@link
 * #hold}): such messages stay here, not in the channel, until a flush point, which first runs the
 * durability gate. So no flush, from any thread, can send a CommandComplete whose statement's
 * effects could still be lost; when the gate fails, the held messages are dropped.
 */
final class PgChannelWriter {
    private final Channel channel;
    private final Object writable = new Object();

    /** Messages held back until the gate passes, in order; null when nothing is held. Guarded by this. */
    private List<ByteBuf> held;

    /**
     * Whether {@link #closeWith} sent the connection's last message: what any thread writes after
     * it is dropped, so nothing (a ReadyForQuery of the statement it interrupted) follows a FATAL
     * the client must read as the end of the connection. Guarded by this.
     */
    private boolean ended;

    /** Waits until what the held messages answer is durable; throws when it cannot be. */
    private Runnable gate = () -> {};

    PgChannelWriter(Channel channel) {
        this.channel = channel;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** The client's address, or null when the channel is not a TCP socket. Any thread. */
    java.net.InetSocketAddress remoteAddress() {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress a ? a : null;
    }

    /** The server's address of the connection, or null when the channel is not a TCP socket. Any thread. */
    java.net.InetSocketAddress localAddress() {
        return channel.localAddress() instanceof java.net.InetSocketAddress a ? a : null;
    }

    /** Sets what {@link #release} waits for; called once, when the session opens. */
    void setGate(Runnable gate) {
        this.gate = gate;
    }

    /**
     * From now until the next {@link #release}, messages are held here instead of queued on the
     * channel. Session thread, right after a statement returned before it was durable.
     */
    synchronized void hold() {
        if (held == null) {
            held = new ArrayList<>();
        }
    }

    /**
     * Runs the gate, then queues the held messages on the channel (without flushing). Session
     * thread; returns at once when nothing is held.
     *
     * @throws RuntimeException the gate's failure; the held messages are then dropped, so the
     *     client never sees the results of statements that may be lost
     */
    void release() {
        synchronized (this) {
            if (held == null) {
                return;
            }
        }
        try {
            gate.run();
        } catch (RuntimeException e) {
            discardHeld();
            throw e;
        }
        synchronized (this) {
            for (ByteBuf message : held) {
                channel.write(message, channel.voidPromise());
            }
            held = null;
        }
    }

    /** Drops the held messages (their statements' durability failed, or the client is gone). Any thread. */
    synchronized void discardHeld() {
        if (held != null) {
            held.forEach(ReferenceCountUtil::release);
            held = null;
        }
    }

    /** Queues a message without flushing; the channel takes ownership of the buffer. */
    synchronized void write(ByteBuf message) {
        if (ended) {
            ReferenceCountUtil.release(message);
            return;
        }
        if (held != null) {
            held.add(message);
            return;
        }
        channel.write(message, channel.voidPromise());
    }

    /**
     * Sends what is queued, after {@link #release} (which may wait, and throws as it does). Session
     * thread.
     */
    void flush() {
        release();
        channel.flush();
    }

    /**
     * Queues and flushes a message; safe from any thread (used for notices). While messages are
     * held, it joins them and goes out at the session's next flush point, in order.
     */
    synchronized void writeAndFlush(ByteBuf message) {
        if (ended) {
            ReferenceCountUtil.release(message);
            return;
        }
        if (held != null) {
            held.add(message);
            return;
        }
        channel.writeAndFlush(message, channel.voidPromise());
    }

    /**
     * Flushes what is queued, then closes the connection. Held messages go out only if the gate
     * passes; the connection closes either way.
     */
    void flushAndClose() {
        try {
            release();
        } catch (RuntimeException e) {
            // dropped with the held messages: the connection closes without them
        }
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Sends {@code last} (a FATAL error) after what is queued, drops anything written after it,
     * and closes the connection, as PostgreSQL's backend does when it is terminated. Any thread.
     */
    void closeWith(ByteBuf last) {
        synchronized (this) {
            if (ended) {
                ReferenceCountUtil.release(last);
                return;
            }
            discardHeld();
            ended = true;
            channel.write(last, channel.voidPromise());
        }
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
        flush();
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
