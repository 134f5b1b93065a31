package io.tributary.meta.sink;

import io.tributary.common.Epoch;
import io.tributary.storage.ChangeLogCursor;
import io.tributary.storage.ChangeLogReader;
import io.tributary.storage.LoggedChange;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A sink's head: delivers each committed epoch after the sink's start to the target, reading the
 * relation's change log kept for the sink ({@code StreamRuntime.LogKeeper}).
 *
 * <p>It reads the log when it changed, not after every epoch: once it has read everything up to
 * the committed epoch, it sleeps until the keeper says an epoch past its position logged rows of
 * the relation ({@code LogKeeper.changedAt}, raised on the committing thread after the commit), or
 * for at most {@link #IDLE_STATUS_MS}, after which it writes the position the epochs without
 * changes advanced. After a (re)connect it reads the log from the target's position first, so what
 * was logged before this process started is delivered too.
 *
 * <p>Exactly once: the position is the target's {@code processor_status.last_success_version},
 * read at every (re)connect. One target transaction holds the net change of one or more whole
 * epochs (COPY into the staging table, one merge) and advances the position to the last of them,
 * monotonically; a transaction that would not advance it is rolled back. Only after the commit does
 * the keeper learn the log may be truncated through there. A crash anywhere leaves the target at
 * some epoch boundary, and the log after it is still in the store.
 */
final class HeadDelivery extends DeliveryLoop {
    /** How many changed keys one transaction takes at most (whole epochs, so it may take more). */
    private static final int MAX_BATCH_KEYS = 50_000;
    /** How often a position advanced only by epochs without changes is written. */
    private static final long IDLE_STATUS_MS = Long.getLong("tributary.sink.head.idle_ms", 1_000);

    private final StateStore store;
    /** The staged batch, encoded from the logged rows as stored (no decoding). */
    private final CopyBody copy;
    /** The {@link RunningSink#staleMarkerRequests} count this head has handled. */
    private long markersForgottenFor;

    HeadDelivery(RunningSink sink, StateStore store) {
        super(sink, sink.headProgress(), "sink-" + sink.def().name() + "-head");
        this.store = store;
        this.copy = CopyBody.of(
                sink.relation().columnTypes(),
                sink.table().columnIndexes(),
                sink.table().keyIndexes(sink.relation()),
                true);
    }

    @Override
    protected boolean deliver(Connection c, Runnable madeProgress) throws Exception {
        TargetTable table = sink.table();
        int relation = sink.def().relationId();
        long durable = table.headVersion(c);
        c.commit();
        if (durable < 0) {
            durable = sink.def().headStartEpoch();
        }
        long position = durable;
        sink.keeper().consumedThrough(durable);
        progress.delivered(durable, 0);
        long statusWrittenAt = System.currentTimeMillis();
        Map<ByteBuffer, byte[]> upserts = new LinkedHashMap<>();
        Map<ByteBuffer, byte[]> deletes = new LinkedHashMap<>();
        List<byte[]> appends = new ArrayList<>();
        // the keeper is replaced only while no delivery runs (a failed DROP)
        StreamRuntime.LogKeeper keeper = sink.keeper();
        keeper.onChange(this::wake);
        try (ReadView latest = store.latest()) {
            ChangeLogReader log = new ChangeLogReader(latest);
            while (!stopping()) {
                forgetStaleMarkers(c, table);
                progress.phase(sink.limiter().paused() ? "paused" : "streaming");
                // the committed epoch first: every logged epoch up to it is then complete
                long committed = store.committedEpoch();
                long upTo = position;
                upserts.clear();
                deletes.clear();
                appends.clear();
                while (upserts.size() + deletes.size() + appends.size() < MAX_BATCH_KEYS) {
                    OptionalLong next = log.nextEpoch(relation, upTo);
                    if (next.isEmpty() || next.getAsLong() > committed) {
                        upTo = Math.max(upTo, committed);
                        break;
                    }
                    upTo = next.getAsLong();
                    read(log, relation, upTo, upserts, deletes, appends);
                }
                if (!upserts.isEmpty() || !deletes.isEmpty() || !appends.isEmpty()) {
                    int rows = stage(upserts, deletes, appends);
                    if (!sink.limiter().acquire(rows, this::stopping)) {
                        break;
                    }
                    table.lock(c);
                    table.copyIn(c, copy);
                    table.mergeHead(c, sink.markKeys() ? upTo : 0, !deletes.isEmpty(), !upserts.isEmpty());
                    if (!table.advanceHead(c, upTo, Epoch.millis(upTo))) {
                        // the target is at or past this batch already (another writer?): take its word
                        c.rollback();
                        position = durable = table.headVersion(c);
                        c.commit();
                        continue;
                    }
                    c.commit();
                    position = durable = upTo;
                    statusWrittenAt = System.currentTimeMillis();
                    sink.keeper().consumedThrough(durable);
                    progress.delivered(durable, rows);
                    madeProgress.run();
                } else if (upTo > durable && System.currentTimeMillis() - statusWrittenAt >= IDLE_STATUS_MS) {
                    // no rows and no markers: only processor_status, which no backfill writes, so
                    // the sink's lock is not taken and a running backfill's chunks are not held up
                    table.advanceHead(c, upTo, Epoch.millis(upTo));
                    c.commit();
                    position = durable = upTo;
                    statusWrittenAt = System.currentTimeMillis();
                    sink.keeper().consumedThrough(durable);
                    progress.delivered(durable, 0);
                } else {
                    // epochs without changes need no transaction; they are written within a second
                    position = upTo;
                    long readThrough = upTo;
                    long wait = upTo > durable
                            ? Math.max(1, statusWrittenAt + IDLE_STATUS_MS - System.currentTimeMillis())
                            : IDLE_STATUS_MS;
                    pauseUnless(
                            () -> keeper.changedAt() > readThrough || sink.staleMarkerRequests() != markersForgottenFor,
                            wait);
                }
            }
        } finally {
            keeper.onChange(null);
        }
        return false;
    }

    /**
     * Deletes the key markers once a backfill completed ({@link RunningSink#staleMarkerRequests}):
     * the backfill's last transaction deletes them, but one of this head's that took the sink's lock
     * after it, still reading markKeys as set, marked its keys again. Under the lock, and only while
     * no new backfill marks (markKeys read under the lock: a new backfill sets it before its first
     * transaction, which then waits for this one), so a running backfill's markers are never lost.
     * Stale markers only cost space (they are older than any later snapshot, so no merge reads them).
     */
    private void forgetStaleMarkers(Connection c, TargetTable table) throws java.sql.SQLException {
        long requests = sink.staleMarkerRequests();
        if (requests == markersForgottenFor || !table.upsert()) {
            markersForgottenFor = requests;
            return;
        }
        table.lock(c);
        if (!sink.markKeys()) {
            table.clearMarkers(c);
        }
        c.commit();
        markersForgottenFor = requests;
    }

    /** Wakes the loop to forget stale markers now rather than after its idle wait; any thread. */
    void wakeForMarkers() {
        wake();
    }

    /**
     * Folds one epoch's changes into the batch: per key its last row (in {@code upserts}) or its
     * deletion (in {@code deletes}, with the old row for its key), or for append-only the inserted
     * rows (with {@code force_append_only}, also updated rows' new versions); rows as stored, not
     * decoded.
     */
    private void read(
            ChangeLogReader log,
            int relation,
            long epoch,
            Map<ByteBuffer, byte[]> upserts,
            Map<ByteBuffer, byte[]> deletes,
            List<byte[]> appends) {
        boolean upsert = sink.table().upsert();
        try (ChangeLogCursor cursor = log.scanEpoch(relation, epoch)) {
            while (cursor.next()) {
                LoggedChange change = cursor.change();
                if (upsert) {
                    ByteBuffer key = ByteBuffer.wrap(cursor.pk());
                    if (change.newRow() == null) {
                        upserts.remove(key);
                        deletes.put(key, change.oldRow());
                    } else {
                        deletes.remove(key);
                        upserts.put(key, change.newRow());
                    }
                } else if (change.oldRow() != null && sink.def().target().forceAppendOnly()) {
                    // RisingWave's force_append_only: the new version of an updated row is one more
                    // row for the target; a deletion has nothing to append
                    if (change.newRow() != null) {
                        appends.add(change.newRow());
                    }
                } else if (change.oldRow() != null) {
                    throw new Fatal("append-only sink \"" + sink.def().name() + "\" got an "
                            + (change.newRow() == null ? "DELETE" : "UPDATE") + " of \""
                            + sink.def().relationName() + "\" in epoch " + epoch
                            + "; an append-only sink takes only inserts (use type = 'upsert', or"
                            + " force_append_only = 'true' to deliver updates as inserts and drop deletes)");
                } else {
                    appends.add(change.newRow());
                }
            }
        }
    }

    /**
     * Stages the batch for COPY; while the backfill copies straight into the target, first adds the
     * batch's keys to the keys it must skip (before this transaction takes the lock, so a chunk
     * taking the lock after this transaction's commit sees them).
     */
    private int stage(Map<ByteBuffer, byte[]> upserts, Map<ByteBuffer, byte[]> deletes, List<byte[]> appends) {
        copy.start();
        java.util.Set<ByteBuffer> touched = sink.touchedKeys();
        if (touched != null) {
            touched.addAll(deletes.keySet());
            touched.addAll(upserts.keySet());
        }
        for (byte[] row : deletes.values()) {
            copy.addDelete(row);
        }
        for (byte[] row : upserts.values()) {
            copy.add(row, 'U');
        }
        for (byte[] row : appends) {
            copy.add(row, 'I');
        }
        copy.finish();
        return copy.rows();
    }
}
