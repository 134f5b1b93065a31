package io.tributary.meta.ingest;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SkippedInput;
import io.tributary.connector.Source;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceFormat;
import io.tributary.storage.ReadView;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's running source: the open {@link Source}, a {@link SplitRunner} thread per split, the
 * rate limiter they share and the input they skipped. Started once the table is durable; stopped
 * by DROP TABLE (which also destroys what the source created outside), at shutdown, or by the
 * first split that fails (the others stop too and the error stays visible in
 * {@code source_progress}; the server keeps serving). Thread-safe.
 */
final class RunningSource {
    private static final Logger LOG = LoggerFactory.getLogger(RunningSource.class);
    /** How many skipped inputs per table {@code source_errors} keeps (the newest). */
    static final int ERRORS_KEPT = 1000;

    private static final long STOP_WAIT_MILLIS = 10_000;

    private final TableDef table;
    private final SourceEngine engine;
    private final SourceRateLimiter limiter;
    private final List<SplitRunner> runners = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ArrayDeque<SourceManager.SourceError> errors = new ArrayDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean destroyed = new AtomicBoolean();
    private Source source;
    private Thread opener;
    private boolean stopping;
    private boolean destroyOnStop;
    private int live;
    private volatile String error;

    RunningSource(TableDef table, SourceEngine engine) {
        this.table = table;
        this.engine = engine;
        this.limiter = new SourceRateLimiter(table.source().rateLimit());
    }

    TableDef table() {
        return table;
    }

    SourceRateLimiter limiter() {
        return limiter;
    }

    Logger log() {
        return LOG;
    }

    synchronized Source source() {
        return source;
    }

