package io.tributary.cli;

import java.io.Reader;
import java.nio.file.Path;

/**
 * One kind of source {@code bench ingest} measures: the clause that makes a Tributary table
 * ingest {@code rows} rows through a connector, and the very same rows as COPY input for
 * PostgreSQL. A new connector joins the benchmark with an implementation listed in
 * {@link IngestBenchmark#WORKLOADS} (e.g. CSV files: write the files in {@link #prepare}, read
 * them back for COPY; CDC: fill the upstream PostgreSQL table in {@link #prepare}).
 */
interface IngestWorkload {
    /** The name the {@code --source} option selects, e.g. {@code datagen}. */
    String name();

    /** The table's column list with its primary key, the same on both targets. */
    String columns();

    /**
     * Prepares the input of one round (files, an upstream table) under {@code workDir} and
     * returns what follows CREATE TABLE's column list on Tributary: {@code WITH (...) [FORMAT ...]}.
     */
    String prepare(Path workDir, long rows, int splits) throws Exception;

    /** The rows of the round as COPY text input (tab-separated, {@code \N} for NULL). */
    Reader copyInput(long rows) throws Exception;
}
