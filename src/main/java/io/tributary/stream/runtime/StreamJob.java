package io.tributary.stream.runtime;

import io.tributary.stream.backfill.BackfillCoordinator;
import io.tributary.stream.backfill.BackfillInput;
import io.tributary.stream.backfill.BackfillProgress;
import io.tributary.stream.backfill.JoinLive;
import java.util.ArrayList;
import java.util.List;

/**
 * The running actors of one materialized view, the upstream subscriptions feeding them and the
 * feed of the view's own changes. A job being backfilled also has a coordinator and change-log
 * recorders on its upstreams until it joins the live flow. Started, joined and stopped between
 * epochs, under the barrier lock.
 */
final class StreamJob {
    private final List<Actor> actors;
    private final List<RelationFeed.Subscription> subscriptions;
    private final RelationFeed feed;
    private final List<Channel> sourceChannels;
    private final FailureRouter failures;
    private final List<JobBuilder.PlanNode> planNodes;
    private BackfillCoordinator coordinator;
    /** Sources that read their upstreams' logs while the job is live (other databases' relations). */
    private volatile List<BackfillInput> followers = List.of();

    private volatile List<Integer> followerRelations = List.of();
    /** Per upstream feed, the recorders keeping its change log for this job (one per slot). */
    private final java.util.Map<RelationFeed, List<ChangeLogRecorder>> recorders = new java.util.LinkedHashMap<>();

    StreamJob(
            List<Actor> actors,
            List<RelationFeed.Subscription> subscriptions,
            RelationFeed feed,
            List<Channel> sourceChannels,
            FailureRouter failures,
            List<JobBuilder.PlanNode> planNodes) {
        this.actors = actors;
        this.planNodes = planNodes;
        this.subscriptions = subscriptions;
        this.feed = feed;
        this.sourceChannels = sourceChannels;
        this.failures = failures;
    }

    RelationFeed feed() {
        return feed;
    }

    /** The rows in and out of each plan node so far, in plan graph order. Any thread (racy reads). */
    List<OperatorRows> operatorRows() {
        long[] in = new long[planNodes.size()];
        long[] out = new long[planNodes.size()];
        for (Actor a : actors) {
            a.operatorRows(in, out);
        }
        List<OperatorRows> rows = new ArrayList<>(planNodes.size());
        for (int i = 0; i < in.length; i++) {
            JobBuilder.PlanNode n = planNodes.get(i);
            rows.add(new OperatorRows(i, n.fragment(), n.operator(), in[i], out[i]));
        }
        return rows;
    }

    /**
     * What the job's operators hold for the next barrier, against the checkpoint budget; any thread
     * (racy reads). For a job whose operators all count what they hold, the actor that holds most:
     * the budget then bounds what one actor holds, as each actor's caches are bounded per actor
     * (groups, join buckets), so such a job's checkpoints do not come more often the more actors
     * share its rows. Summed, an aggregation whose distinct groups and MIN/MAX values fit each
     * actor's budget but not the job's re-wrote and re-emitted every group it held at checkpoints
     * every {@code CHECKPOINT_ROWS} rows. Once an actor counts rows taken in instead (a join, TopN, a
     * window), the sum over the actors: such a job holds about one state write per row in every
     * actor a row passes and re-emits nothing at a checkpoint, so checkpoints by the largest actor
     * only let its writes grow with the actor count; in the join of {@code bench backfill} that kept
     * about four times the writes per checkpoint, which outlived young collections and were copied
     * (quiet paired runs before and after the per-actor budget: join job CPU 5.3 and 4.7 s against
     * 5.9 and 5.9 s, collector 0.5 and 0.4 s against 0.8 and 1.0 s).
     */
    long heldChanges() {
        long largest = 0;
        long sum = 0;
        boolean countsRowsIn = false;
        for (Actor a : actors) {
            long h = a.heldChanges();
            largest = Math.max(largest, h);
            sum += h;
            countsRowsIn |= a.countsRowsIn();
        }
        return countsRowsIn ? sum : largest;
    }

    int actorCount() {
        return actors.size();
    }

    List<RelationFeed.Subscription> subscriptions() {
        return subscriptions;
    }

    /** Makes this a job being backfilled: it checkpoints on its own and logs its upstreams until it joins. */
    void backfillWith(BackfillCoordinator coordinator, java.util.Map<RelationFeed, List<ChangeLogRecorder>> logs) {
        this.coordinator = coordinator;
        this.recorders.putAll(logs);
    }

    /**
     * Marks {@code inputs} as sources this job follows by their upstreams' logs; {@code relations}
     * gives each source ordinal's relation id. Before {@link #start}.
     */
    void follow(List<BackfillInput> inputs, List<Integer> relations) {
        this.followers = List.copyOf(inputs);
        this.followerRelations = List.copyOf(relations);
    }

    /** See {@link StreamRuntime#followedThrough}; any thread. */
    java.util.Map<Integer, Long> followedThrough() {
        List<BackfillInput> inputs = followers;
        // a backfill's positions are durable at its own checkpoints, not at the epochs' commits
        if (inputs.isEmpty() || coordinator != null) {
            return java.util.Map.of();
        }
        java.util.Map<Integer, Long> out = new java.util.HashMap<>();
        for (BackfillInput b : inputs) {
            if (!b.live()) {
                out.merge(followerRelations.get(b.sourceOrdinal()), b.consumedThrough(), Math::min);
            }
        }
        return out;
    }

    boolean backfilling() {
        return coordinator != null;
    }

    /** The backfill's progress, or null when the job is live. */
    BackfillProgress progress() {
        BackfillCoordinator c = coordinator;
        return c == null ? null : c.progress();
    }

    List<ChangeLogRecorder> recorders() {
        return recorders.values().stream().flatMap(List::stream).toList();
    }

    void start() {
        boolean live = coordinator == null;
        for (java.util.Map.Entry<RelationFeed, List<ChangeLogRecorder>> e : recorders.entrySet()) {
            e.getKey().attachRecorders(e.getValue());
        }
        for (Actor a : actors) {
            a.start(live);
        }
        if (!live) {
            coordinator.start();
        }
    }

    /**
     * Joins the live flow after committed epoch {@code upTo}: the sources read their upstreams'
     * logs through {@code upTo}, then the live changes that follow in their channels; the actors
     * take part in every epoch from now on, and the upstreams are no longer logged for this job.
     */
    void join(long upTo, BarrierCollector collector) {
        for (Channel c : sourceChannels) {
            c.send(new JoinLive(upTo));
        }
        for (RelationFeed.Subscription s : subscriptions) {
            s.feed().attach(s);
        }
        detachRecorders();
        failures.route(collector::failed);
        for (Actor a : actors) {
            a.joinEpochs();
        }
        coordinator = null;
    }

    /** Unsubscribes from upstream first, so no sender can block on a channel nobody reads. */
    void stop() {
        for (RelationFeed.Subscription s : subscriptions) {
            s.feed().unsubscribe(s);
        }
        detachRecorders();
        actors.forEach(Actor::stop);
        if (coordinator != null) {
            coordinator.stop();
        }
    }

    private void detachRecorders() {
        for (java.util.Map.Entry<RelationFeed, List<ChangeLogRecorder>> e : recorders.entrySet()) {
            e.getKey().detachRecorders(e.getValue());
        }
        recorders.clear();
    }
}
