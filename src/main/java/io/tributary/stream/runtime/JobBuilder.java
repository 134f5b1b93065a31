package io.tributary.stream.runtime;

import io.tributary.common.types.DataType;
import io.tributary.plan.ColumnsRead;
import io.tributary.plan.Distribution;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.Field;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.PlanPrinter;
import io.tributary.plan.SourceNode;
import io.tributary.plan.StreamNode;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.stream.WatermarkReader;
import io.tributary.stream.backfill.BackfillInput;
import io.tributary.stream.backfill.BackfillRate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Turns a view's stream plan into actors: cuts it into fragments at exchanges, runs each fragment
 * as {@code parallelism} actors (one for fragments whose output is single), connects fragments by
 * hash-routed (or, for a broadcast exchange, copied-to-all) channels and sources by subscriptions to upstream feeds. One use, on the thread
 * creating the job.
 */
final class JobBuilder {
    /** A plan node occurrence with its state table ids; occurrences are unique even if plan nodes are shared. */
    private record Occurrence(StreamNode node, int[] stateTableIds, int planNode, List<Occurrence> inputs) {}

    /** A plan graph node: its fragment and operator name, as {@code OperatorRows} reports them. */
    record PlanNode(int fragment, String operator) {}

    private final String name;
    private final StateStore store;
    private final BarrierCollector collector;
    private final Function<SourceNode, RelationFeed> feeds;
    private final int parallelism;
    private final Backfill backfill;
    private final FailureRouter failures;
    private final List<Actor> actors = new ArrayList<>();
    private final List<Channel> sourceChannels = new ArrayList<>();
    private final List<BackfillInput> backfills = new ArrayList<>();
    /** The relation each source reads, by source ordinal (plan order). */
    private final List<Integer> sourceRelations = new ArrayList<>();

    private int sourceCount;
    private final List<RelationFeed.Subscription> subscriptions = new ArrayList<>();
    private final List<ReadView> openedViews = new ArrayList<>();
    private int nextStateTable;
    private int fragmentCount;
    /** The plan graph's nodes by number: occurrences other than exchanges, in pre-order. */
    private final List<PlanNode> planNodes = new ArrayList<>();
    /** Each occurrence's parent (the root has none); by identity, as equal records may occur twice. */
    private final Map<Occurrence, Occurrence> parents = new IdentityHashMap<>();
    /** Fragments numbered as the plan graph numbers them (pre-order); {@link #fragmentCount} counts as built. */
    private int planFragments = 1;

    /**
     * What a job being backfilled reads: per upstream relation id its snapshot and log, the table
     * its per-vnode positions are kept in, and its rate. With {@code live} set the job is live and
     * {@code upstreams} holds only the relations it keeps following by their logs (other databases'
     * tables, {@link io.tributary.stream.UpstreamTable#joinsLive}); its other sources are live feeds.
     */
    record Backfill(
            java.util.Map<Integer, io.tributary.stream.UpstreamTable> upstreams,
            int progressTableId,
            BackfillRate rate,
            boolean live,
            java.util.concurrent.locks.Lock followerGate) {}

    /** The actors of a built job and what a backfilling job's coordinator needs. */
    record Built(
            StreamJob job,
            List<Channel> sourceChannels,
            List<BackfillInput> backfills,
            List<Integer> sourceRelations) {}

    private final WatermarkReader watermarks;

    /**
     * @param backfill what to backfill from (a job being created), or null (a job that is live)
     * @param watermarks the table watermarks operators clean state by
     */
    JobBuilder(
            String name,
            StateStore store,
            BarrierCollector collector,
            Function<SourceNode, RelationFeed> feeds,
            int parallelism,
            Backfill backfill,
            FailureRouter failures,
            WatermarkReader watermarks) {
        this.name = name;
        this.watermarks = watermarks;
        this.store = store;
        this.collector = collector;
        this.feeds = feeds;
        this.parallelism = parallelism;
        this.backfill = backfill;
        this.failures = failures;
    }

    /**
     * The time of the snapshot a job being created reads (its upstreams' latest snapshot epoch), 0
     * for a live job: temporal filters judge the snapshot's rows at it, so a backfill is the same
     * wherever and whenever it runs.
     */
    private long snapshotMillis() {
        if (backfill == null || backfill.live()) {
            return 0;
        }
        long epoch = 0;
        for (io.tributary.stream.UpstreamTable upstream : backfill.upstreams().values()) {
            epoch = Math.max(epoch, upstream.snapshotEpoch());
        }
        return io.tributary.common.Epoch.millis(epoch);
    }

