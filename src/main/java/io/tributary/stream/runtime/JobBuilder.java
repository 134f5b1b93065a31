package io.tributary.stream.runtime;

import io.tributary.common.types.DataType;
import io.tributary.plan.Distribution;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.Field;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.SourceNode;
import io.tributary.plan.StreamNode;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Turns a view's stream plan into actors: cuts it into fragments at exchanges, runs each fragment
 * as {@code parallelism} actors (one for fragments whose output is single), connects fragments by
 * hash-routed channels and sources by subscriptions to upstream feeds. One use, on the thread
 * creating the job.
 */
final class JobBuilder {
    /** A plan node occurrence with its state table ids; occurrences are unique even if plan nodes are shared. */
    private record Occurrence(StreamNode node, int[] stateTableIds, List<Occurrence> inputs) {
    }

    private final String name;
    private final StateStore store;
    private final BarrierCollector collector;
    private final Function<SourceNode, RelationFeed> feeds;
    private final int parallelism;
    private final SnapshotBackfill.Shared snapshot;
    private final List<Actor> actors = new ArrayList<>();
    private final List<RelationFeed.Subscription> subscriptions = new ArrayList<>();
    private final List<ReadView> openedViews = new ArrayList<>();
    private int nextStateTable;
    private int fragmentCount;

    /** @param snapshot the upstreams' rows to replay first (a new job), or null (a restored job) */
    JobBuilder(String name, StateStore store, BarrierCollector collector, Function<SourceNode, RelationFeed> feeds,
            int parallelism, SnapshotBackfill.Shared snapshot) {
        this.name = name;
        this.store = store;
        this.collector = collector;
        this.feeds = feeds;
        this.parallelism = parallelism;
        this.snapshot = snapshot;
    }

    StreamJob build(MaterializeNode root, int[] stateTableIds) {
        Occurrence tree = occurrence(root, stateTableIds);
        int p = parallelismOf(root);
        RelationFeed feed = new RelationFeed(root.relationId(), root.streamKey(),
                types(root.fields(), root.streamKey()), p);
        buildFragment(tree, p, feed::slot);
        return new StreamJob(actors, subscriptions, feed);
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

    private Occurrence occurrence(StreamNode node, int[] ids) {
        int[] mine = java.util.Arrays.copyOfRange(ids, nextStateTable, nextStateTable + node.stateTableCount());
        nextStateTable += node.stateTableCount();
        List<Occurrence> inputs = new ArrayList<>();
        for (StreamNode input : node.inputs()) {
            inputs.add(occurrence(input, ids));
        }
        return new Occurrence(node, mine, inputs);
    }

    private int parallelismOf(StreamNode fragmentRoot) {
        return fragmentRoot.distribution().kind() == Distribution.Kind.SINGLE ? 1 : parallelism;
    }

    /** A leaf of a fragment: an exchange or source occurrence at tree node {@code index}. */
    private record Leaf(Occurrence occurrence, int index) {
    }

    private void buildFragment(Occurrence root, int p, IntFunction<Dispatcher> outputs) {
        int fragment = fragmentCount++;
        List<List<Actor.Node>> nodesByActor = new ArrayList<>();
        List<ReadView> views = new ArrayList<>();
        List<Leaf> leaves = new ArrayList<>();
        for (int i = 0; i < p; i++) {
            ReadView view = store.latest();
            views.add(view);
            openedViews.add(view);
            List<Actor.Node> nodes = new ArrayList<>();
            List<Leaf> found = new ArrayList<>();
            visit(root, -1, 0, nodes, found, view, true);
            nodesByActor.add(nodes);
            if (i == 0) {
                leaves = found;
            }
        }
        List<List<Actor.Input>> inputs = new ArrayList<>();
        List<List<SnapshotBackfill>> backfills = new ArrayList<>();
        for (int i = 0; i < p; i++) {
            inputs.add(new ArrayList<>());
            backfills.add(new ArrayList<>());
        }
        VnodeMapping mapping = new VnodeMapping(p);
        for (Leaf leaf : leaves) {
            if (leaf.occurrence().node() instanceof SourceNode source) {
                RelationFeed.Subscription s = feeds.apply(source).subscribe(p);
                subscriptions.add(s);
                for (int i = 0; i < p; i++) {
                    for (Channel c : s.channelsByActor().get(i)) {
                        inputs.get(i).add(new Actor.Input(c, leaf.index()));
                    }
                    if (snapshot != null) {
                        backfills.get(i).add(new SnapshotBackfill(snapshot, source.relationId(),
                                types(source.fields(), null), mapping.owned(i), leaf.index()));
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
                        inputs.get(i).add(new Actor.Input(channels[j][i], leaf.index()));
                    }
                }
                int[] keys = exchange.distribution().keys();
                List<DataType> keyTypes = types(exchange.fields(), keys);
                buildFragment(child, childP, j -> new HashDispatcher(keys, keyTypes, mapping, channels[j]));
            }
        }
        for (int i = 0; i < p; i++) {
            actors.add(new Actor(name + "/" + fragment + "/" + i, nodesByActor.get(i).toArray(new Actor.Node[0]),
                    inputs.get(i), outputs.apply(i), collector, backfills.get(i), views.get(i)));
        }
    }

    private void visit(Occurrence o, int parent, int port, List<Actor.Node> nodes, List<Leaf> leaves,
            ReadView view, boolean isRoot) {
        int index = nodes.size();
        StreamNode node = o.node();
        if (node instanceof SourceNode || !isRoot && node instanceof ExchangeNode) {
            nodes.add(new Actor.Node(null, parent, port));
            leaves.add(new Leaf(o, index));
            return;
        }
        nodes.add(new Actor.Node(OperatorFactory.create(node, o.stateTableIds(), view), parent, port));
        for (int k = 0; k < o.inputs().size(); k++) {
            visit(o.inputs().get(k), index, k, nodes, leaves, view, false);
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
