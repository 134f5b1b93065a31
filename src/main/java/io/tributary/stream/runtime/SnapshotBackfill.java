package io.tributary.stream.runtime;

import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.storage.KvIterator;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Replays an upstream relation's rows, as of the snapshot taken when the job was created, into a
 * new job's source, one owned vnode after another in key order. It runs on the actor's thread
 * before the actor reads the upstream's live changes, which the snapshot does not contain.
 *
 * <p>This is the blocking backfill: the epoch after the job's creation cannot commit before every
 * actor has replayed its share. Vnode-by-vnode key order is what the resumable backfill will
 * checkpoint (vnode, last key).
 */
final class SnapshotBackfill {
    private final Shared snapshot;
    private final int relationId;
    private final RowCodec codec;
    private final int[] vnodes;
    private final int node;

    /** A snapshot shared by a job's actors; closed when the last of them is done with it. */
    static final class Shared {
        private final ReadView view;
        private final AtomicInteger users;

        /** Starts with one reference, the creator's, which it gives up with {@link #release()}. */
        Shared(ReadView view) {
            this.view = view;
            this.users = new AtomicInteger(1);
        }

        void retain() {
            users.incrementAndGet();
        }

        void release() {
            if (users.decrementAndGet() == 0) {
                view.close();
            }
        }
    }

    /** @param node the actor tree node (an input) the rows enter at */
    SnapshotBackfill(Shared snapshot, int relationId, List<DataType> columnTypes, int[] vnodes, int node) {
        this.snapshot = snapshot;
        snapshot.retain();
        this.relationId = relationId;
        this.codec = new RowCodec(columnTypes);
        this.vnodes = vnodes;
        this.node = node;
    }

    int node() {
        return node;
    }

    /** Actor thread: pushes every snapshot row of the owned vnodes into {@code sink} as INSERTs. */
    void run(Consumer<Chunk> sink, BooleanSupplier stopped) {
        try {
            Chunk.Builder builder = new Chunk.Builder();
            for (int vnode : vnodes) {
                try (KvIterator it = snapshot.view.scan(Keyspace.DATA, TableKeys.vnodeStart(relationId, vnode),
                        TableKeys.vnodeEnd(relationId, vnode))) {
                    while (it.next()) {
                        builder.add(Op.INSERT, codec.decode(it.value()));
                        if (builder.isFull()) {
                            if (stopped.getAsBoolean()) {
                                return;
                            }
                            sink.accept(builder.build());
                        }
                    }
                }
            }
            Chunk last = builder.build();
            if (last != null) {
                sink.accept(last);
            }
        } finally {
            snapshot.release();
        }
    }
}
