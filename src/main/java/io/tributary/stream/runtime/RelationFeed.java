package io.tributary.stream.runtime;

import io.tributary.common.types.DataType;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The change stream of one table or materialized view, fanned out to the jobs reading it. It has
 * one sending slot per upstream sender (one for a table, whose changes come from DML under the
 * barrier lock; one per materializing actor for a view) and gives every subscriber a channel per
 * (slot, subscribing actor), routed by the vnode of the relation's primary key, so a subscriber's
 * actor i receives exactly the rows of the vnodes it owns. Subscribing and unsubscribing happen
 * between epochs; sending happens on each slot's own thread.
 */
final class RelationFeed {
    private final int relationId;
    private final int[] keyColumns;
    private final List<DataType> keyTypes;
    private final List<DataType> columnTypes;
    private final List<CopyOnWriteArrayList<Dispatcher>> slots = new ArrayList<>();

    /** Channels for one subscribing job: for each of its actors, one channel per slot. */
    record Subscription(RelationFeed feed, List<List<Channel>> channelsByActor, List<Dispatcher> dispatchers) {}

    RelationFeed(int relationId, int[] keyColumns, List<DataType> keyTypes, List<DataType> columnTypes, int slotCount) {
        this.relationId = relationId;
        this.columnTypes = columnTypes;
        this.keyColumns = keyColumns;
        this.keyTypes = keyTypes;
        for (int i = 0; i < slotCount; i++) {
            slots.add(new CopyOnWriteArrayList<>());
        }
    }

    int relationId() {
        return relationId;
    }

    boolean hasSubscribers() {
        for (List<Dispatcher> s : slots) {
            if (!s.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Subscribes a job's {@code parallelism} actors; they receive every change sent from now on. */
    Subscription subscribe(int parallelism) {
        Subscription s = prepare(parallelism);
        attach(s);
        return s;
    }

    /**
     * Creates a subscription's channels without attaching them: nothing is sent to them until
     * {@link #attach}. A backfilling job reads its upstream's snapshot and log until it joins.
     */
    Subscription prepare(int parallelism) {
        VnodeMapping mapping = new VnodeMapping(parallelism);
        List<List<Channel>> byActor = new ArrayList<>();
        for (int a = 0; a < parallelism; a++) {
            byActor.add(new ArrayList<>());
        }
        List<Dispatcher> dispatchers = new ArrayList<>();
        for (int slot = 0; slot < slots.size(); slot++) {
            Channel[] targets = new Channel[parallelism];
            for (int a = 0; a < parallelism; a++) {
                targets[a] = new Channel();
                byActor.get(a).add(targets[a]);
            }
            dispatchers.add(new HashDispatcher(keyColumns, keyTypes, mapping, targets));
        }
        return new Subscription(this, byActor, dispatchers);
    }

    /** Starts sending to a prepared subscription; between epochs, under the barrier lock. */
    void attach(Subscription s) {
        for (int i = 0; i < slots.size(); i++) {
            slots.get(i).add(s.dispatchers().get(i));
        }
    }

    /** Sends every slot's changes to {@code recorders} too (one per slot), e.g. to keep a change log. */
    void attachRecorders(List<? extends Dispatcher> recorders) {
        for (int i = 0; i < slots.size(); i++) {
            slots.get(i).add(recorders.get(i));
        }
    }

    void detachRecorders(List<? extends Dispatcher> recorders) {
        for (int i = 0; i < slots.size(); i++) {
            slots.get(i).remove(recorders.get(i));
        }
    }

    int slotCount() {
        return slots.size();
    }

    int[] keyColumns() {
        return keyColumns;
    }

    List<DataType> keyTypes() {
        return keyTypes;
    }

    /** The types of the relation's full rows, as stored. */
    List<DataType> columnTypes() {
        return columnTypes;
    }

    void unsubscribe(Subscription s) {
        for (int i = 0; i < slots.size(); i++) {
            slots.get(i).remove(s.dispatchers().get(i));
        }
    }

    /** The dispatcher sending slot {@code slot} uses. */
    Dispatcher slot(int slot) {
        List<Dispatcher> subscribers = slots.get(slot);
        return new Dispatcher() {
            @Override
            public void dispatch(Chunk chunk) {
                for (Dispatcher d : subscribers) {
                    d.dispatch(chunk);
                }
            }

            @Override
            public void barrier(Barrier barrier) {
                for (Dispatcher d : subscribers) {
                    d.barrier(barrier);
                }
            }
        };
    }
}
