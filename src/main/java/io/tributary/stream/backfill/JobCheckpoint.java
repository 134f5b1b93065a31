package io.tributary.stream.backfill;

import io.tributary.stream.Barrier;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.List;

/**
 * One checkpoint of a job being backfilled: collects the state writes of each of the job's actors
 * as they pass its barrier, and tells them when the coordinator has written them. An actor that
 * passed it goes on and waits for it ({@link #awaitDurable}) only at its next barrier or after
 * {@link BackfillCoordinator#CHECKPOINT_ROWS} more rows; the coordinator ends every checkpoint
 * durable or abandoned, so that wait always ends. Thread-safe.
 */
final class JobCheckpoint implements Barrier.Checkpoint {
    private final int actors;
    private final List<StateWrites> writes = new ArrayList<>();
    private boolean durable;
    private boolean abandoned;

    JobCheckpoint(int actors) {
        this.actors = actors;
    }

    @Override
    public synchronized void passed(StateWrites actorWrites) {
        writes.add(actorWrites);
        notifyAll();
    }

    @Override
    public synchronized void awaitDurable() throws InterruptedException {
        while (!durable) {
            if (abandoned) {
                throw new InterruptedException("the checkpoint was abandoned");
            }
            wait();
        }
    }

    /**
     * Coordinator thread: the writes of every actor, once all passed; null when {@code timeoutMs}
     * elapsed first (an actor is stuck or failed).
     */
    synchronized List<StateWrites> awaitAll(long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (writes.size() < actors) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return null;
            }
            wait(left);
        }
        return new ArrayList<>(writes);
    }

    synchronized void markDurable() {
        durable = true;
        notifyAll();
    }

    /** The job stops: actors waiting for durability give up. */
    synchronized void abandon() {
        abandoned = true;
        notifyAll();
    }

    /**
     * Coordinator thread, leaving the checkpoint however it ended (written, stopped, failed):
     * actors still waiting for it give up unless it was written, so none waits on a checkpoint
     * nobody will write.
     */
    synchronized void abandonUnlessDurable() {
        if (!durable) {
            abandon();
        }
    }
}
