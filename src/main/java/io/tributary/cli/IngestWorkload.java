package io.tributary.cli;

import java.io.Reader;
import java.nio.file.Path;
import java.sql.Statement;

/**
 * One kind of source {@code bench ingest} measures: the clause that makes a Tributary table
 * ingest {@code rows} rows through a connector, and the very same rows as COPY input for
 * PostgreSQL. A new connector joins the benchmark with an implementation listed in
 * {@link IngestBenchmark#WORKLOADS}. The benchmark calls one workload from one thread, round after
 * round, and closes it after its last round.
 */
interface IngestWorkload extends AutoCloseable {
    /** The connector's name, which the {@code --source} option selects, e.g. {@code datagen}. */
    String name();

    /** The table's column list with its primary key, the same on both targets. */
    String columns();

    /**
     * Prepares the input of one round that exists before the table (files, an upstream table)
     * under {@code workDir}, outside the measured time, and returns what follows CREATE TABLE's
     * column list on Tributary: {@code WITH (...) [FORMAT ...]}.
     *
     * @param table the name of the round's table on Tributary
     */
    String prepare(Path workDir, String table, long rows, int splits) throws Exception;

    /**
     * Called right after the round's CREATE TABLE (and view) on Tributary: makes whatever part of
     * the input arrives only after the table exists arrive (e.g. upstream changes), and says when
     * the measured time began. The benchmark then waits until {@code rows} rows are committed.
     *
     * @param tributary a statement on the Tributary server, for waiting on the table's source
     * @param createdAt {@link System#nanoTime()} just before CREATE TABLE
     * @return the {@link System#nanoTime()} the measured time starts at; {@code createdAt} (the
     *     default) when all input was there before CREATE TABLE
     */
    default long feed(Statement tributary, String table, long rows, long createdAt) throws Exception {
        return createdAt;
    }

    /** The splits the source really reads with when {@code requested} were asked for. */
    default int splits(int requested) {
        return requested;
    }

    /** What the COPY statement takes after {@code FROM STDIN}: empty for text format. */
    default String copyOptions() {
        return "";
    }

    /** The rows of the round as COPY input in the format {@link #copyOptions()} names. */
    Reader copyInput(long rows) throws Exception;

    /** One line saying what was timed on each side, printed under the figures. */
    String method();

    /** Stops what the workload started (an upstream database); nothing by default. */
    @Override
    default void close() throws Exception {}
}
