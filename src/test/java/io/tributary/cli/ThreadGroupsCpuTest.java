package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadGroupsCpuTest {
    @Test
    void groupsThreadsByTheKernelsTruncatedNames() {
        assertEquals(ThreadCpuGroup.JOB, ThreadCpuGroup.of("actor-backfill_"));
        assertEquals(ThreadCpuGroup.JOB, ThreadCpuGroup.of("backfill-count-"));
        assertEquals(ThreadCpuGroup.ROCKSDB_HIGH, ThreadCpuGroup.of("rocksdb:high"));
        assertEquals(ThreadCpuGroup.ROCKSDB_LOW, ThreadCpuGroup.of("rocksdb:low"));
        assertEquals(ThreadCpuGroup.ROCKSDB_LOW, ThreadCpuGroup.of("rocksdb:bottom"));
        assertEquals(ThreadCpuGroup.ROCKSDB_OTHER, ThreadCpuGroup.of("rocksdb:pst_st"));
        assertEquals(ThreadCpuGroup.SST_WRITER, ThreadCpuGroup.of("sst-load-writer"));
        assertEquals(ThreadCpuGroup.SESSIONS, ThreadCpuGroup.of("pgwire-session-"));
        assertEquals(ThreadCpuGroup.EVENT_LOOPS, ThreadCpuGroup.of("multiThreadIoEv"));
        assertEquals(ThreadCpuGroup.BARRIER, ThreadCpuGroup.of("barrier-manager"));
        assertEquals(ThreadCpuGroup.JIT, ThreadCpuGroup.of("C2 CompilerThre"));
        assertEquals(ThreadCpuGroup.JIT, ThreadCpuGroup.of("C1 CompilerThre"));
        assertEquals(ThreadCpuGroup.GC, ThreadCpuGroup.of("ParGC Thread#1"));
        assertEquals(ThreadCpuGroup.GC, ThreadCpuGroup.of("G1 Conc#0"));
        assertEquals(ThreadCpuGroup.VM, ThreadCpuGroup.of("VM Thread"));
        assertEquals(ThreadCpuGroup.INSERT_CLIENT, ThreadCpuGroup.of("bench-inserts"));
        assertEquals(ThreadCpuGroup.BENCH_MAIN, ThreadCpuGroup.of("java"));
        assertEquals(ThreadCpuGroup.OTHER, ThreadCpuGroup.of("Common-Cleaner"));
    }

    @Test
    void parsesANameWithSpacesAndParentheses() {
        ThreadGroupsCpu.TaskStat stat = ThreadGroupsCpu.TaskStat.parse(
                "4242 (C2 (Compiler) x) S 1 4200 4200 0 -1 4194368 100 0 0 0 157 23 0 0 20 0 1 0 9 0 0\n");
        assertEquals("C2 (Compiler) x", stat.comm());
        assertEquals(180, stat.ticks());
    }

    @Test
    void printsTheLargestGroupsFirstAndSumsTheRest() {
        Map<ThreadCpuGroup, Double> seconds = new EnumMap<>(ThreadCpuGroup.class);
        seconds.put(ThreadCpuGroup.JIT, 0.9);
        seconds.put(ThreadCpuGroup.JOB, 4.34);
        seconds.put(ThreadCpuGroup.ROCKSDB_LOW, 2.06);
        seconds.put(ThreadCpuGroup.GC, 0.2);
        seconds.put(ThreadCpuGroup.VM, 0.11);
        assertEquals("job 4.3, rocksdb:low 2.1, JIT 0.9, rest 0.3", ThreadGroupsCpu.topGroups(seconds, 3));
        assertEquals("n/a", ThreadGroupsCpu.topGroups(Map.of(), 3));
    }

    @Test
    void chargesAThreadsCpuToItsGroup() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        ThreadGroupsCpu groups = ThreadGroupsCpu.start();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch read = new CountDownLatch(1);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread spinner = new Thread(
                () -> {
                    // CPU time, not wall time: the machine may be busy
                    while (mx.getCurrentThreadCpuTime() < 200_000_000L) {
                        Thread.onSpinWait();
                    }
                    spun.countDown();
                    awaitQuietly(read);
                },
                "rocksdb:low");
        spinner.setDaemon(true);
        spinner.start();
        spun.await();
        groups.poll();
        read.countDown();
        spinner.join();
        Map<ThreadCpuGroup, Double> seconds = groups.end();
        double low = seconds.getOrDefault(ThreadCpuGroup.ROCKSDB_LOW, 0.0);
        assertTrue(low >= 0.15 && low < 0.5, "the spinner's 0.2 s charged to its group: " + seconds);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
