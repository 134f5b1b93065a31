package io.tributary.connector;

import java.util.List;

/**
 * One table's source, open while the table exists and the server runs. The engine reads it
 * through one {@link SplitReader} per split. Methods are called from the engine's source threads;
 * implementations must be thread-safe across splits.
 */
public interface Source extends AutoCloseable {
    /**
     * Bytes that identify what the source created outside Tributary (e.g. a replication slot
     * name), persisted once after the first open and handed back on every later open; empty when
     * there is nothing to keep, which is the default.
     */
    default byte[] identity() {
        return new byte[0];
    }

    /** The split ids; fixed for the source's life, so positions stored per split stay meaningful. */
    List<String> splits();

    /**
     * Opens the reader of {@code split}, resuming right after {@code position} (as returned by
     * {@link SplitReader#position()} and committed), or from the beginning when it is null.
     */
    SplitReader reader(String split, byte[] position);

    /**
     * Whether INSERT/UPDATE/DELETE statements may change the table too. By default they may not:
     * the table is the source's, and written rows could clash with ingested ones on the key.
     */
    default boolean acceptsDml() {
        return false;
    }

    /**
     * The table is being dropped: release what the source created outside Tributary (e.g. drop the
     * replication slot). Called once, after {@link #close()} of every reader; best effort. Does
     * nothing by default, for sources that create nothing outside Tributary.
     */
    default void destroy() {}

    /**
     * Stops the source; the readers are closed before. Does nothing by default, for sources whose
     * readers hold every resource.
     */
    @Override
    default void close() {}
}
