package io.tributary.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import io.tributary.meta.jobs.JobsDatabase;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker killed with SIGKILL leaves its scratch directories behind; the next worker to start
 * removes them, and never one a live process holds. Child processes ({@link #main}) each open a
 * RocksDB store in a scratch directory, as a view job does, under a temporary directory of the
 * test's own ({@code -Djava.io.tmpdir}); some are killed, then a real {@code tributary worker}
 * starts on that temporary directory.
 */
@Timeout(300)
class ScratchDirectoryCrashTest {
    @TempDir
    Path tmp;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws Exception {
        for (Process p : children) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theNextWorkerRemovesADeadWorkersScratchDirectoriesAndNoLiveOnes() throws Exception {
        Path deadJob = hold("new", ScratchDirectory.VIEW_JOB, true);
        Path deadWarmUp = hold("new", ScratchDirectory.WARM_UP, true);
        Path deadOld = hold("legacy", ScratchDirectory.VIEW_JOB, true);
        Path liveJob = hold("new", ScratchDirectory.VIEW_JOB, false);
        Path liveOld = hold("legacy", ScratchDirectory.VIEW_JOB, false);
        Path otherKind = Files.createDirectory(tmp.resolve("tributary-bench-1"));
        assertTrue(Files.isDirectory(deadJob.resolve("state")) && Files.isDirectory(deadOld.resolve("state")));

        String tag = Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE DATABASE scratch_jobs_" + tag);
        String jobsUrl = "jdbc:postgresql://localhost:"
                + UpstreamPostgres.server().getPort() + "/scratch_jobs_" + tag + "?user=postgres";
        JobsDatabase.prepare(JobsDatabase.dataSource(jobsUrl, "scratch-directory-test"));
        Path log = tmp.resolve("worker.log");
        Process worker = new ProcessBuilder(
                        java(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "io.tributary.cli.Main",
                        "worker",
                        "--jobs-url",
                        jobsUrl,
                        "--name",
                        "sweeper",
                        "--slots",
                        "1")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        children.add(worker);
        long deadline = System.currentTimeMillis() + 180_000;
        while (!Files.readString(log).contains("for views")) {
            assertTrue(worker.isAlive(), "the worker runs: " + Files.readString(log));
            assertTrue(System.currentTimeMillis() < deadline, "the worker warmed up: " + Files.readString(log));
            Thread.sleep(100);
        }
        String output = Files.readString(log);
        assertTrue(output.contains("removed 3 scratch directories"), output);
        assertTrue(output.contains("warmed up for views"), output);

        for (Path dead : List.of(deadJob, deadWarmUp, deadOld)) {
            assertFalse(Files.exists(dead), dead + " of a killed process is removed");
            assertFalse(Files.exists(Path.of(dead + ".lock")), dead + "'s lock file is removed");
        }
        assertTrue(Files.isDirectory(liveJob.resolve("state")), "a live process's directory stays");
        assertTrue(Files.exists(Path.of(liveJob + ".lock")), "a live process's lock file stays");
        assertTrue(Files.isDirectory(liveOld.resolve("state")), "a live process's directory of an earlier build stays");
        assertTrue(Files.isDirectory(otherKind), "another kind of directory stays");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(
                    Set.of(
                            "tributary-bench-1",
                            "worker.log",
                            liveJob.getFileName().toString(),
                            liveJob.getFileName() + ".lock",
                            liveOld.getFileName().toString()),
                    left.map(p -> p.getFileName().toString())
                            .filter(name -> !name.startsWith("tributary-rocksdbjni-")) // RocksDB's shared library
                            .collect(Collectors.toSet()),
                    "nothing else is left: the worker's own warm-up directory is gone too");
        }
    }

    /**
     * A child holding a scratch directory of {@code prefix} with a RocksDB store open in it: made as
     * this build makes them ({@code new}) or as earlier builds did, without a lock file ({@code legacy});
     * SIGKILLed once it holds it when {@code kill}.
     */
    private Path hold(String mode, String prefix, boolean kill) throws Exception {
        Process p = new ProcessBuilder(
                        java(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        ScratchDirectoryCrashTest.class.getName(),
                        mode,
                        prefix)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        children.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Path dir = Path.of(out.readLine());
        if (kill) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            assertFalse(p.isAlive());
        }
        return dir;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The child: opens a store in a scratch directory, prints the directory's path and waits to be killed. */
    public static void main(String[] args) throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = args[0].equals("new")
                ? ScratchDirectory.create(tmp, args[1]).path()
                : Files.createTempDirectory(tmp, args[1]);
        RocksStateStore store = RocksStateStore.open(dir.resolve("state"));
        System.out.println(dir);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
        store.close();
    }
}
