package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code REFRESH MATERIALIZED VIEW}: a Tributary view is current whenever its backfill is done, so
 * refreshing one waits for that, with PostgreSQL's errors for what is not a materialized view; an
 * unpopulated view ({@code WITH NO DATA}) gets its job first. Made per statement by {@link
 * ViewDdl}, on the session's thread.
 */
final class ViewRefresh {
    /** Starts the job of an unpopulated view at a rate (rows per second, -1 unlimited); durable on return. */
    interface Populate {
        void start(TableDef view, long rate) throws InterruptedException;
    }

    private final Catalog catalog;
    private final ViewBackfills backfills;
    private final long cancelPollMs;
    private final Populate populate;

    /** @param cancelPollMs how often the wait looks whether the client cancelled */
    ViewRefresh(Catalog catalog, ViewBackfills backfills, long cancelPollMs, Populate populate) {
        this.catalog = catalog;
        this.backfills = backfills;
        this.cancelPollMs = cancelPollMs;
        this.populate = populate;
    }

    /**
     * Returns once materialized view {@code name} equals its query, as PostgreSQL's REFRESH leaves
     * it: a Tributary view is always current once its backfill is done, so this waits for that.
     *
     * @param concurrently whether the statement said {@code CONCURRENTLY}, which PostgreSQL allows
     *     only for a view with a unique index: a Tributary view has no indexes, so never
     * @param resumeRate the rate limit (rows per second, {@code -1} unlimited; 0 is taken as
     *     unlimited) the backfill of a view created {@code WITH NO DATA} runs at, and a paused one
     *     (its rate set to 0) goes on at: REFRESH populates the view, as in PostgreSQL
     * @throws TributaryException as PostgreSQL: 42P01 when {@code name} does not exist, 0A000 when
     *     it is a table, 42809 when it is a plain view; 55000 with {@code concurrently}; the
     *     backfill's own error when it failed or was cancelled; 55000 when the view is not
     *     maintained (its query no longer plans)
     */
    void refresh(String name, boolean concurrently, long resumeRate, Runnable cancelCheck) throws InterruptedException {
        TableDef view = catalog.table(name).orElse(null);
        if (view == null && catalog.view(name).isPresent()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table or materialized view");
        }
        if (view == null) {
            throw new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
        }
        if (!view.isView()) {
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "\"" + name + "\" is not a materialized view");
        }
        if (concurrently && UnpopulatedViews.isUnpopulated(catalog, view.id())) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "CONCURRENTLY cannot be used when the materialized view is not populated");
        }
        if (concurrently) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "cannot refresh materialized view \"" + view.schema() + "." + view.localName() + "\" concurrently",
                    0,
                    null,
                    "Create a unique index with no WHERE clause on one or more columns of the materialized view.",
                    null);
        }
        // a session rate of 0 would leave the backfill paused and this wait endless: unlimited then
        long rate = resumeRate == 0 ? -1 : resumeRate;
        if (UnpopulatedViews.isUnpopulated(catalog, view.id())) {
            populate.start(view, rate);
            if (catalog.table(name).map(v -> v.id() != view.id()).orElse(true)) {
                throw new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
            }
        }
        ViewBackfills.Job job = backfills.job(view.id()).orElse(null);
        if (job == null) {
            // no job and unreadable: its job could not start (a query that no longer plans), so it is not current
            catalog.unreadable(view.id()).ifPresent(why -> {
                throw new TributaryException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, why.reason(), 0, null, why.hint(), null);
            });
        }
        if (job != null && job.record.rateLimit() == 0) {
            backfills.setRateLimit(view.id(), rate);
        }
        while (job != null) {
            cancelCheck.run();
            try {
                job.done.get(cancelPollMs, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // polls the cancel again
            } catch (ExecutionException e) {
                throw e.getCause() instanceof TributaryException te
                        ? te
                        : new TributaryException(SqlState.INTERNAL_ERROR, String.valueOf(e.getCause()));
            }
        }
    }
}
