package io.tributary.stream.runtime;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A bounded queue of messages ({@code Chunk}s and {@code Barrier}s) from exactly one sender to
 * one receiving actor. A full channel blocks its sender: that is the engine's back-pressure. The
 * receiver is woken by {@link LockSupport#unpark} and polls; a permit given before it parks is
 * kept, so no wake-up is lost.
 */
public final class Channel {
    /** Chunks in flight per channel: enough to keep both sides busy, little enough to bound memory. */
    static final int CAPACITY = 16;

    private static final long OFFER_WAIT_MS = 50;

    private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(CAPACITY);
    private volatile Thread receiver;
    private volatile boolean closed;

    /** Binds the receiving thread; called once by the receiving actor when it starts. */
    void bindReceiver(Thread thread) {
        this.receiver = thread;
        if (!queue.isEmpty()) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Sender's thread: enqueues, waiting while the channel is full; drops the message once the
     * channel is {@link #close closed}. Interrupts while waiting are remembered and re-asserted
     * after the message is in, because a half-delivered epoch would break the stream.
     */
    public void send(Object message) {
        if (message instanceof io.tributary.stream.Chunk chunk) {
            // the receiver reads it on its own thread: no row may be left to decode lazily there
            chunk.decodeAll();
        }
        boolean interrupted = false;
        while (!closed) {
            try {
                if (queue.offer(message, OFFER_WAIT_MS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    break;
                }
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

    /**
     * The receiver is gone (stopped or failed): drops everything queued and everything sent from
     * now on, so no sender can block on it, least of all DML holding the barrier lock.
     */
    void close() {
        closed = true;
        queue.clear();
    }
}
