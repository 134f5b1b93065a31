package io.tributary.stream.runtime;

import io.tributary.plan.MaterializeNode;
import io.tributary.plan.SourceNode;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.StateWrites;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streaming engine of one database: the running view jobs, the change feeds of the tables and
 * views they read, and the collection of every actor's state writes at each barrier.
 *
 * <p>Threading contract: {@link #launch}, {@link #stop}, {@link #emit} and {@link #barrier} are
 * called under the barrier manager's lock, so they never overlap; {@link #emit} from the DML
 * thread staging a statement, {@link #barrier} from the thread committing an epoch. Everything
 * emitted before a barrier belongs to that barrier's epoch.
 */
public final class StreamRuntime implements AutoCloseable {
    private final StateStore store;
    private final BarrierCollector collector = new BarrierCollector();
    private final Map<Integer, RelationFeed> tableFeeds = new ConcurrentHashMap<>();
    private final Map<Integer, StreamJob> jobs = new ConcurrentHashMap<>();

    public StreamRuntime(StateStore store) {
        this.store = store;
    }

    /** Whether some job reads table {@code tableId}: only then does DML need to emit its changes. */
    public boolean hasSubscribers(int tableId) {
        RelationFeed feed = tableFeeds.get(tableId);
        return feed != null && feed.hasSubscribers();
    }

    /** DML thread, under the barrier lock: a statement's changes to a table, in order. */
    public void emit(int tableId, Chunk chunk) {
        RelationFeed feed = tableFeeds.get(tableId);
        if (feed != null) {
            feed.slot(0).dispatch(chunk);
        }
    }

    /**
     * Builds and starts the job maintaining a view. Under the barrier lock, between epochs.
     *
     * @param stateTableIds the view's state table ids in plan order
     * @param snapshot the committed state to backfill from (a new view; the job takes ownership
     *     and closes it), or null to resume from the view's own committed state
     */
    public void launch(MaterializeNode root, int[] stateTableIds, int parallelism, ReadView snapshot) {
        SnapshotBackfill.Shared shared = snapshot == null ? null : new SnapshotBackfill.Shared(snapshot);
        StreamJob job;
        JobBuilder builder = new JobBuilder(root.relationName(), store, collector, this::feedOf, parallelism, shared);
        try {
            job = builder.build(root, stateTableIds);
        } catch (RuntimeException | Error e) {
            builder.abandon();
            throw e;
        } finally {
            if (shared != null) {
                shared.release();
            }
        }
        jobs.put(root.relationId(), job);
        job.start();
    }

    /** Stops a view's job; under the barrier lock, between epochs. No-op for an unknown view. */
    public void stop(int viewId) {
        StreamJob job = jobs.remove(viewId);
        if (job != null) {
            job.stop();
            tableFeeds.values().removeIf(f -> !f.hasSubscribers());
        }
    }

    /** Stops every job, e.g. to rebuild them all from committed state after a failed epoch. */
    public void stopAll() {
        for (Integer id : List.copyOf(jobs.keySet())) {
            stop(id);
        }
        collector.reset();
    }


    /**
     * Committing thread, under the barrier lock: sends the barrier of {@code epoch} into every
     * table feed, waits until every actor has passed it, and writes their state changes to
     * {@code sink}.
     *
     * @throws io.tributary.common.TributaryException when an actor failed; the epoch must not commit
     */
    public void barrier(long epoch, StateWrites sink) {
        if (jobs.isEmpty()) {
            return;
        }
        collector.begin(epoch);
        Barrier barrier = new Barrier(epoch);
        for (RelationFeed feed : tableFeeds.values()) {
            feed.slot(0).barrier(barrier);
        }
        for (EpochWrites writes : collector.await()) {
            writes.replay(sink);
        }
    }

    private RelationFeed feedOf(SourceNode source) {
        StreamJob upstream = jobs.get(source.relationId());
        if (upstream != null) {
            return upstream.feed();
        }
        return tableFeeds.computeIfAbsent(source.relationId(), id -> new RelationFeed(id, source.streamKey(),
                JobBuilder.types(source.fields(), source.streamKey()), 1));
    }

    @Override
    public void close() {
        stopAll();
    }
}
