package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.stream.backfill.BackfillProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The statements about views being created: a foreground CREATE's wait, {@code WAIT}, {@code
 * CANCEL JOBS}, {@code SHOW JOBS} and {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT}. Made once by {@link ViewDdl};
 * called on session threads.
 */
final class ViewJobStatements {
    private final Supplier<Catalog> catalog;
    private final ViewBackfills backfills;
    private final RemoteViewSnapshots remoteSnapshots;
    private final long cancelPollMs;

    /** How often a foreground CREATE tells its client how far the backfill is. */
    private static final long NOTICE_INTERVAL_MS = 3000;

    /** @param cancelPollMs how often a WAIT looks whether its client cancelled */
    ViewJobStatements(
            Supplier<Catalog> catalog,
            ViewBackfills backfills,
            RemoteViewSnapshots remoteSnapshots,
            long cancelPollMs) {
        this.catalog = catalog;
        this.backfills = backfills;
        this.remoteSnapshots = remoteSnapshots;
        this.cancelPollMs = cancelPollMs;
    }

    /** Waits for a foreground job, telling the client its progress; a cancel removes the view. */
    void awaitForeground(ViewBackfills.Job job, Consumer<String> notices, Runnable cancelCheck)
            throws InterruptedException {
        long nextNotice = System.currentTimeMillis() + NOTICE_INTERVAL_MS;
        while (true) {
            try {
                cancelCheck.run();
            } catch (TributaryException cancelled) {
                if (backfills.cancel(job.id(), cancelled)) {
                    throw cancelled;
                }
                // the job ended just before the cancel: its outcome stands
            }
            try {
                long untilNotice = nextNotice - System.currentTimeMillis();
                job.done.get(Math.max(1, Math.min(cancelPollMs, untilNotice)), TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                if (System.currentTimeMillis() >= nextNotice) {
                    notices.accept(
                            "materialized view \"" + job.view.name() + "\": " + backfills.backfilledText(job.id()));
                    nextNotice = System.currentTimeMillis() + NOTICE_INTERVAL_MS;
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof TributaryException te
                        ? te
                        : new TributaryException(SqlState.INTERNAL_ERROR, String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                backfills.cancel(job.id(), TributaryException.queryCanceled());
                throw e;
            }
        }
    }

    /**
     * Waits until the creation of view {@code name} (or, when null, of every view being created
     * now) has finished, successfully or not.
     *
     * @throws TributaryException 42P01 when {@code name} does not exist, 42809 when it is a table
     */
    void await(String name, Runnable cancelCheck) throws InterruptedException {
        List<ViewBackfills.Job> waitFor = new ArrayList<>();
        if (name == null) {
            waitFor.addAll(backfills.jobs());
        } else {
            TableDef view = requireView(catalog.get(), name);
            backfills.job(view.id()).ifPresent(waitFor::add);
        }
        for (ViewBackfills.Job job : waitFor) {
            while (!job.done.isDone()) {
                cancelCheck.run();
                try {
                    job.done.get(cancelPollMs, TimeUnit.MILLISECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    // cancelled or failed jobs are finished all the same; a timeout polls the cancel again
                }
            }
        }
    }

    /**
     * Cancels the creation of views by job id and removes them with everything they made.
     *
     * @return the ids that were cancelled (jobs that finished or did not exist are left out)
     */
    List<Integer> cancelJobs(List<Integer> ids) throws InterruptedException {
        List<Integer> cancelled = new ArrayList<>();
        for (int id : ids) {
            if (backfills.cancel(
                    id,
                    new TributaryException(
                            SqlState.QUERY_CANCELED,
                            "the creation of the materialized view was cancelled (CANCEL JOBS " + id + ")"))) {
                cancelled.add(id);
            }
        }
        return cancelled;
    }

    /** Jobs creating views, for SHOW JOBS and the system tables. */
    List<JobInfo> jobs() {
        List<JobInfo> out = new ArrayList<>();
        for (ViewBackfills.Job job : backfills.jobs()) {
            BackfillProgress progress = remoteSnapshots.progress(job, backfills.progress(job.id()));
            out.add(new JobInfo(
                    job.id(),
                    job.view.name(),
                    job.record.statement(),
                    job.record.background(),
                    job.record.startedAtMillis(),
                    job.record.rateLimit(),
                    ViewBackfills.progressText(progress),
                    progress,
                    remoteSnapshots.placement(job)));
        }
        return out;
    }

    /**
     * Sets the backfill rate of view {@code name}'s creation (rows/s per parallel unit, -1
     * unlimited, 0 paused); effective at the job's next step, durable when this returns.
     *
     * @throws TributaryException 42P01 unknown view, 42809 a table, 55000 a view not being created
     */
    void setBackfillRateLimit(String name, long rate) throws InterruptedException {
        TableDef view = requireView(catalog.get(), name);
        if (!backfills.isCreating(view.id())) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "materialized view \"" + name + "\" is not being backfilled");
        }
        backfills.setRateLimit(view.id(), rate);
    }

    /**
     * The materialized view named {@code name}.
     *
     * @throws TributaryException 42P01 when nothing has that name, 42809 when it is a table
     */
    static TableDef requireView(Catalog catalog, String name) {
        TableDef view = catalog.table(name)
                .orElseThrow(() -> new TributaryException(
                        SqlState.UNDEFINED_TABLE, "materialized view \"" + name + "\" does not exist"));
        if (!view.isView()) {
            throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a materialized view");
        }
        return view;
    }
}
