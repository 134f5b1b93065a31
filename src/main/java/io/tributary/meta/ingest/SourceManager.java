package io.tributary.meta.ingest;

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
 * Runs the sources of tables created {@code WITH (connector = ...)}: checks and opens a source for
 * the DDL of CREATE TABLE, starts it once the table is durable and again at every server start (with the
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
    public record SplitProgress(
            String table,
            String connector,
            String split,
            String position,
            long rowsIngested,
            String phase,
            long lagMillis,
            long rateLimit,
            String lastError,
            long skippedInputs) {}

    /** Input a source skipped, as {@code tributary_catalog.source_errors} shows it. */
    public record SourceError(String table, String split, String location, String reason, Instant at) {}

    public SourceManager(SourceEngine engine, Connectors connectors) {
        this.engine = engine;
        this.connectors = connectors;
    }

    /**
     * A connector's source opened for a table being created, not yet running: the DDL stages the
     * table's record, then {@link #start starts} it once that is durable or {@link #discard
     * discards} it if the commit fails.
     *
     * @param table the table with its complete {@link SourceDef} (identity, DML acceptance, positions table)
     */
    public record PreparedSource(TableDef table, Source source, SourceConnector connector) {
        /** The same source for the table with watermark {@code watermark} (null: none). */
        public PreparedSource withWatermark(io.tributary.catalog.WatermarkDef watermark) {
            return new PreparedSource(table.withWatermark(watermark), source, connector);
        }

        /** The same source for a relation of {@code kind} ({@link TableDef#withKind}). */
        public PreparedSource as(io.tributary.catalog.RelationKind kind) {
            return new PreparedSource(table.withKind(kind), source, connector);
        }

        /** The same source for its table placed in {@code schema} ({@link TableDef#inSchema}). */
        public PreparedSource inSchema(String schema) {
            return new PreparedSource(table.inSchema(schema), source, connector);
        }
    }

    /**
     * Checks that {@code requested} names a known connector and only options it takes; called before
     * anything of a CREATE TABLE is reserved.
     *
     * @throws TributaryException 22023 for an unknown connector, 42601 for an unknown option
     *     (naming the valid ones)
     */
    public void checkOptions(SourceDef requested) {
        checkOptionNames(connectors.get(requested.connector()), requested.options());
    }

    /**
     * Opens {@code requested}'s connector's source for a table with id {@code tableId} (the id
     * after it is the positions table), once its options passed {@link #checkOptions}. The
     * connector checks the option values and may create what it needs outside (e.g. a replication
     * slot); the caller must {@link #start} or {@link #discard} what this returns.
     *
     * @throws TributaryException 22023 for a bad option value or nothing to read, 42601 for a
     *     missing option, 08001 for an unreachable upstream
     */
    public PreparedSource prepare(
            int tableId,
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            SourceDef requested) {
        SourceConnector connector = connectors.get(requested.connector());
        TableDef sketch = new TableDef(tableId, name, columns, primaryKey, definition, requested);
        Source source = connector.open(RunningSource.context(sketch, requested, null));
        try {
            if (source.splits().isEmpty()) {
                throw new ConnectorException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "connector " + connector.name() + " found nothing to read for table " + name);
            }
            SourceDef def = new SourceDef(
                    requested.connector(),
                    requested.options(),
                    requested.format(),
                    requested.encode(),
                    requested.formatOptions(),
                    source.identity(),
                    source.acceptsDml(),
                    tableId + 1,
                    SourceDef.UNLIMITED);
            return new PreparedSource(sketch.withSource(def), source, connector);
        } catch (RuntimeException e) {
            discard(source);
            throw e;
        }
    }

    /** Releases what {@link #prepare} made outside, for a table whose creation failed. Any thread. */
    public void discard(PreparedSource prepared) {
        discard(prepared.source());
    }

    /**
     * Runs a prepared table's source from now on. Called by the epoch change that created the
     * table, once it is durable (under the barrier lock: it only starts threads).
     */
    public void start(PreparedSource prepared) {
        start(prepared.table(), prepared.source(), prepared.connector());
    }

    /** 42601 for an option {@code connector} does not take, listing the ones it does. */
    private static void checkOptionNames(SourceConnector connector, Map<String, String> options) {
        for (String option : options.keySet()) {
            boolean known = false;
            for (String accepted : connector.options()) {
                known |= accepted.endsWith("*")
                        ? option.startsWith(accepted.substring(0, accepted.length() - 1))
                                && option.length() >= accepted.length()
                        : option.equals(accepted);
            }
            if (!known) {
                throw new ConnectorException(
                        SqlState.SYNTAX_ERROR,
                        "unknown option \"" + option
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
    public void recover() {
        List<TableDef> tables = new ArrayList<>(engine.catalog().tables().stream()
                .filter(t -> t.source() != null)
                .toList());
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
     * Applies a table's new source rate limit (rows per second over its splits,
     * {@link SourceDef#UNLIMITED} for none, 0 pauses) to its running source at once. The DDL that
     * changes the stored limit calls it; it does nothing for a table whose source is not running.
     */
    public void setRateLimit(int tableId, long rowsPerSecond) {
        RunningSource r = running.get(tableId);
        if (r != null) {
            r.setRateLimit(rowsPerSecond);
        }
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
     * for a connector's table only when its source said so, never for a source (CREATE SOURCE).
     *
     * @throws TributaryException 42809 when they may not
     */
    public static void checkWritable(TableDef table) {
        if (table.isSource()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE,
                    "cannot change source \"" + table.name() + "\": its rows come from connector "
                            + table.source().connector());
        }
        if (table.source() != null && !table.source().acceptsDml()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE,
                    "cannot change table \"" + table.name()
                            + "\": its rows come from connector "
                            + table.source().connector()
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
