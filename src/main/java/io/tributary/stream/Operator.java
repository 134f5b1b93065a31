package io.tributary.stream;

/**
 * One streaming operator: consumes change chunks from its inputs and emits the resulting changes
 * to its output, keeping whatever it must remember in {@link StateTable}s so it can be rebuilt
 * after a restart from the committed state alone.
 *
 * <p>Contract. All calls come from the one actor thread that owns the operator, never
 * concurrently. Input streams are consistent: a DELETE always removes a row that an earlier
 * INSERT on the same input added and that was not removed since. {@link #onChunk} may emit
 * any number of changes; the operator's output must be consistent in the same sense.
 * {@link #onBarrier} is called once all inputs have delivered the barrier: the operator emits
 * whatever output it still holds back for the epoch, then writes every state change since the
 * previous barrier to {@code writes} (via {@link StateTable#flush}). The writes become durable in
 * the epoch's commit together with every other operator's; until then no later epoch's input
 * arrives, so reads of committed state never miss flushed writes.
 *
 * <p>A restored operator (built over the committed state of an earlier run) must continue as if
 * the run had not stopped at the last committed barrier.
 */
public interface Operator {
    /**
     * Processes changes from input {@code input} (0 for single-input operators; 0 = left and
     * 1 = right for joins; the branch index for unions).
     */
    void onChunk(int input, Chunk chunk, Output out);

    /** Emits held-back output and flushes state; see the class contract. */
    void onBarrier(Barrier barrier, Output out, StateWrites writes);

    /**
     * The most changes this operator holds in memory for any one of its state tables until its
     * next barrier: pending writes, plus rows or groups whose output (and so whose write) waits
     * for the barrier; or -1 when it does not count them.
     * A backfilling job checkpoints once its operators hold {@code BackfillCoordinator.CHECKPOINT_ROWS}
     * of these (an actor with an operator answering -1 counts the rows it took in instead), so an
     * aggregation whose groups absorb many rows checkpoints by what it holds, not by rows read.
     * Called by the actor thread after each chunk; must be cheap (no scan of state).
     */
    default long heldChanges() {
        return -1;
    }

    /**
     * Its job is about to join the live flow: the changes from here on meet the epoch barrier the
     * foreground writers wait for, so an operator stops work that only pays off at a checkpoint
     * (a backfill's files). Called by the actor thread before it reads its inputs' remaining log.
     */
    default void onJoinLive() {}

    /**
     * Releases what the operator holds outside the heap and the store (a file it was writing);
     * called once by the actor thread as it ends, after the last barrier it passed. Whatever was
     * not handed over at a barrier is dropped, as a restart drops it.
     */
    default void close() {}
}
