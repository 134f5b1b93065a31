package io.tributary.cli;

import picocli.CommandLine.Command;

/** {@code tributary bench ...}: benchmarks that print Tributary's figures next to PostgreSQL's. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        subcommands = {
            LoadBenchmark.class,
            StreamBenchmark.class,
            BackfillBenchmark.class,
            IngestBenchmark.class,
            SinkBenchmark.class,
            NexmarkBenchmark.class,
            RemoteBenchmark.class,
            CrossDatabaseBenchmark.class
        },
        description = "Benchmarks against an embedded PostgreSQL in the same run.")
final class BenchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }
}
