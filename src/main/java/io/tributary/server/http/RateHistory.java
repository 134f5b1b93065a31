package io.tributary.server.http;

import io.tributary.meta.Database;
import io.tributary.meta.system.ViewOperatorRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Rows/s over the last {@value #WINDOW_SECONDS} seconds, per backfill job, per source split and per
 * operator of each running view, for the dashboard's sparklines, charts and plan graph: once a
 * second it samples each one's row count (jobs and splits from the system tables
 * {@code ddl_progress} and {@code source_progress}, operators from {@link ViewOperatorRows}) and
 * keeps the samples in a ring. Rates are taken over {@value #RATE_SPAN} samples, since counts move at
 * checkpoints and commits rather than smoothly. One per database; {@link DatabaseBoards}' thread
 * samples, HTTP requests read.
 */
final class RateHistory {
    static final int WINDOW_SECONDS = 300;
    static final int RATE_SPAN = 3;

    /** One point of a rate series: wall-clock milliseconds and rows per second. */
    record Point(long atMillis, double rowsPerSecond) {}

    /** The samples of one counter, oldest first, at most one window. */
    private static final class Samples {
        final long[] at = new long[WINDOW_SECONDS + 1];
        final long[] value = new long[WINDOW_SECONDS + 1];
        long count;
        long lastSeen;

        void add(long atMillis, long v) {
            int i = (int) (count % at.length);
            at[i] = atMillis;
            value[i] = v;
            count++;
            lastSeen = atMillis;
        }

        List<Point> rates() {
            int n = (int) Math.min(count, at.length);
            List<Point> out = new ArrayList<>(n);
            for (long k = count - n + RATE_SPAN; k < count; k++) {
                int i = (int) (k % at.length);
                int j = (int) ((k - RATE_SPAN) % at.length);
                long dt = at[i] - at[j];
                double rate = dt <= 0 ? 0 : Math.max(0, value[i] - value[j]) * 1000.0 / dt;
                out.add(new Point(at[i], rate));
            }
            return out;
        }
    }

    private final Database db;
    private final Map<String, Samples> series = new HashMap<>();

    RateHistory(Database db) {
        this.db = db;
    }

    /** Takes one sample of every counter of the database at wall-clock {@code now}. */
    synchronized void sample(long now) {
        for (Map<String, Object> job : SystemRows.of(db.systemTables().require("ddl_progress"))) {
            // rows read, not done: done moves only at checkpoints, which can be tens of seconds apart
            add(jobKey(((Number) job.get("job_id")).intValue()), now, ((Number) job.get("rows_read")).longValue());
        }
        for (Map<String, Object> split : SystemRows.of(db.systemTables().require("source_progress"))) {
            add(
                    splitKey((String) split.get("table_name"), (String) split.get("split")),
                    now,
                    ((Number) split.get("rows_ingested")).longValue());
        }
        for (Map<String, Object> part : SystemRows.of(db.systemTables().require("sink_progress"))) {
            if ("backfill".equals(part.get("part"))) {
                add(sinkBackfillKey((String) part.get("sink_name")), now, ((Number) part.get("rows_done")).longValue());
            }
        }
        for (ViewOperatorRows op : ViewOperatorRows.all(db.ddl(), db.catalog())) {
            add(operatorKey(op.view(), op.node(), true), now, op.rowsIn());
            add(operatorKey(op.view(), op.node(), false), now, op.rowsOut());
        }
        // a job, split or operator gone for a whole window has nothing left to show
        for (Iterator<Samples> it = series.values().iterator(); it.hasNext(); ) {
            if (now - it.next().lastSeen > WINDOW_SECONDS * 1000L) {
                it.remove();
            }
        }
    }

    private void add(String key, long now, long value) {
        series.computeIfAbsent(key, k -> new Samples()).add(now, value);
    }

    static String sinkBackfillKey(String sink) {
        return "sink-backfill:" + sink;
    }

    static String jobKey(int jobId) {
        return "job:" + jobId;
    }

    static String splitKey(String table, String split) {
        return "split:" + table + "/" + split;
    }

    /** The key of the rows in ({@code in}) or out of operator {@code node} of view {@code view}. */
    static String operatorKey(String view, int node, boolean in) {
        return "operator:" + view + "/" + node + (in ? "/in" : "/out");
    }

    /** The rate series of {@code key} ({@link #jobKey}, {@link #splitKey}, {@link #operatorKey}), oldest first; empty when unknown. */
    synchronized List<Point> rates(String key) {
        Samples s = series.get(key);
        return s == null ? List.of() : s.rates();
    }

    /** The newest rate of {@code key}, or -1 before there are enough samples. */
    synchronized double latestRate(String key) {
        List<Point> r = rates(key);
        return r.isEmpty() ? -1 : r.get(r.size() - 1).rowsPerSecond();
    }

    /** Every series by key. */
    synchronized Map<String, List<Point>> all() {
        Map<String, List<Point>> out = new HashMap<>();
        series.forEach((k, s) -> out.put(k, s.rates()));
        return out;
    }
}
