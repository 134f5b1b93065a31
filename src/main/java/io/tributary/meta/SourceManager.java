package io.tributary.meta;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Connectors;
import io.tributary.connector.Source;
import io.tributary.connector.SourceConnector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the sources of tables created {@code WITH (connector = ...)}: checks and opens a source at
 * CREATE TABLE, starts it once the table is durable and again at every server start (with the
 * stored identity and each split's committed position), changes its rate limit, and releases it
 * when the table is dropped or the server stops. Reading and writing happen on each source's own
 * threads ({@link RunningSource}); a failing source stops alone and shows its error in
 * {@link #progress()}. Thread-safe.
 */
public final class SourceManager implements AutoCloseable {
    private final SourceEngine engine;
    private final Connectors connectors;
    /** Running sources by table id. */
    private final Map<Integer, RunningSource> running = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A split's row in {@code tributary_catalog.source_progress}; counts are durable (committed) ones. */
    public record SplitProgress(String table, String connector, String split, String position, long rowsIngested,
            String phase, long lagMillis, long rateLimit, String lastError, long skippedInputs) {
    }

    /** Input a source skipped, as {@code tributary_catalog.source_errors} shows it. */
    public record SourceError(String table, String split, String location, String reason, Instant at) {
    }

    SourceManager(SourceEngine engine, Connectors connectors) {
        this.engine = engine;
        this.connectors = connectors;
    }

    /**
     * Creates a table fed by a connector and returns once it is durable; its source starts right
     * after the commit. The connector checks the options first (and may create what it needs
     * outside, e.g. a replication slot); if anything fails before the commit, nothing is stored and
     * the source is destroyed again.
     *
     * @param requested the connector, options and format as written; identity, DML acceptance and
     *     the positions table are filled in here
     * @return false when the name existed and {@code ifNotExists} was set
     * @throws TributaryException 22023 for an unknown connector or a bad option value, 42601 for
     *     an unknown or missing option (naming the valid ones), 42P07 when the name exists
     */
    public boolean createTable(String name, List<ColumnDef> columns, int[] primaryKey, String definition,
            boolean ifNotExists, SourceDef requested) throws InterruptedException {
        SourceConnector connector = connectors.get(requested.connector());
        checkOptionNames(connector, requested.options());
        if (!engine.catalogService().reserveName(name, ifNotExists)) {
            return false;
        }
        Source source = null;
        long ticket;
        try {
            int tableId = engine.catalogService().allocateIds(2);
            TableDef sketch = new TableDef(tableId, name, columns, primaryKey, definition, requested);
            source = connector.open(RunningSource.context(sketch, requested, null));
            if (source.splits().isEmpty()) {
                throw new ConnectorException(SqlState.INVALID_PARAMETER_VALUE, "connector "
                        + connector.name() + " found nothing to read for table " + name);
            }
            SourceDef def = new SourceDef(requested.connector(), requested.options(), requested.format(),
                    requested.encode(), requested.formatOptions(), source.identity(), source.acceptsDml(),
                    tableId + 1, SourceDef.UNLIMITED);
            TableDef table = sketch.withSource(def);
            Source opened = source;
            ticket = engine.barriers().stage(buffer -> engine.catalogService().stageRecord(buffer, table), () -> {
                engine.catalog().put(table);
                engine.catalogService().releaseName(name);
                start(table, opened, connector);
            }, () -> {
                engine.catalogService().releaseName(name);
                discard(opened);
            });
        } catch (RuntimeException e) {
            engine.catalogService().releaseName(name);
            if (source != null) {
                discard(source);
            }
            throw e;
        }
        engine.barriers().awaitCommitted(ticket);
        return true;
    }

    /** 42601 for an option {@code connector} does not take, listing the ones it does. */
    private static void checkOptionNames(SourceConnector connector, Map<String, String> options) {
        for (String option : options.keySet()) {
            boolean known = false;
            for (String accepted : connector.options()) {
                known |= accepted.endsWith("*") ? option.startsWith(accepted.substring(0, accepted.length() - 1))
                        && option.length() >= accepted.length() : option.equals(accepted);
            }
            if (!known) {
                throw new ConnectorException(SqlState.SYNTAX_ERROR, "unknown option \"" + option
                        + "\" for connector " + connector.name() + "; its options are: "
                        + String.join(", ", connector.options()));
            }
        }
    }

    private static void discard(Source source) {
        try {
            source.close();
        } finally {
            source.destroy();
        }
    }

    /** Under the barrier lock (commit hook) or at recovery: runs the table's source from now on. */
    private void start(TableDef table, Source opened, SourceConnector connector) {
        if (closed) {
            if (opened != null) {
                opened.close();
            }
            return;
        }
        RunningSource r = new RunningSource(table, engine);
        running.put(table.id(), r);
        r.start(opened, connector);
    }

    /**
     * Starts the source of every committed table that has one, each resuming after its splits'
     * committed positions. Called once at server start, after the barrier manager started.
     */
    void recover() {
        List<TableDef> tables = new ArrayList<>(engine.catalog().tables().stream()
                .filter(t -> t.source() != null).toList());
        tables.sort(Comparator.comparingInt(TableDef::id));
        for (TableDef t : tables) {
            SourceConnector connector;
            try {
                connector = connectors.get(t.source().connector());
            } catch (ConnectorException e) {
                RunningSource r = new RunningSource(t, engine);
                running.put(t.id(), r);
                r.fail(null, e.getMessage(), e);
                continue;
            }
            start(t, null, connector);
        }
    }

    /**
     * {@code ALTER TABLE name SET SOURCE_RATE_LIMIT}: rows per second over all the table's splits
     * ({@link SourceDef#UNLIMITED} for none, 0 pauses). Takes effect at once; returns once durable.
     *
     * @throws TributaryException 42P01 for an unknown table, 42809 for a view or a table without
     *     a source, 22023 for a negative rate
     */
    public void setRateLimit(String name, long rowsPerSecond) throws InterruptedException {
        if (rowsPerSecond < 0 && rowsPerSecond != SourceDef.UNLIMITED) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE,
                    "SOURCE_RATE_LIMIT must be 0 (paused) or more rows per second, or DEFAULT");
        }
        TableDef[] before = new TableDef[1];
        long ticket = engine.barriers().stage(buffer -> {
            TableDef t = engine.catalog().require(name);
            if (t.isView() || t.source() == null) {
                throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table with a "
                        + "connector; SOURCE_RATE_LIMIT applies to tables created WITH (connector = '...')");
            }
            TableDef altered = t.withSource(t.source().withRateLimit(rowsPerSecond));
            engine.catalogService().stageRecord(buffer, altered);
            // in memory at once (under the barrier lock, like DROP), so a DROP staged later in the
            // same epoch is not undone when this commits
            engine.catalog().put(altered);
            before[0] = t;
            RunningSource r = running.get(t.id());
            if (r != null) {
                r.setRateLimit(rowsPerSecond);
            }
        }, null, () -> {
            TableDef t = before[0];
            if (t != null && engine.catalog().table(name).map(now -> now.id() == t.id()).orElse(false)) {
                engine.catalog().put(t);
                RunningSource r = running.get(t.id());
                if (r != null) {
                    r.setRateLimit(t.source().rateLimit());
                }
            }
        });
        engine.barriers().awaitCommitted(ticket);
    }

    /**
     * Stops the sources of tables no longer in the catalog, closes them and calls
     * {@link Source#destroy()}. Called after a DROP TABLE committed (their positions went with
     * the table's rows in that epoch). Any thread.
     */
    public void releaseDropped() {
        Set<Integer> live = new HashSet<>();
        for (TableDef t : engine.catalog().tables()) {
            live.add(t.id());
        }
        List<RunningSource> dropped = new ArrayList<>();
        for (Map.Entry<Integer, RunningSource> e : running.entrySet()) {
            if (!live.contains(e.getKey()) && running.remove(e.getKey(), e.getValue())) {
                dropped.add(e.getValue());
            }
        }
        dropped.forEach(r -> r.requestStop(true));
        dropped.forEach(RunningSource::awaitStopped);
    }

    /**
     * Whether INSERT, UPDATE, DELETE and COPY may change {@code table}: always for plain tables,
     * for a connector's table only when its source said so.
     *
     * @throws TributaryException 42809 when they may not
     */
    public static void checkWritable(TableDef table) {
        if (table.source() != null && !table.source().acceptsDml()) {
            throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "cannot change table \"" + table.name()
                    + "\": its rows come from connector " + table.source().connector()
                    + ", which takes no INSERT, UPDATE, DELETE or COPY");
        }
    }

    /** Every split of every source, by table name then split. Any thread. */
    public List<SplitProgress> progress() {
        List<SplitProgress> out = new ArrayList<>();
        for (RunningSource r : running.values()) {
            out.addAll(r.progress());
        }
        out.sort(Comparator.comparing(SplitProgress::table).thenComparing(SplitProgress::split));
        return out;
    }

    /** The input each source skipped lately (the newest {@value RunningSource#ERRORS_KEPT} per table). Any thread. */
    public List<SourceError> errors() {
        List<SourceError> out = new ArrayList<>();
        for (RunningSource r : running.values()) {
            out.addAll(r.errors());
        }
        out.sort(Comparator.comparing(SourceError::table).thenComparing(SourceError::at));
        return out;
    }

    /** Stops every source's threads and closes the sources (nothing is destroyed); their staged rows commit at shutdown. */
    @Override
    public void close() {
        closed = true;
        List<RunningSource> all = List.copyOf(running.values());
        running.clear();
        all.forEach(r -> r.requestStop(false));
        all.forEach(RunningSource::awaitStopped);
    }
}
