package io.tributary.stream.runtime;

import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;

/** Where an actor's (or a table's) output goes: one or more downstream channels. Sender's thread only. */
interface Dispatcher {
    void dispatch(Chunk chunk);

    /** Sends the barrier to every downstream channel, after all chunks dispatched before it. */
    void barrier(Barrier barrier);
}
