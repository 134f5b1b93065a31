package io.tributary.meta.epoch;

import io.tributary.storage.WriteBuffer;

/**
 * One change staged into an epoch through {@link BarrierManager#stage} or
 * {@link BarrierManager#stageAtBoundary}: what it writes, and what follows once that epoch is
 * durable or once its commit failed. Each kind of change is its own class, holding whatever its
 * staging learns (a job it started, the definition it replaced) for its hooks to use.
 *
 * <p>All three methods run with the barrier lock held, so they must not block or wait for a
 * commit. {@link #stage} runs on the staging thread; the hooks run on whichever thread commits
 * the epoch (the barrier thread, or a statement's thread committing early), before the epoch's
 * waiters wake. Exactly one of {@link #committed} and {@link #failed} runs, and only if
 * {@link #stage} returned normally.
 */
public interface EpochChange {
    /**
     * Adds this change's writes to the open epoch's {@code buffer}, and applies what must be
     * visible in memory at once. Throwing refuses the change: its writes are rolled back and the
     * exception reaches the caller of {@code stage}.
     */
    void stage(WriteBuffer buffer);

    /** The epoch holding this change is durable: publish what waited for it. */
    default void committed() {}

    /** The epoch holding this change was discarded: undo the in-memory effects of {@link #stage}. */
    default void failed() {}
}
