package io.tributary.server.http;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SystemTable;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import io.tributary.meta.system.PlanGraph;
import io.tributary.meta.system.ViewOperatorRows;
import io.tributary.server.session.PreparedStatement;
import io.tributary.server.session.RowCursor;
import io.tributary.server.session.Session;
import io.tributary.server.session.SessionFactory;
import io.tributary.server.session.StatementResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON API under {@code /api}: what the dashboard shows, from the same engine state the
 * system tables read (each list is the rows of its {@code tributary_catalog} table, plus the
 * rate history and sizes SQL does not show). One per database ({@link DatabaseBoards}); every
 * method returns a tree of maps, lists and plain values for Jackson. Called on the HTTP worker
 * thread; the engine state it reads is thread-safe.
 */
final class DashboardApi {
    /** Newest skipped inputs shown with the sources. */
    private static final int ERRORS_SHOWN = 50;

    private final Database db;
    private final SessionFactory sessions;
    private final RateHistory history;
    private final EpochLog epochs;

    DashboardApi(Database db, SessionFactory sessions, RateHistory history, EpochLog epochs) {
        this.db = db;
        this.sessions = sessions;
        this.history = history;
        this.epochs = epochs;
    }

    /**
     * {@code GET /api/jobs}: each {@code ddl_progress} row with its recent rate and rate history,
     * then each sink backfill still running ({@code kind} "sink backfill", {@code job_id}
     * "sink:NAME"), its progress the share of vnodes the target holds.
     */
    Object jobs() {
        List<Map<String, Object>> jobs = rows("ddl_progress");
        for (Map<String, Object> job : jobs) {
            String key = RateHistory.jobKey(((Long) job.get("job_id")).intValue());
            job.put("kind", "view backfill");
            job.put("recent_rows_per_second", history.latestRate(key));
            job.put("rate_history", points(history.rates(key)));
        }
        for (Map<String, Object> part : rows("sink_progress")) {
            if ("backfill".equals(part.get("part")) && !"complete".equals(part.get("phase"))) {
                jobs.add(sinkBackfill(part));
            }
        }
        return Map.of("jobs", jobs);
    }

    /**
     * A sink backfill's {@code sink_progress} row as a job. Its ETA assumes the rows left are spread
     * over the vnodes left as the rows so far were over the vnodes done; rows count from the
     * server's start, so just after a restart the estimate is rough.
     */
    private Map<String, Object> sinkBackfill(Map<String, Object> part) {
        String sink = (String) part.get("sink_name");
        String key = RateHistory.sinkBackfillKey(sink);
        long rowsDone = ((Number) part.get("rows_done")).longValue();
        Number done = (Number) part.get("vnodes_done");
        Number total = (Number) part.get("vnodes_total");
        double progress = done == null || total == null ? 0 : 100.0 * done.intValue() / total.intValue();
        double rate = history.latestRate(key);
        Long eta = null;
        if (progress > 0 && rate > 0) {
            double rowsLeft = rowsDone * (100 - progress) / progress;
            eta = System.currentTimeMillis() + (long) (rowsLeft / rate * 1000);
        }
        Map<String, Object> job = new java.util.LinkedHashMap<>();
        job.put("job_id", "sink:" + sink);
        job.put("kind", "sink backfill");
        job.put("view_name", "sink " + sink);
        job.put("phase", part.get("phase"));
        job.put("progress", Math.round(progress * 100) / 100.0);
        job.put("rows_done", rowsDone);
        job.put("rows_expected", null);
        job.put("rows_per_second", (long) Math.max(0, rate));
        job.put("eta", eta);
        job.put("recent_rows_per_second", rate);
        job.put("rate_history", points(history.rates(key)));
        return job;
    }

    /** {@code GET /api/sources}: each {@code source_progress} row with its rate history, and the newest skipped inputs. */
    Object sources() {
        List<Map<String, Object>> splits = rows("source_progress");
        for (Map<String, Object> split : splits) {
            String key = RateHistory.splitKey((String) split.get("table_name"), (String) split.get("split"));
            split.put("recent_rows_per_second", history.latestRate(key));
            split.put("rate_history", points(history.rates(key)));
        }
        List<Map<String, Object>> errors = rows("source_errors");
        List<Map<String, Object>> newest = errors.subList(Math.max(0, errors.size() - ERRORS_SHOWN), errors.size());
        return Map.of("splits", splits, "errors", newest);
    }

