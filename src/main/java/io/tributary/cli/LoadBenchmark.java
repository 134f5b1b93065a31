package io.tributary.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench load}: bulk and single-row load figures of an in-process Tributary next
 * to an embedded PostgreSQL, measured by the same pgjdbc client in the same run. One target runs
 * at a time so that they do not compete for cores.
 */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        description = "INSERT ... SELECT, COPY and single-row INSERT latency: Tributary vs PostgreSQL.")
final class LoadBenchmark implements Callable<Integer> {
    @Option(
            names = "--rows",
            defaultValue = "5000000",
            description = "Rows for INSERT ... SELECT and COPY (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--single-inserts",
            defaultValue = "2000",
            description = "Measured single-row INSERTs (default: ${DEFAULT-VALUE}).")
    int singleInserts;

    @Option(
            names = "--data-dir",
            description =
                    "New directory for both databases' state, kept after the run (default: a temporary one, deleted after).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || singleInserts < 1) {
            System.err.println("--rows and --single-inserts must be positive");
            return 2;
        }
        try (BenchDirectory dir = BenchDirectory.of(dataDir)) {
            LoadWorkload workload = new LoadWorkload(rows, singleInserts, System.err);
            // in-process: this JVM's CPU, which includes the client's formatting of the COPY rows
            LoadWorkload.Result tributary;
            HeapWatch heap = new HeapWatch();
            try (heap) {
                tributary = measure(
                        workload, () -> BenchTarget.tributary(dir.resolve("tributary")), d -> ProcessCpu::nanos);
            }
            Path pgDir = dir.resolve("postgresql");
            LoadWorkload.Result postgres =
                    measure(workload, () -> BenchTarget.postgres(pgDir, System.err), d -> postgresCpu(pgDir));
            print(tributary, postgres);
            heap.print(System.out, "tributary's loads");
            return 0;
        }
    }

    private interface TargetStarter {
        BenchTarget start() throws Exception;
    }

    /** How to read a started target's server CPU. */
    private interface CpuOf {
        LoadWorkload.ServerCpu of(BenchTarget target);
    }

    private static LoadWorkload.ServerCpu postgresCpu(Path pgDir) {
        PostgresCpu cpu = PostgresCpu.of(pgDir);
        return cpu == null ? () -> -1 : cpu::nanos;
    }

    private static LoadWorkload.Result measure(LoadWorkload workload, TargetStarter starter, CpuOf cpu)
            throws Exception {
        try (BenchTarget target = starter.start()) {
            return workload.run(target, cpu.of(target));
        }
    }

    private void print(LoadWorkload.Result t, LoadWorkload.Result p) {
        System.out.printf(
                "bench load: %,d rows, %,d single-row INSERTs, %d cores%n",
                rows, singleInserts, Runtime.getRuntime().availableProcessors());
        BenchTable table = new BenchTable(System.out, 32);
        table.row(
                "INSERT ... SELECT (rows/s)", t.insertSelectRowsPerSecond(), p.insertSelectRowsPerSecond(), "%,12.0f");
        table.row("COPY FROM STDIN (rows/s)", t.copyRowsPerSecond(), p.copyRowsPerSecond(), "%,12.0f");
        table.row("INSERT ... SELECT CPU (s)", t.insertSelectCpuSeconds(), p.insertSelectCpuSeconds(), "%12.2f");
        table.row("COPY FROM STDIN CPU (s)", t.copyCpuSeconds(), p.copyCpuSeconds(), "%12.2f");
        table.row("single-row INSERT p50 (ms)", t.singleInsertP50Ms(), p.singleInsertP50Ms(), "%12.2f");
        table.row("single-row INSERT p99 (ms)", t.singleInsertP99Ms(), p.singleInsertP99Ms(), "%12.2f");
        System.out.println(
                "ratio = tributary / postgresql: above 1 is better for rows/s, below 1 is better for ms and s");
        System.out.println(
                "CPU: Tributary's whole JVM (server and the client formatting COPY rows), PostgreSQL's cluster");
    }
}
