package io.tributary.stream.runtime;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A bounded queue of messages ({@code Chunk}s and {@code Barrier}s) from exactly one sender to
 * one receiving actor. A full channel blocks its sender: that is the engine's back-pressure. The
 * receiver is woken by {@link LockSupport#unpark} and polls; a permit given before it parks is
 * kept, so no wake-up is lost.
 */
final class Channel {
    /** Chunks in flight per channel: enough to keep both sides busy, little enough to bound memory. */
    static final int CAPACITY = 16;

    private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(CAPACITY);
    private volatile Thread receiver;

    /** Binds the receiving thread; called once by the receiving actor when it starts. */
    void bindReceiver(Thread thread) {
        this.receiver = thread;
        if (!queue.isEmpty()) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Sender's thread: enqueues, waiting while the channel is full. Interrupts while waiting are
     * remembered and re-asserted after the message is in, because a half-delivered epoch would
     * break the stream.
     */
    void send(Object message) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(message);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        Thread r = receiver;
        if (r != null) {
            LockSupport.unpark(r);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Receiver's thread: the next message, or null when none is waiting. */
    Object poll() {
        return queue.poll();
    }

    /** Drops everything queued, unblocking a sender; used when the receiver is stopped. */
    void drain() {
        queue.clear();
    }
}
