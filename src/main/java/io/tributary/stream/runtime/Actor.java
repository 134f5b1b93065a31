package io.tributary.stream.runtime;

import io.tributary.common.BackgroundPriority;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.backfill.BackfillCoordinator;
import io.tributary.stream.backfill.BackfillInput;
import io.tributary.stream.backfill.JoinLive;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One parallel instance of a fragment: a thread that reads its input channels, pushes chunks
 * through its operator tree and hands the root's output to a {@link Dispatcher}.
 *
 * <p>Barriers are aligned: once a barrier arrives on a channel, that channel is not read again
 * until the barrier has arrived on every input, so no change of the next epoch can overtake it.
 * Then every operator passes the barrier children-first, the barrier goes downstream, and the
 * operators' state writes go to the {@link BarrierCollector}, or, for the checkpoint barriers of a
 * job being backfilled, to that checkpoint. Such a job's source actors read their upstreams'
 * snapshots and logs ({@link BackfillInput}) each turn, after the messages waiting that turn, one
 * step per chunk those brought (at least one), until the job joins the live flow: not only when no
 * message waits, and keeping pace with the channels, since a join reading one
 * input from a channel and the other here would then read its local side only once the channel's
 * side was done, holding the whole of that side's rows before the first row of the other arrived.
 */
