package io.tributary.stream.runtime;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Knows which actors are running and waits, for an epoch, until every one of them has passed its
 * barrier and handed over its state writes. Actors register before they can receive a barrier and
 * leave only between epochs (both under the barrier manager's lock). Thread-safe.
 */
final class BarrierCollector {
    private final Set<Actor> actors = new LinkedHashSet<>();
    private final Map<Actor, EpochWrites> collected = new HashMap<>();
    private long epoch;
    private String failure;

    synchronized void register(Actor actor) {
        actors.add(actor);
    }

    synchronized void unregister(Actor actor) {
        actors.remove(actor);
        collected.remove(actor);
        notifyAll();
    }

    /** Actor thread: it passed barrier {@code barrierEpoch}; {@code writes} are its state changes. */
    synchronized void collected(Actor actor, long barrierEpoch, EpochWrites writes) {
        if (barrierEpoch != epoch) {
            failed(
                    actor,
                    new IllegalStateException("barrier for epoch " + barrierEpoch + " arrived while epoch " + epoch
                            + " is being collected"));
            return;
        }
        collected.put(actor, writes);
        notifyAll();
    }

    /** Actor thread: the actor stopped with an error; the epoch being collected cannot commit. */
    synchronized void failed(Actor actor, Throwable error) {
        if (failure == null) {
            failure = actor.name() + ": " + error;
        }
        notifyAll();
    }

    /** Committing thread, before injecting the barrier of {@code next}. */
    synchronized void begin(long next) {
        epoch = next;
        collected.clear();
    }

    /**
     * Committing thread: waits until every registered actor collected the current epoch.
     *
     * @return the writes, one entry per actor
     * @throws TributaryException XX000 when an actor failed
     */
    synchronized List<EpochWrites> await() {
        boolean interrupted = false;
        try {
            while (failure == null && collected.size() < actors.size()) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "a streaming job failed: " + failure);
        }
        return new ArrayList<>(collected.values());
    }

    /** Forgets a failure once the engine has been rebuilt from committed state. */
    synchronized void reset() {
        failure = null;
        collected.clear();
    }
}
