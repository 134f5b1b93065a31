package io.tributary.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The flags shared by {@code playground} and {@code server}; their names are a public contract. */
final class ServerOptions {
    @Option(names = "--port", defaultValue = "4566", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--http-port",
            defaultValue = "4567",
            description =
                    "Port of the dashboard, /metrics and /api on the --listen address; 0 turns it off (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(
            names = "--listen",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(
            names = "--data-dir",
            defaultValue = "./tributary-data",
            description = "Directory holding all state (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--max-backfill-jobs",
            defaultValue = "4",
            description =
                    "Materialized views that may be backfilled at once; more CREATEs fail with 53400 (default: ${DEFAULT-VALUE}).")
    int maxBackfillJobs;

    @Option(
            names = "--barrier-interval-ms",
            defaultValue = "1000",
            description = "Epoch length: how often changes commit when nobody waits (default: ${DEFAULT-VALUE}).")
    long barrierIntervalMs;

    @Option(
            names = "--statement-timeout",
            description =
                    "Default statement_timeout of every session, in PostgreSQL's units (e.g. 30s, 5min); 0 disables (default: 0).")
    String statementTimeout;

    @Option(
            names = "--query-memory",
            description =
                    "Memory the sorts, hash tables and groupings of one query may hold, e.g. 512MB; beyond it the query fails with 53200 (default: a quarter of the maximum heap).")
    String queryMemory;

    @Option(
            names = "--jobs-url",
            description =
                    "A shared PostgreSQL (jdbc:postgresql://...) where jobs are queued for `tributary worker` processes; sinks WITH (backfill.remote = 'true') copy their snapshots there. Without it every job runs here.")
    String jobsUrl;

    @Option(
            names = "--jobs-fallback-ms",
            defaultValue = "5000",
            description =
                    "How long a remote job that may fall back waits without any live worker before it runs here (default: ${DEFAULT-VALUE}).")
    long jobsFallbackMs;
}
