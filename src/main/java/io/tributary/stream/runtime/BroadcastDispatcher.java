package io.tributary.stream.runtime;

import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;

/**
 * Sends every chunk to every downstream actor: a dimension join's small side, which each join
 * actor holds whole. The actors share the chunk and its rows, which no operator changes in place;
 * it is decoded before the first send, so no receiver decodes a row another one reads. Sender's
 * thread only.
 */
final class BroadcastDispatcher implements Dispatcher {
    private final Channel[] targets;

    /** @param targets one channel per downstream actor */
    BroadcastDispatcher(Channel[] targets) {
        this.targets = targets;
    }

    @Override
    public void dispatch(Chunk chunk) {
        chunk.decodeAll();
        for (Channel c : targets) {
            c.send(chunk);
        }
    }

    @Override
    public void barrier(Barrier barrier) {
        for (Channel c : targets) {
            c.send(barrier);
        }
    }
}