    /** What a connector of this table is opened with; {@code identity} null at CREATE. */
    static SourceContext context(TableDef table, SourceDef def, byte[] identity) {
        List<SourceColumn> columns = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            // the engine fills AS PROCTIME() columns as it ingests the rows
            if (!c.hidden() && !c.proctime()) {
                columns.add(new SourceColumn(c.name(), c.type()));
            }
        }
        SourceFormat format =
                def.format() == null ? null : new SourceFormat(def.format(), def.encode(), def.formatOptions());
        return new SourceContext(
                table.id(),
                table.name(),
                columns,
                table.hasRowId() ? new int[0] : table.primaryKey(),
                def.options(),
                format,
                identity);
    }

    /**
     * Starts reading: with {@code opened} (CREATE TABLE opened it already to check the options), or
     * else by opening {@code connector} with the stored identity on a thread of its own, so an
     * unreachable external system delays only this table. Called once.
     */
    synchronized void start(Source opened, SourceConnector connector) {
        opener = new Thread(
                () -> {
                    try {
                        Source s = opened != null
                                ? opened
                                : connector.open(context(
                                        table, table.source(), table.source().identity()));
                        launch(s);
                    } catch (RuntimeException | Error e) {
                        fail(null, e instanceof ConnectorException ? e.getMessage() : e.toString(), e);
                    }
                },
                "source-open-" + table.name());
        opener.setDaemon(true);
        opener.start();
    }

    private synchronized void launch(Source s) {
        source = s;
        if (stopping) {
            closeSource();
            return;
        }
        List<String> splits = s.splits();
        if (splits.isEmpty() || new HashSet<>(splits).size() != splits.size()) {
            throw new ConnectorException(
                    SqlState.INTERNAL_ERROR,
                    "connector " + table.source().connector() + " gave no or repeated split ids: " + splits);
        }
        int positionsTable = table.source().positionsTableId();
        try (ReadView committed = engine.store().snapshot()) {
            for (String split : splits) {
                byte[] key = SourcePositions.key(positionsTable, split);
                runners.add(new SplitRunner(this, engine, table, split, key, SourcePositions.read(committed, key)));
            }
        }
        live = runners.size();
        for (SplitRunner r : runners) {
            Thread t = new Thread(r, "source-" + table.name() + "-" + r.split());
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        LOG.info(
                "source of table {} ({}) started with {} split(s)",
                table.name(),
                table.source().connector(),
                runners.size());
    }

    /**
     * A split (or the open, when {@code split} is null) failed: stop every split and keep the
     * error for {@code source_progress}. Any thread.
     */
    void fail(String split, String message, Throwable cause) {
        List<SplitRunner> others;
        synchronized (this) {
            if (error != null || stopping) {
                return;
            }
            error = (split == null ? "" : "split " + split + ": ") + message;
            others = List.copyOf(runners);
            if (others.isEmpty()) {
                closeSource();
            }
        }
        LOG.error("source of table {} stopped: {}", table.name(), error, cause);
        others.forEach(SplitRunner::stop);
    }

    /** A split thread ended; the last one closes the source. */
    synchronized void exited(SplitRunner runner) {
        if (--live == 0 && (error != null || stopping)) {
            closeSource();
        }
    }

    /** Input a split skipped; keeps the newest {@link #ERRORS_KEPT}. */
    void skipped(String split, List<SkippedInput> inputs) {
        if (inputs.isEmpty()) {
            return;
        }
        Instant at = Instant.now();
        synchronized (errors) {
            for (SkippedInput in : inputs) {
                if (errors.size() == ERRORS_KEPT) {
                    errors.removeFirst();
                }
                errors.addLast(new SourceManager.SourceError(table.name(), split, in.location(), in.reason(), at));
            }
        }
    }

    List<SourceManager.SourceError> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    /** One row per split (or one row without a split while the source is being opened or failed to open). */
    List<SourceManager.SplitProgress> progress() {
        List<SplitRunner> rs;
        synchronized (this) {
            rs = List.copyOf(runners);
        }
        String err = error;
        long rate = limiter.rate();
        if (rs.isEmpty()) {
            return List.of(new SourceManager.SplitProgress(
                    table.name(),
                    table.source().connector(),
                    "",
                    "",
                    0,
                    err != null ? "failed" : "starting",
                    -1,
                    rate,
                    err,
                    0));
        }
        return rs.stream().map(r -> r.progress(rate, err)).toList();
    }

    void setRateLimit(long rowsPerSecond) {
        limiter.setRate(rowsPerSecond);
    }

    /**
     * Stops every split thread (staged batches still commit with their epoch), closes the source
     * and, with {@code destroy}, releases what it created outside Tributary. Returns once the
     * threads ended. Any thread but a split's own.
     */
    void stop(boolean destroy) {
        requestStop(destroy);
        awaitStopped();
    }

    /** Tells every split thread to stop, without waiting; see {@link #stop}. */
    synchronized void requestStop(boolean destroy) {
        stopping = true;
        destroyOnStop |= destroy;
        runners.forEach(SplitRunner::stop);
    }

    /** Waits for the threads told to stop by {@link #requestStop}, then closes (and maybe destroys) the source. */
    void awaitStopped() {
        List<Thread> ts;
        Thread open;
        synchronized (this) {
            ts = List.copyOf(threads);
            open = opener;
        }
        join(open);
        for (Thread t : ts) {
            join(t);
        }
        synchronized (this) {
            closeSource();
        }
    }

    private static void join(Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(STOP_WAIT_MILLIS);
            if (t.isAlive()) {
                t.interrupt();
                t.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the source once, and destroys it once the table is dropped; holding this lock. */
    private void closeSource() {
        if (source == null) {
            return;
        }
        if (closed.compareAndSet(false, true)) {
            try {
                source.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the source of table {} failed", table.name(), e);
            }
        }
        if (destroyOnStop && destroyed.compareAndSet(false, true)) {
            try {
                source.destroy();
            } catch (RuntimeException e) {
                LOG.warn("releasing what the source of table {} created failed", table.name(), e);
            }
        }
    }
}
