package io.tributary.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code tributary bench load}: bulk and single-row load figures of an in-process Tributary next
 * to an embedded PostgreSQL, measured by the same pgjdbc client in the same run. One target runs
 * at a time so that they do not compete for cores.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = "INSERT ... SELECT, COPY and single-row INSERT latency: Tributary vs PostgreSQL.")
final class LoadBenchmark implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "5000000", description = "Rows for INSERT ... SELECT and COPY (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--single-inserts", defaultValue = "2000",
            description = "Measured single-row INSERTs (default: ${DEFAULT-VALUE}).")
    int singleInserts;

    @Option(names = "--data-dir", description = "New directory for both databases' state, kept after the run (default: a temporary one, deleted after).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || singleInserts < 1) {
            System.err.println("--rows and --single-inserts must be positive");
            return 2;
        }
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("tributary-bench");
        try {
            LoadWorkload workload = new LoadWorkload(rows, singleInserts, System.err);
            LoadWorkload.Result tributary = measure(workload, () -> BenchTarget.tributary(dir.resolve("tributary")));
            LoadWorkload.Result postgres = measure(workload, () -> BenchTarget.postgres(dir.resolve("postgresql"), System.err));
            print(tributary, postgres);
            return 0;
        } finally {
            if (dataDir == null) {
                deleteRecursively(dir);
            }
        }
    }

    private interface TargetStarter {
        BenchTarget start() throws Exception;
    }

    private static LoadWorkload.Result measure(LoadWorkload workload, TargetStarter starter) throws Exception {
        try (BenchTarget target = starter.start()) {
            return workload.run(target);
        }
    }

    private void print(LoadWorkload.Result t, LoadWorkload.Result p) {
        System.out.printf("bench load: %,d rows, %,d single-row INSERTs, %d cores%n",
                rows, singleInserts, Runtime.getRuntime().availableProcessors());
        System.out.printf("%-32s | %12s | %12s | %7s%n", "metric", "tributary", "postgresql", "ratio");
        row("INSERT ... SELECT (rows/s)", t.insertSelectRowsPerSecond(), p.insertSelectRowsPerSecond(), "%,12.0f");
        row("COPY FROM STDIN (rows/s)", t.copyRowsPerSecond(), p.copyRowsPerSecond(), "%,12.0f");
        row("single-row INSERT p50 (ms)", t.singleInsertP50Ms(), p.singleInsertP50Ms(), "%12.2f");
        row("single-row INSERT p99 (ms)", t.singleInsertP99Ms(), p.singleInsertP99Ms(), "%12.2f");
        System.out.println("ratio = tributary / postgresql: above 1 is better for rows/s, below 1 is better for ms");
    }

    private static void row(String metric, double tributary, double postgres, String format) {
        System.out.printf("%-32s | " + format + " | " + format + " | %7.3f%n", metric, tributary, postgres,
                tributary / postgres);
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