final class Actor {
    private static final Logger LOG = LoggerFactory.getLogger(Actor.class);
    /** How long an actor with a backfill still reading waits for work: its rate and its peers wake no one. */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * How long a live actor, or one whose backfills are all paused, waits for work. Senders,
     * {@link #stop} and a change of a paused backfill's rate wake it, so this only bounds a wake-up
     * that never comes; an idle view, or one whose snapshot a worker builds, costs a wake-up a second
     * per actor, not a hundred.
     */
    private static final long LIVE_IDLE_PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final int MESSAGES_PER_TURN = 8;

    /**
     * A position in the operator tree: an operator, or (op null) an input forwarding to its parent.
     * It counts the rows that go in and out of it: plain fields the actor thread adds each chunk's
     * size to, read racily (without locks) by {@link #operatorRows}, so a reading may lag by a chunk.
     */
    static final class Node {
        final Operator op;
        final int parent;
        final int parentPort;
        /** The node's number in the view's plan graph, or -1 for an exchange's receiving end. */
        final int planNode;

        NodeOutput out;
        long rowsIn;
        long rowsOut;

        Node(Operator op, int parent, int parentPort, int planNode) {
            this.op = op;
            this.parent = parent;
            this.parentPort = parentPort;
            this.planNode = planNode;
        }
    }

    /** A channel feeding tree node {@code node}; {@code backfill} is that node's backfill, if any. */
    record Input(Channel channel, int node, BackfillInput backfill) {}

    /** Where an actor's failure goes: the epoch collector, or a backfilling job's coordinator. */
    interface FailureSink {
        void failed(Actor actor, Throwable error);
    }

    private final String name;
    private final Node[] nodes;
    private final List<Input> inputs;
    private final Dispatcher output;
    private final BarrierCollector collector;
    private final List<BackfillInput> backfills;
    private final FailureSink failures;
    private final ReadView stateView;
    private final Thread thread;
    private volatile boolean stopped;
    /** Whether the job started backfilling; set before the thread starts. */
    private boolean startsBackfilling;
    /** Set when the job joins the live flow; the actor thread then takes its priority back. */
    private volatile boolean joinedEpochs;
    /**
     * This thread while lowered for its backfill ({@link BackgroundPriority}), raised back on
     * joining the live flow ({@link #joinEpochs}, or the thread itself when it lowered itself after
     * that) or by {@link #stop} before it waits for the thread;
     * {@link BackgroundPriority.LoweredThread#NONE} when it runs at its normal priority.
     */
    private volatile BackgroundPriority.LoweredThread lowered = BackgroundPriority.LoweredThread.NONE;
    /**
     * The backfill checkpoint this actor passed last, until it is known durable. The actor goes on
     * reading and processing while the job's coordinator writes it (the state tables keep its
     * writes readable meanwhile), and waits for it only at the next barrier, so a checkpoint's
     * write overlaps the next rows' work instead of stopping every actor of the job.
     */
    private Barrier.Checkpoint undurable;
    /** Rows this actor's backfills read since it passed the last barrier. */
    private long backfillRowsSinceBarrier;
    /** Rows that entered this actor's tree (from channels or backfills) since it passed the last barrier. */
    private long rowsSinceBarrier;
    /**
     * What this actor's operators hold for the next barrier ({@link Operator#heldChanges}), or its
     * rows since the barrier when an operator does not count; written by the actor thread after
     * each chunk and barrier, read by the backfill coordinator to decide when to checkpoint.
     */
    private volatile long heldChanges;
    /**
     * Whether {@link #heldChanges} counts rows taken in because an operator does not count what it
     * holds; written by the actor thread just before {@link #heldChanges}, read by the coordinator.
     */
    private volatile boolean countsRowsIn;

    /**
     * @param nodes the operator tree in pre-order (parents before children); parent -1 is the root
     * @param stateView the view the operators' state tables read; closed when the actor ends
     */
    Actor(
            String name,
            Node[] nodes,
            List<Input> inputs,
            Dispatcher output,
            BarrierCollector collector,
            List<BackfillInput> backfills,
            FailureSink failures,
            ReadView stateView) {
        this.name = name;
        this.failures = failures;
        this.nodes = nodes;
        this.inputs = inputs;
        this.output = output;
        this.collector = collector;
        this.backfills = backfills;
        this.stateView = stateView;
        for (int i = 0; i < nodes.length; i++) {
            nodes[i].out = new NodeOutput(i);
        }
        this.thread = new Thread(this::run, "actor-" + name);
        this.thread.setDaemon(true);
    }

    String name() {
        return name;
    }

    /**
     * Starts the thread; under the barrier manager's lock. A live actor registers with the
     * collector first; a backfilling one only when its job joins the live flow.
     */
    void start(boolean live) {
        if (live) {
            collector.register(this);
        }
        startsBackfilling = !live;
        thread.start();
    }

    /** Its job joined the live flow: epoch barriers reach this actor from now on. Under the barrier lock. */
    void joinEpochs() {
        joinedEpochs = true;
        collector.register(this);
        // raised here, not when the actor thread next runs: at background priority that could be
        // only after the writers' threads, which wait for the next epoch, and so for its barrier
        // (an actor lowered after this read the field raises itself at the top of its loop)
        lowered.raise();
    }

    /** Stops the thread and waits for it; between epochs, under the barrier manager's lock. */
    void stop() {
        stopped = true;
        collector.unregister(this);
        thread.interrupt();
        closeInputs();
        // the caller holds the barrier lock, so writers wait as long as this does
        lowered.raise();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("actor {} did not stop within 10 s", name);
        }
    }

    private void run() {
        try {
            for (Input in : inputs) {
                in.channel().bindReceiver(Thread.currentThread());
            }
            for (BackfillInput backfill : backfills) {
                backfill.wakeOnRateChange(Thread.currentThread());
            }
            if (startsBackfilling && !joinedEpochs) {
                // a backfill's work yields the core to the writers until the job goes live
                lowered = BackgroundPriority.lowerCurrentThreadRestorably();
                if (stopped) {
                    // stop() may have looked before this thread was lowered: it must not wait for an idle thread
                    lowered.raise();
                }
            }
            loop();
        } catch (InterruptedException e) {
            if (!stopped) {
                LOG.error("actor {} was interrupted", name);
                closeInputs();
                failures.failed(this, e);
            }
        } catch (Throwable t) {
            if (!stopped) {
                LOG.error("actor {} failed", name, t);
                closeInputs();
                failures.failed(this, t);
            }
        } finally {
            // first, so a close that throws cannot leave stop() raising a thread id the kernel may reuse
            lowered.ended();
            backfills.forEach(BackfillInput::close);
            for (Node node : nodes) {
                if (node.op != null) {
                    node.op.close();
                }
            }
            stateView.close();
        }
    }