    /**
     * {@code GET /api/sinks}: the rows of {@code tributary_catalog.sink_progress} when the server
     * has sinks (that table exists), with {@code available} telling which.
     */
    Object sinks() {
        Optional<SystemTable> table = db.systemTables().table("sink_progress");
        return Map.of(
                "available",
                table.isPresent(),
                "sinks",
                table.map(SystemRows::of).orElse(List.of()));
    }

    /**
     * {@code GET /api/databases}: every database in listing order with its committed epoch, epoch
     * length, time since its last commit and how many backfills, materialized views, plain views
     * and cross-database inputs it has, for the dashboard's overview and database picker.
     */
    static Object databases(List<DatabaseBoards.Board> boards) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (DatabaseBoards.Board b : boards) {
            Database db = b.db();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", db.name());
            d.putAll(b.api().barrierState());
            d.put("jobs", db.systemTables().require("ddl_progress").rows().size());
            d.put(
                    "materialized_views",
                    db.catalog().tables().stream().filter(TableDef::isView).count());
            d.put("views", db.catalog().views().size());
            d.put("cross_database_inputs", db.ddl().crossDatabaseLags().size());
            out.add(d);
        }
        return Map.of("databases", out);
    }

    /**
     * {@code GET /api/consumers}: the cross-database reads that involve this database, with their lag
     * in epochs and milliseconds: {@code inputs}, the rows of its {@code cross_database_inputs} (its
     * materialized views reading other databases' tables), and {@code readers}, the same rows of
     * every other database whose upstream is this one, each with the reading {@code database}.
     */
    Object consumers(List<DatabaseBoards.Board> boards) {
        List<Map<String, Object>> readers = new ArrayList<>();
        for (DatabaseBoards.Board b : boards) {
            if (b.db() == db) {
                continue;
            }
            for (Map<String, Object> row : SystemRows.of(b.db().systemTables().require("cross_database_inputs"))) {
                if (db.name().equals(row.get("upstream_database"))) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("database", b.db().name());
                    r.putAll(row);
                    readers.add(r);
                }
            }
        }
        return Map.of("inputs", rows("cross_database_inputs"), "readers", readers);
    }

    /**
     * {@code GET /api/views}: every materialized view with its status and approximate state size,
     * then ({@code plain_views}) every plain view with its schema and definition.
     */
    Object views() {
        List<Map<String, Object>> views = new ArrayList<>();
        for (TableDef t : db.catalog().tables()) {
            if (!t.isView()) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", t.id());
            v.put("name", t.name());
            v.put("parallelism", t.parallelism());
            v.put("status", status(t));
            v.put("state_bytes", stateBytes(t));
            v.put("definition", t.definition());
            views.add(v);
        }
        List<Map<String, Object>> plain = new ArrayList<>();
        for (ViewDef v : db.catalog().views()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", v.localName());
            p.put("schema", v.schema());
            p.put("definition", v.definition());
            plain.add(p);
        }
        return Map.of("views", views, "plain_views", plain);
    }

    /**
     * {@code GET /api/views/NAME}: the view's stream plan as a graph (fragments, operators,
     * exchange edges, state tables with their sizes), rows and rows/s per operator, and its state
     * size.
     */
    Object view(String name) {
        TableDef view = db.catalog()
                .table(name)
                .filter(TableDef::isView)
                .orElseThrow(() -> new ApiError(404, "42P01", "materialized view \"" + name + "\" does not exist"));
        PlanGraph plan;
        try {
            plan = PlanGraph.ofView(db.ddl(), view)
                    .orElseThrow(() -> new ApiError(404, "42P01", "materialized view \"" + name + "\" does not exist"));
        } catch (TributaryException e) {
            throw new ApiError(409, e.sqlState(), e.getMessage());
        }
        Map<String, Long> tableBytes = new LinkedHashMap<>();
        tableBytes.put(Integer.toString(view.id()), db.approximateBytes(view.id()));
        for (int id : view.stateTableIds()) {
            tableBytes.put(Integer.toString(id), db.approximateBytes(id));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", view.id());
        out.put("name", view.name());
        out.put("parallelism", view.parallelism());
        out.put("status", status(view));
        out.put("definition", view.definition());
        out.put(
                "state_bytes",
                tableBytes.values().stream().mapToLong(Long::longValue).sum());
        out.put("table_bytes", tableBytes);
        out.put("plan", plan);
        out.put("operators", operators(view));
        return out;
    }

    /**
     * Per operator of the view's running job (by plan graph node): rows in and out since the job
     * started and their recent rates (-1 until known); empty when the view runs no job.
     */
    private List<Map<String, Object>> operators(TableDef view) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ViewOperatorRows r : ViewOperatorRows.of(db.ddl(), view)) {
            Map<String, Object> op = new LinkedHashMap<>();
            op.put("node", r.node());
            op.put("fragment", r.fragment());
            op.put("operator", r.operator());
            op.put("rows_in", r.rowsIn());
            op.put("rows_out", r.rowsOut());
            op.put("rows_in_per_second", history.latestRate(RateHistory.operatorKey(view.name(), r.node(), true)));
            String outKey = RateHistory.operatorKey(view.name(), r.node(), false);
            op.put("rows_out_per_second", history.latestRate(outKey));
            op.put("rate_history", points(history.rates(outKey)));
            out.add(op);
        }
        return out;
    }

    /** {@code GET /api/epochs}: the committed epoch, the configured interval and the last commits' latencies. */
    Object epochs() {
        Map<String, Object> out = barrierState();
        List<List<Object>> commits = new ArrayList<>();
        for (EpochLog.Commit c : epochs.commits()) {
            commits.add(List.of(c.epoch(), c.atMillis(), c.commitMillis()));
        }
        out.put("commits", commits);
        out.put("commit_columns", List.of("epoch", "at_ms", "commit_ms"));
        return out;
    }

    /** The committed epoch, the configured interval and the milliseconds since the last commit (null before one). */
    Map<String, Object> barrierState() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("committed_epoch", db.barriers().committedEpoch());
        out.put("barrier_interval_ms", db.barriers().intervalMillis());
        long since = db.barriers().nanosSinceLastCommit();
        out.put("ms_since_last_commit", since < 0 ? null : since / 1e6);
        return out;
    }

    /** {@code GET /api/metrics/history}: every rate series (jobs, splits, operators) over the window, by key. */
    Object history() {
        Map<String, Object> series = new LinkedHashMap<>();
        history.all().forEach((k, v) -> series.put(k, points(v)));
        return Map.of("window_seconds", RateHistory.WINDOW_SECONDS, "series", series);
    }

    /**
     * {@code POST /api/jobs/ID/cancel}: runs {@code CANCEL JOBS ID} in a session of its own in this
     * database, as a client would, and returns the ids it cancelled.
     *
     * @throws ApiError 404 when no such job is running, or the statement's SQLSTATE
     */
    Object cancel(int jobId) {
        List<Long> cancelled = new ArrayList<>();
        try (Session session = sessions.open("dashboard", db.name(), Map.of())) {
            PreparedStatement statement = session.prepare("CANCEL JOBS " + jobId, List.of());
            try {
                StatementResult result = session.execute(statement, List.of());
                if (result instanceof StatementResult.Rows rows) {
                    try (RowCursor cursor = rows.cursor()) {
                        for (Object[] row : cursor.fetch(0)) {
                            cancelled.add(((Number) row[0]).longValue());
                        }
                    }
                }
            } finally {
                statement.close();
                session.endStatement();
            }
        } catch (TributaryException e) {
            throw new ApiError(e.sqlState().startsWith("42") ? 400 : 409, e.sqlState(), e.getMessage());
        }
        if (cancelled.isEmpty()) {
            throw new ApiError(404, "42704", "no job " + jobId + " is running");
        }
        return Map.of("cancelled", cancelled);
    }

    private List<Map<String, Object>> rows(String systemTable) {
        return SystemRows.of(db.systemTables().require(systemTable));
    }

    private String status(TableDef view) {
        return db.catalog()
                .unreadable(view.id())
                .map(Catalog.Unreadable::reason)
                .orElse("ready");
    }

    private long stateBytes(TableDef view) {
        long bytes = db.approximateBytes(view.id());
        for (int id : view.stateTableIds()) {
            bytes += db.approximateBytes(id);
        }
        return bytes;
    }

    private static List<List<Object>> points(List<RateHistory.Point> points) {
        List<List<Object>> out = new ArrayList<>(points.size());
        for (RateHistory.Point p : points) {
            out.add(List.of(p.atMillis(), p.rowsPerSecond()));
        }
        return out;
    }
}