    Built build(MaterializeNode root, int[] stateTableIds) {
        Occurrence tree = occurrence(root, stateTableIds, 0);
        int p = parallelismOf(root);
        RelationFeed feed = new RelationFeed(
                root.relationId(),
                root.streamKey(),
                types(root.fields(), root.streamKey()),
                types(root.fields(), null),
                p);
        buildFragment(tree, p, feed::slot);
        return new Built(
                new StreamJob(actors, subscriptions, feed, sourceChannels, failures, List.copyOf(planNodes)),
                sourceChannels,
                backfills,
                sourceRelations);
    }

    /**
     * Undoes a build that failed halfway: cancels the subscriptions made so far (or upstream
     * writers would block on channels nobody reads) and releases the actors' state views.
     */
    void abandon() {
        for (RelationFeed.Subscription s : subscriptions) {
            s.feed().unsubscribe(s);
        }
        for (ReadView view : openedViews) {
            view.close();
        }
    }

    /** Numbers nodes and fragments in the pre-order the plan graph ({@code PlanGraph}, EXPLAIN) uses. */
    private Occurrence occurrence(StreamNode node, int[] ids, int fragment) {
        int[] mine = java.util.Arrays.copyOfRange(ids, nextStateTable, nextStateTable + node.stateTableCount());
        nextStateTable += node.stateTableCount();
        int planNode = -1;
        int inputFragment = fragment;
        if (node instanceof ExchangeNode) {
            inputFragment = planFragments++;
        } else {
            planNode = planNodes.size();
            String text = PlanPrinter.operatorText(node);
            int space = text.indexOf(' ');
            planNodes.add(new PlanNode(fragment, space < 0 ? text : text.substring(0, space)));
        }
        List<Occurrence> inputs = new ArrayList<>();
        for (StreamNode input : node.inputs()) {
            inputs.add(occurrence(input, ids, inputFragment));
        }
        Occurrence o = new Occurrence(node, mine, planNode, inputs);
        for (Occurrence input : inputs) {
            parents.put(input, o);
        }
        return o;
    }

    /** {@code o}'s node, then its parent's, and so on up to the plan's root. */
    private List<StreamNode> chainUp(Occurrence o) {
        List<StreamNode> chain = new ArrayList<>();
        for (Occurrence at = o; at != null; at = parents.get(at)) {
            chain.add(at.node());
        }
        return chain;
    }

    private int parallelismOf(StreamNode fragmentRoot) {
        return fragmentRoot.distribution().kind() == Distribution.Kind.SINGLE ? 1 : parallelism;
    }

    /** A leaf of a fragment: an exchange or source occurrence at tree node {@code index}. */
    private record Leaf(Occurrence occurrence, int index) {}

    private void buildFragment(Occurrence root, int p, IntFunction<Dispatcher> outputs) {
        int fragment = fragmentCount++;
        List<List<Actor.Node>> nodesByActor = new ArrayList<>();
        List<ReadView> views = new ArrayList<>();
        List<Leaf> leaves = new ArrayList<>();
        VnodeMapping owners = new VnodeMapping(p);
        for (int i = 0; i < p; i++) {
            ReadView view = store.latest();
            views.add(view);
            openedViews.add(view);
            List<Actor.Node> nodes = new ArrayList<>();
            List<Leaf> found = new ArrayList<>();
            visit(root, -1, 0, nodes, found, view, owners.owned(i), true);
            nodesByActor.add(nodes);
            if (i == 0) {
                leaves = found;
            }
        }
        List<List<Actor.Input>> inputs = new ArrayList<>();
        List<List<BackfillInput>> actorBackfills = new ArrayList<>();
        for (int i = 0; i < p; i++) {
            inputs.add(new ArrayList<>());
            actorBackfills.add(new ArrayList<>());
        }
        VnodeMapping mapping = new VnodeMapping(p);
        Map<Occurrence, List<Occurrence>> buildSides = new IdentityHashMap<>();
        buildSidesFirst(root, true, buildSides);
        Map<Occurrence, List<BackfillInput>> leafBackfills = new IdentityHashMap<>();
        for (Leaf leaf : leaves) {
            int builtBefore = backfills.size();
            if (leaf.occurrence().node() instanceof SourceNode source) {
                RelationFeed feed = feeds.apply(source);
                boolean liveJob = backfill == null || backfill.live();
                RelationFeed.Subscription s = liveJob ? feed.subscribe(p) : feed.prepare(p);
                subscriptions.add(s);
                int ordinal = sourceCount++;
                sourceRelations.add(source.relationId());
                for (int i = 0; i < p; i++) {
                    BackfillInput b = null;
                    if (backfill != null && backfill.upstreams().containsKey(source.relationId())) {
                        b = new BackfillInput(
                                backfill.upstreams().get(source.relationId()),
                                source.streamKey(),
                                ColumnsRead.of(chainUp(leaf.occurrence())),
                                ordinal,
                                backfill.progressTableId(),
                                mapping.owned(i),
                                views.get(i),
                                backfill.rate(),
                                leaf.index(),
                                backfill.followerGate());
                        if (backfill.live()) {
                            b.startFollowing();
                        }
                        actorBackfills.get(i).add(b);
                        backfills.add(b);
                    }
                    for (Channel c : s.channelsByActor().get(i)) {
                        inputs.get(i).add(new Actor.Input(c, leaf.index(), b));
                        sourceChannels.add(c);
                    }
                }
            } else {
                ExchangeNode exchange = (ExchangeNode) leaf.occurrence().node();
                Occurrence child = leaf.occurrence().inputs().get(0);
                int childP = parallelismOf(child.node());
                Channel[][] channels = new Channel[childP][p];
                for (int j = 0; j < childP; j++) {
                    for (int i = 0; i < p; i++) {
                        channels[j][i] = new Channel();
                        inputs.get(i).add(new Actor.Input(channels[j][i], leaf.index(), null));
                    }
                }
                int[] keys = exchange.distribution().keys();
                List<DataType> keyTypes = types(exchange.fields(), keys);
                boolean broadcast = exchange.distribution().kind() == Distribution.Kind.BROADCAST;
                buildFragment(
                        child,
                        childP,
                        j -> broadcast
                                ? new BroadcastDispatcher(channels[j])
                                : new HashDispatcher(keys, keyTypes, mapping, channels[j]));
            }
            leafBackfills.put(leaf.occurrence(), List.copyOf(backfills.subList(builtBefore, backfills.size())));
        }
        if (backfill != null && !backfill.live()) {
            buildSides.forEach((source, exchanges) -> {
                List<BackfillInput> first = new ArrayList<>();
                exchanges.forEach(e -> first.addAll(leafBackfills.get(e)));
                leafBackfills.get(source).forEach(b -> b.readAfter(first));
            });
        }
        for (int i = 0; i < p; i++) {
            actors.add(new Actor(
                    name + "/" + fragment + "/" + i,
                    nodesByActor.get(i).toArray(new Actor.Node[0]),
                    inputs.get(i),
                    outputs.apply(i),
                    collector,
                    actorBackfills.get(i),
                    failures,
                    views.get(i)));
        }
    }