    private void closeInputs() {
        for (Input in : inputs) {
            in.channel().close();
        }
    }

    private void loop() throws InterruptedException {
        int n = inputs.size();
        boolean[] blocked = new boolean[n];
        int blockedCount = 0;
        Barrier aligning = null;
        while (!stopped) {
            if (joinedEpochs && lowered.isLowered()) {
                // live now: commits wait for this actor's barriers
                lowered.raise();
            }
            boolean progressed = false;
            int chunks = 0;
            for (int i = 0; i < n && !stopped; i++) {
                if (blocked[i]) {
                    continue;
                }
                Input in = inputs.get(i);
                for (int k = 0; k < MESSAGES_PER_TURN; k++) {
                    Object message = in.channel().poll();
                    if (message == null) {
                        break;
                    }
                    progressed = true;
                    if (message instanceof Chunk chunk) {
                        chunks++;
                        pushFrom(in.node(), chunk);
                    } else if (message instanceof JoinLive join) {
                        BackfillInput backfill = in.backfill();
                        if (!backfill.live()) {
                            for (Node node : nodes) {
                                if (node.op != null) {
                                    node.op.onJoinLive();
                                }
                            }
                            backfill.joinLive(join.upTo(), c -> pushFrom(backfill.node(), c));
                        }
                    } else {
                        Barrier b = (Barrier) message;
                        if (aligning != null && aligning.epoch() != b.epoch()) {
                            throw new IllegalStateException("barriers of epochs " + aligning.epoch() + " and "
                                    + b.epoch() + " met in one alignment");
                        }
                        aligning = b;
                        blocked[i] = true;
                        blockedCount++;
                        break;
                    }
                }
            }
            if (blockedCount == n && aligning != null) {
                passBarrier(aligning);
                aligning = null;
                blockedCount = 0;
                java.util.Arrays.fill(blocked, false);
            } else {
                boolean stepped = blockedCount == 0 && stepBackfills();
                for (int s = 1; stepped && s < chunks && !stopped; s++) {
                    stepped = stepBackfills();
                }
                if (!progressed && !stepped) {
                    LockSupport.parkNanos(this, polling() ? IDLE_PARK_NANOS : LIVE_IDLE_PARK_NANOS);
                }
            }
        }
    }

    /**
     * Whether a backfill of this actor still reads its snapshot or log and may read more without
     * anyone waking this thread (its rate's refill and its peers' progress wake no one), so the
     * actor polls; a paused backfill waits for its rate to change, which wakes the actor.
     */
    private boolean polling() {
        for (BackfillInput backfill : backfills) {
            if (!backfill.live() && !backfill.paused()) {
                return true;
            }
        }
        return false;
    }

    /** Reads the next rows of each backfill; whether any of them did something. */
    private boolean stepBackfills() throws InterruptedException {
        if (undurable != null && backfillRowsSinceBarrier >= BackfillCoordinator.CHECKPOINT_ROWS) {
            // memory stays bounded by design: no more than a checkpoint's rows ahead of the one being
            // written, however much slower the write is than the reading
            undurable.awaitDurable();
            undurable = null;
        }
        boolean worked = false;
        for (BackfillInput backfill : backfills) {
            worked |= backfill.step(c -> {
                backfillRowsSinceBarrier += c.size();
                pushFrom(backfill.node(), c);
            });
        }
        return worked;
    }

    /** Hands a chunk an input received (from a channel or a backfill) to the input's parent. */
    private void pushFrom(int leaf, Chunk chunk) {
        Node node = nodes[leaf];
        node.rowsIn += chunk.size();
        node.rowsOut += chunk.size();
        rowsSinceBarrier += chunk.size();
        push(node.parent, node.parentPort, chunk);
        heldChanges = countHeld();
    }

