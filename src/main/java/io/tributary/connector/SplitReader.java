package io.tributary.connector;

/**
 * Reads one split. Pull model: the engine asks for the next batch and, once per batch it stages,
 * for the position; nothing per row carries state. A reader is used by one engine thread at a time.
 */
public interface SplitReader extends AutoCloseable {
    /**
     * The next changes, waiting at most {@code maxWaitMillis} for some to arrive.
     *
     * @param maxRows the largest number of changes the engine takes now (rate limits)
     * @return a batch, possibly empty when nothing arrived in time; never null
     * @throws ConnectorException when the split cannot continue (e.g. {@code on_error = 'fail'}
     *     and a malformed line); the engine stops the source and shows the error
     */
    SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException;

    /**
     * The position right after the last change returned by {@link #poll}: opening a reader with
     * it yields exactly the changes not returned yet. The engine asks once per batch it stages
     * (after a non-empty poll, never per row) and commits the answer in the same epoch write as
     * that batch's rows; keep it cheap to build.
     */
    byte[] position();

    /** A human-readable form of {@code position}, for {@code tributary_catalog.source_progress}. */
    String describe(byte[] position);

    /**
     * {@code position} is durable in Tributary: the reader may acknowledge it upstream (e.g.
     * confirm the LSN so PostgreSQL can recycle WAL). Called after the commit, on any thread. Does
     * nothing by default, for inputs with nobody to acknowledge.
     */
    default void onCheckpointComplete(byte[] position) {}

    /**
     * What the reader is doing now: {@code snapshotting}, {@code streaming}, or {@code finished}
     * once a bounded input is read to its end; {@code streaming} by default, for readers that
     * neither snapshot nor end.
     */
    default String phase() {
        return "streaming";
    }

    /**
     * How far behind the source the reader is, in milliseconds, or -1 when unknown (the default).
     */
    default long lagMillis() {
        return -1;
    }

    /** Releases what the reader holds, once the engine is done with it. Does nothing by default. */
    @Override
    default void close() {}
}
