package io.tributary.meta.jobs;

import io.tributary.catalog.Catalog;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a job runs: remotely when the caller asks for it and the server has a jobs database, else
 * here; a failed remote {@code schedule} hands the job back to the local scheduler when its
 * fallback allows. The one object job owners (sinks) of one database hold. Thread-safe.
 *
 * <p>Every database of a server places its jobs through the same remote scheduler (one jobs
 * database, one watcher): {@code dev}'s placement owns it, and each other database gets its own
 * placement from {@link #forDatabase}, whose job ids carry the database's namespace id, so ids
 * stay unique across databases (also across a database dropped and created again with the same
 * name, as namespace ids are never reused).
 */
public final class JobPlacement implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobPlacement.class);
    /** The id prefix of a job of a database other than {@code dev}. */
    private static final Pattern OTHER_DATABASE = Pattern.compile("d[0-9]+-");

    private final LocalJobScheduler local;
    /** Null when the server runs without {@code --jobs-url}. */
    private final DbJobScheduler remote;
    /** Whether {@link #close} closes {@link #remote}: only the placement of {@code dev} does. */
    private final boolean ownsRemote;
    /** The database whose jobs this places; workers connect to it to read its snapshots. */
    private final String database;
    /** Put before the ids of this database's jobs: empty for {@code dev}, {@code d<namespace>-} else. */
    private final String idPrefix;

    /** The placement of database {@code dev}, which owns {@code remote} (null: everything here). */
    public JobPlacement(LocalJobScheduler local, DbJobScheduler remote) {
        this(local, remote, true, Catalog.DATABASE, "");
    }

    private JobPlacement(
            LocalJobScheduler local, DbJobScheduler remote, boolean ownsRemote, String database, String idPrefix) {
        this.local = local;
        this.remote = remote;
        this.ownsRemote = ownsRemote;
        this.database = database;
        this.idPrefix = idPrefix;
    }

    /**
     * The placement of another database of this server ({@code CREATE DATABASE}, or one found at
     * startup): its own local runs, this placement's remote scheduler (not closed by it).
     *
     * @param namespaceId the database's namespace id, never reused by another database
     */
    public JobPlacement forDatabase(String name, int namespaceId) {
        return new JobPlacement(new LocalJobScheduler(), remote, false, name, "d" + namespaceId + "-");
    }

    /** The database whose jobs this places. */
    public String database() {
        return database;
    }

    /**
     * The id of this database's job {@code localId} (unique within the database, e.g. {@code
     * sink-2-g0}): the same for {@code dev}, prefixed with the namespace for the others.
     */
    public JobId jobId(String localId) {
        return new JobId(idPrefix + localId);
    }

    /**
     * The jobs of the jobs database that are this database's ({@code tributary_catalog.remote_jobs});
     * without one, the jobs running here.
     */
    public List<RemoteJobScheduler.RemoteJobInfo> jobs() {
        List<RemoteJobScheduler.RemoteJobInfo> all = scheduler().jobs();
        return all.stream()
                .filter(j ->
                        idPrefix.isEmpty() ? !OTHER_DATABASE.matcher(j.id()).lookingAt() : j.id().startsWith(idPrefix))
                .toList();
    }

    /** Everything local: a server without {@code --jobs-url}. */
    public static JobPlacement localOnly() {
        return new JobPlacement(new LocalJobScheduler(), null);
    }

    /** Whether remote placement is possible at all. */
    public boolean remoteEnabled() {
        return remote != null;
    }

    /**
     * Places {@code job}.
     *
     * @param wantRemote the job's owner asks for a worker ({@code backfill.remote})
     * @param fallback whether it may run here when no worker can take it ({@code backfill.fallback_to_local})
     * @throws ScheduleFailedException when it must run remotely and could not be queued
     */
    public JobId place(RemoteJob job, Notifier notifier, boolean wantRemote, boolean fallback)
            throws ScheduleFailedException {
        if (!wantRemote || remote == null) {
            return local.schedule(job, notifier);
        }
        try {
            return remote.schedule(job, notifier, fallback);
        } catch (ScheduleFailedException e) {
            if (!fallback) {
                throw e;
            }
            LOG.warn("{}; running it locally", e.getMessage());
            return local.schedule(e.job(), notifier);
        }
    }

    /**
     * Tells workers where this server serves exported snapshots (host:port of its pgwire); called
     * once the server listens. Nothing without a jobs database.
     *
     * @throws io.tributary.common.TributaryException 08001 when the jobs database cannot be reached
     */
    public void advertise(String serverAddress) {
        if (remote != null) {
            remote.advertise(serverAddress);
        }
    }

    /** Takes the key-value pairs a job staged with its result, one at a time. */
    @FunctionalInterface
    public interface PairConsumer {
        void accept(byte[] key, byte[] value);
    }

    /**
     * Reads the key-value pairs that attempt {@code attempt} of remote job {@code id} staged in the
     * jobs database with its result (a view's snapshot state), in the order it staged them. The
     * worker stages them in the transaction that marks that attempt done, so they are whole.
     *
     * @throws SQLException when the jobs database cannot be read
     * @throws IllegalStateException without a jobs database
     */
    public void readResult(JobId id, int attempt, PairConsumer out) throws SQLException {
        if (remote == null) {
            throw new IllegalStateException("no jobs database");
        }
        remote.readResult(id, attempt, out);
    }

    /**
     * Reads, in the order they were committed, the checkpoints every attempt of job {@code id}
     * committed so far (see {@link JobsDatabase#readCheckpoints}); nothing without a jobs database.
     * Call once the job is given up, so that no attempt adds one meanwhile.
     *
     * @throws SQLException when the jobs database cannot be read
     */
    public void readCheckpoint(JobId id, PairConsumer out) throws SQLException {
        if (remote != null) {
            remote.readCheckpoint(id, out);
        }
    }

    /**
     * How many snapshot rows the checkpoints job {@code id}'s attempts committed have read (see
     * {@link DbJobScheduler#rowsDone}); never lower than an earlier answer; 0 without a jobs
     * database. Any thread.
     */
    public long remoteRowsDone(JobId id) {
        return remote == null ? 0 : remote.rowsDone(id);
    }

    /** Removes what job {@code id} staged with its results (after they were taken over); best effort. */
    public void dropResult(JobId id) {
        if (remote != null) {
            remote.dropResult(id);
        }
    }

    /** Cancels the job for good wherever it runs ({@code CANCEL JOBS}); see {@link RemoteJobScheduler#cancel}. */
    public void cancel(JobId id) {
        local.cancel(id);
        if (remote != null) {
            remote.cancel(id);
        }
    }

    /** Stops the job wherever it runs, to be scheduled again later; see {@link RemoteJobScheduler#stop}. */
    public void stop(JobId id) {
        local.stop(id);
        if (remote != null) {
            remote.stop(id);
        }
    }

    /** {@code local}, {@code remote:<worker>}, {@code waiting for a worker}, or null when not running. */
    public String placement(JobId id) {
        String here = local.placement(id);
        if (here != null || remote == null) {
            return here;
        }
        return remote.placement(id);
    }

    /** The scheduler the system tables read: the remote one when there is one. */
    public RemoteJobScheduler scheduler() {
        return remote != null ? remote : local;
    }

    @Override
    public void close() {
        if (remote != null && ownsRemote) {
            remote.close();
        }
        local.close();
    }
}
