package io.tributary.worker;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.VirtualNodes;
import io.tributary.meta.ScratchViewBuild;
import io.tributary.meta.SnapshotResume;
import io.tributary.meta.ddl.RemoteViewAdoption;
import io.tributary.meta.ddl.ViewSnapshotJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A worker's run of one attempt at a view's snapshot phase: copies each relation the view reads
 * from the server's pinned snapshot (rows as the server stores them, piece by piece over pgwire)
 * into a scratch database on this worker's disk, creates the view there with the server's planner
 * and operators ({@link ScratchViewBuild}), and returns the view's table and operator state under
 * the server's table ids, staged in the jobs database in chunks as they are read ({@link
 * StagedResult}), so memory stays bounded whatever the view's size. While the view is built it
 * commits checkpoints ({@link StagedCheckpoints}); an attempt goes on from the checkpoints earlier
 * attempts committed, so a retry (after a kill, or a missed heartbeat) reads only the snapshot rows
 * after them, and copies only those rows from the server ({@link SnapshotResume}): the scratch
 * database is removed when an attempt ends, and the resumed build reads nothing before its
 * checkpoint's positions. The scratch database's directory is a {@link ScratchDirectory}, which a
 * later worker removes when this one is killed before it could.
 */
final class ViewSnapshotRun {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ViewSnapshotRun.class);

    /** Rows per snapshot piece read from the server. */
    private static final int PIECE_ROWS = 10_000;

    private final ViewSnapshotJob job;
    private final String serverAddress;
    private final String serverPassword;
    private final ScratchViewBuild.Opener scratch;

    ViewSnapshotRun(ViewSnapshotJob job, String serverAddress, String serverPassword, ScratchViewBuild.Opener scratch) {
        this.job = job;
        this.serverAddress = serverAddress;
        this.serverPassword = serverPassword;
        this.scratch = scratch;
    }

    /**
     * Computes the view's state from the snapshot and stages it, chunk by chunk, in {@code out}.
     *
     * @param stillMine checked between pieces: false once the server gave this attempt up
     * @param out where the state's key-value pairs go, under the server's table ids
     * @param resume the checkpoints earlier attempts committed, in order
     * @param resumePositions the same, only their vnode positions (read before the copy, which
     *     skips the snapshot rows they cover)
     * @param copiedRows told how many snapshot rows this attempt copied from the server, once the copy ends
     * @param checkpoints where this attempt's checkpoints go
     * @return false when this attempt was given up (what it staged is never read)
     * @throws TributaryException 0A000 when the view cannot be computed here (the snapshot is no
     *     longer exported, or the view does not build), which no retry would change
     * @throws SQLException when the server cannot be read (a retry may succeed)
     */
    boolean run(
            BooleanSupplier stillMine,
            StagedResult out,
            RemoteViewAdoption.StagedState resume,
            RemoteViewAdoption.StagedState resumePositions,
            java.util.function.LongConsumer copiedRows,
            StagedCheckpoints checkpoints,
            String jobId)
            throws SQLException, InterruptedException {
        ScratchDirectory dir;
        try {
            dir = ScratchDirectory.create(ScratchDirectory.TEMPORARY, ScratchDirectory.VIEW_JOB);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the scratch directory", e);
        }
        long started = System.nanoTime();
        try (dir;
                ScratchViewBuild build =
                        scratch.open(dir.path(), io.tributary.common.Epoch.millis(job.snapshotEpoch()))) {
            long opened = System.nanoTime();
            for (TableDef relation : job.upstreams()) {
                build.createRelation(relation);
            }
            long created = System.nanoTime();
            int[] sources = build.sourceRelations(job.view());
            long planned = System.nanoTime();
            SnapshotResume from = SnapshotResume.of(resumePositions, sources);
            LOG.info(
                    "job {}: scratch database opened in {} ms, {} relations created in {} ms, view planned in {} ms",
                    jobId,
                    (opened - started) / 1_000_000,
                    job.upstreams().size(),
                    (created - opened) / 1_000_000,
                    (planned - created) / 1_000_000);
            long rows = 0;
            for (TableDef relation : job.upstreams()) {
                long n = copy(build, relation, from, stillMine);
                if (n < 0) {
                    return false;
                }
                rows += n;
            }
            copiedRows.accept(rows);
            long copied = System.nanoTime();
            long resumedRows;
            try {
                resumedRows = build.buildView(
                        job.view(), job.stateTables(), job.snapshotEpoch(), resume, job.rateLimit(), checkpoints);
                checkpoints.flush();
            } catch (TributaryException e) {
                if (checkpoints.givenUp() || !stillMine.getAsBoolean()) {
                    return false;
                }
                if (e.sqlState().equals(SqlState.INTERNAL_ERROR)) {
                    // a checkpoint could not be committed (the jobs database): a retry goes on from the last one
                    throw new SQLException(e.getMessage(), "08006", e);
                }
                throw e;
            }
            long built = System.nanoTime();
            LOG.info(
                    "job {}: built materialized view {} from {} (resumed at {} snapshot rows), {} checkpoints"
                            + " committed in {} transactions; {} snapshot rows copied in {} ms, view built in {} ms",
                    jobId,
                    job.view().name(),
                    resumedRows > 0 ? "the earlier attempts' checkpoint" : "the beginning",
                    resumedRows,
                    checkpoints.count(),
                    checkpoints.batches(),
                    rows,
                    (copied - planned) / 1_000_000,
                    (built - copied) / 1_000_000);
            build.readState(job.view().name(), job.stateTables(), out);
            boolean complete = out.complete();
            LOG.info(
                    "job {}: {} pairs of state staged in {} ms",
                    jobId,
                    out.staged(),
                    (System.nanoTime() - built) / 1_000_000);
            return complete && stillMine.getAsBoolean();
        } catch (TributaryException e) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "materialized view \"" + job.view().name() + "\" cannot be computed on a worker: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Copies one relation's snapshot rows that the build still reads ({@code from}) into the
     * scratch database. Each run of vnodes that the build reads from their start (after the first
     * of the run, which may start after a key) is read in pieces of up to {@link #PIECE_ROWS} rows
     * that span vnodes, so a small snapshot is a few statements rather than one per vnode.
     *
     * @return the rows copied; -1 when the attempt was given up
     */
    private long copy(ScratchViewBuild build, TableDef relation, SnapshotResume from, BooleanSupplier stillMine)
            throws SQLException {
        long copied = 0;
        int pieces = 0;
        try (ExportedSnapshotReader reader = new ExportedSnapshotReader(
                serverAddress, serverPassword, job.database(), job.snapshotId(relation.id()))) {
            int vnode = 0;
            while (vnode < VirtualNodes.COUNT) {
                if (!from.copies(relation.id(), vnode)) {
                    vnode++;
                    continue;
                }
                int last = vnode;
                while (last + 1 < VirtualNodes.COUNT
                        && from.copies(relation.id(), last + 1)
                        && from.copyAfter(relation.id(), last + 1) == null) {
                    last++;
                }
                byte[] after = from.copyAfter(relation.id(), vnode);
                while (vnode <= last) {
                    if (pieces++ > 0 && !stillMine.getAsBoolean()) {
                        return -1;
                    }
                    ExportedSnapshotReader.StoredRows piece = read(reader, vnode, last, after);
                    List<byte[][]> rows = piece.rows();
                    if (!rows.isEmpty()) {
                        build.load(relation.id(), rows);
                        copied += rows.size();
                    }
                    if (rows.size() < PIECE_ROWS) {
                        vnode = piece.through() + 1;
                        after = null;
                    } else {
                        after = rows.get(rows.size() - 1)[1];
                        vnode = VirtualNodes.of(after);
                    }
                }
            }
        }
        return copied;
    }

    private static ExportedSnapshotReader.StoredRows read(
            ExportedSnapshotReader reader, int vnode, int last, byte[] after) throws SQLException {
        try {
            return reader.readStored(vnode, last, after, PIECE_ROWS);
        } catch (SQLException e) {
            if ("55000".equals(e.getSQLState())) {
                // the view was dropped, or its snapshot phase went back to the server
                throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, e.getMessage(), e);
            }
            throw e;
        }
    }
}
