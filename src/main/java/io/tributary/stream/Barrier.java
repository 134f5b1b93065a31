package io.tributary.stream;

/**
 * Closes epoch {@code epoch} on a stream: every change before it belongs to that epoch or an
 * earlier one. Passing it, a stateful operator hands that epoch's state changes over for the
 * epoch's single atomic commit.
 *
 * <p>A view being backfilled does not take part in the epochs until it has caught up; its actors
 * pass checkpoint barriers instead ({@code checkpoint} not null, {@code epoch} a sequence number
 * of the job), whose writes the job commits on its own.
 */
public record Barrier(long epoch, Checkpoint checkpoint) {
    public Barrier(long epoch) {
        this(epoch, null);
    }

    /** The collection point of one checkpoint of a job being backfilled. Thread-safe. */
    public interface Checkpoint {
        /** Actor thread: the actor passed the checkpoint; {@code writes} are its state changes since the last one. */
        void passed(StateWrites writes);

        /**
         * Actor thread, after {@link #passed} and before it passes the next barrier: waits until
         * the checkpoint is durable, so the committed state its state tables read from then on
         * includes it (until then they read its writes from memory).
         *
         * @throws InterruptedException when the job is being stopped
         */
        void awaitDurable() throws InterruptedException;
    }
}