    /** See {@link #heldChanges}; actor thread. */
    private long countHeld() {
        long held = 0;
        for (Node node : nodes) {
            if (node.op != null) {
                long h = node.op.heldChanges();
                if (h < 0) {
                    if (!countsRowsIn) {
                        countsRowsIn = true;
                    }
                    return rowsSinceBarrier;
                }
                held += h;
            }
        }
        return held;
    }

    /** What this actor's operators hold for the next barrier (see {@link Operator#heldChanges}); any thread. */
    long heldChanges() {
        return heldChanges;
    }

    /**
     * Whether {@link #heldChanges} is the rows taken in since the barrier, as one of this actor's
     * operators does not count what it holds (a join, TopN, a window); any thread.
     */
    boolean countsRowsIn() {
        return countsRowsIn;
    }

    /**
     * Adds the rows each plan node of this actor took in and gave out so far to {@code rowsIn} and
     * {@code rowsOut}, indexed by plan node number. Any thread: reads the counters racily.
     */
    void operatorRows(long[] rowsIn, long[] rowsOut) {
        for (Node node : nodes) {
            if (node.planNode >= 0) {
                rowsIn[node.planNode] += node.rowsIn;
                rowsOut[node.planNode] += node.rowsOut;
            }
        }
    }

    private void passBarrier(Barrier barrier) throws InterruptedException {
        if (undurable != null) {
            // the state tables drop the last checkpoint's writes at this flush: they must be stored
            undurable.awaitDurable();
            undurable = null;
        }
        backfillRowsSinceBarrier = 0;
        rowsSinceBarrier = 0;
        // what the operators hold (or the rows taken in, see heldChanges) is about what they hand over
        EpochWrites writes = new EpochWrites((int) Math.min(heldChanges + 512, 1 << 22), barrier.checkpoint() != null);
        // reverse pre-order: every node passes the barrier after all of its inputs did
        for (int i = nodes.length - 1; i >= 0; i--) {
            Node node = nodes[i];
            if (node.op != null) {
                node.op.onBarrier(barrier, node.out, writes);
                node.out.flush();
            }
        }
        for (BackfillInput backfill : backfills) {
            backfill.onBarrier(writes);
        }
        output.barrier(barrier);
        // before the checkpoint learns this actor passed it, so its next trigger sees the flush
        heldChanges = countHeld();
        if (barrier.checkpoint() == null) {
            collector.collected(this, barrier.epoch(), writes);
        } else {
            barrier.checkpoint().passed(writes);
            undurable = barrier.checkpoint();
        }
    }

    /** Hands {@code chunk} to input {@code port} of node {@code target}, or to the dispatcher for the root. */
    private void push(int target, int port, Chunk chunk) {
        if (target < 0) {
            output.dispatch(chunk);
            return;
        }
        Node node = nodes[target];
        node.rowsIn += chunk.size();
        node.op.onChunk(port, chunk, node.out);
        node.out.flush();
    }

    /** Buffers a node's emitted rows into chunks and pushes them to its parent. */
    private final class NodeOutput implements Output {
        private final int node;
        private final Chunk.Builder builder = new Chunk.Builder();

        NodeOutput(int node) {
            this.node = node;
        }

        @Override
        public void emit(Op op, Object[] row) {
            builder.add(op, row);
            if (builder.isFull()) {
                flush();
            }
        }

        @Override
        public void forward(Chunk chunk) {
            // what was emitted before goes first; the chunk itself is passed on, never rebuilt
            flush();
            nodes[node].rowsOut += chunk.size();
            push(nodes[node].parent, nodes[node].parentPort, chunk);
        }

        void flush() {
            Chunk chunk = builder.build();
            if (chunk != null) {
                nodes[node].rowsOut += chunk.size();
                push(nodes[node].parent, nodes[node].parentPort, chunk);
            }
        }
    }
}