    /**
     * Finds, in the fragment rooted at {@code o}, the source leaves on the big (left) side of a
     * dimension join ({@link HashJoinNode#broadcastsRight()}) and maps each to the broadcast
     * exchanges whose fragments' snapshots it reads after (see {@link BackfillInput#readAfter}).
     */
    private static void buildSidesFirst(Occurrence o, boolean isRoot, Map<Occurrence, List<Occurrence>> out) {
        if (!isRoot && o.node() instanceof ExchangeNode) {
            return;
        }
        if (o.node() instanceof HashJoinNode join
                && join.broadcastsRight()
                && o.inputs().get(1).node() instanceof ExchangeNode) {
            Occurrence exchange = o.inputs().get(1);
            for (Occurrence source : sourcesOf(o.inputs().get(0), new ArrayList<>())) {
                out.computeIfAbsent(source, s -> new ArrayList<>()).add(exchange);
            }
        }
        for (Occurrence input : o.inputs()) {
            buildSidesFirst(input, false, out);
        }
    }

    /** The source leaves of the fragment below {@code o} (not past an exchange), added to {@code found}. */
    private static List<Occurrence> sourcesOf(Occurrence o, List<Occurrence> found) {
        if (o.node() instanceof SourceNode) {
            found.add(o);
        } else if (!(o.node() instanceof ExchangeNode)) {
            for (Occurrence input : o.inputs()) {
                sourcesOf(input, found);
            }
        }
        return found;
    }

    private void visit(
            Occurrence o,
            int parent,
            int port,
            List<Actor.Node> nodes,
            List<Leaf> leaves,
            ReadView view,
            int[] ownedVnodes,
            boolean isRoot) {
        int index = nodes.size();
        StreamNode node = o.node();
        if (node instanceof SourceNode || !isRoot && node instanceof ExchangeNode) {
            nodes.add(new Actor.Node(null, parent, port, o.planNode()));
            leaves.add(new Leaf(o, index));
            return;
        }
        nodes.add(new Actor.Node(
                OperatorFactory.create(
                        node,
                        o.stateTableIds(),
                        view,
                        watermarks,
                        ownedVnodes,
                        snapshotMillis(),
                        backfill == null || backfill.live() ? null : store::newSortedFile),
                parent,
                port,
                o.planNode()));
        for (int k = 0; k < o.inputs().size(); k++) {
            visit(o.inputs().get(k), index, k, nodes, leaves, view, ownedVnodes, false);
        }
    }

    /** Types of {@code columns} of {@code fields}, or of all fields when null. */
    static List<DataType> types(List<Field> fields, int[] columns) {
        if (columns == null) {
            return fields.stream().map(Field::type).toList();
        }
        List<DataType> out = new ArrayList<>();
        for (int c : columns) {
            out.add(fields.get(c).type());
        }
        return out;
    }
}
