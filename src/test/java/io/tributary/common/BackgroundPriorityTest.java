package io.tributary.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {
    @Test
    void marksOnlyTheCallingThreadAsBackground() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int before = niceOf(currentTid());
        int policyBefore = policyOf(currentTid());
        int[] seen = onNewThread(tid -> {
            boolean lowered = BackgroundPriority.lowerCurrentThread().isLowered();
            // the kernel's own record of the thread, not our bookkeeping
            return new int[] {lowered ? 1 : 0, niceOf(tid), policyOf(tid)};
        });
        assertEquals(1, seen[0], "lowering one's own thread needs no privilege");
        assertEquals(BackgroundPriority.NICE, seen[1]);
        assertEquals(
                BackgroundPriority.SCHED_IDLE, seen[2], "a waking writer must preempt it at once, not after its slice");
        assertEquals(before, niceOf(currentTid()), "the caller's other threads keep their priority");
        assertEquals(policyBefore, policyOf(currentTid()));
        assertTrue(before < BackgroundPriority.NICE);
    }

    @Test
    void aRestorableLoweringIsTakenBackOrNotDoneAtAll() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int[] s = onNewThread(tid -> {
            int normal = niceOf(tid);
            int policy = policyOf(tid);
            BackgroundPriority.LoweredThread lowered = BackgroundPriority.lowerCurrentThreadRestorably();
            int during = niceOf(tid);
            int policyDuring = policyOf(tid);
            boolean wasLowered = lowered.isLowered();
            boolean restored = lowered.raise();
            return new int[] {
                normal, wasLowered ? 1 : 0, during, restored ? 1 : 0, niceOf(tid), policyDuring, policyOf(tid), policy
            };
        });
        if (s[1] == 0) {
            // no privilege to raise a priority back, or not in the normal policy: the thread is left as it was
            assertEquals(s[0], s[2]);
            assertEquals(s[7], s[5]);
        } else {
            assertEquals(BackgroundPriority.NICE, s[2]);
            assertEquals(BackgroundPriority.SCHED_IDLE, s[5]);
            assertEquals(1, s[3]);
        }
        assertEquals(s[0], s[4], "the thread ends at its normal priority either way");
        assertEquals(s[7], s[6], "and in the policy it had");
    }

    @Test
    void anotherThreadRaisesALoweredThreadOnce() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int normal = niceOf(currentTid());
        int normalPolicy = policyOf(currentTid());
        CountDownLatch loweredLatch = new CountDownLatch(1);
        CountDownLatch raisedLatch = new CountDownLatch(1);
        AtomicReference<BackgroundPriority.LoweredThread> handle = new AtomicReference<>();
        AtomicReference<int[]> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                int tid = currentTid();
                BackgroundPriority.LoweredThread lowered = BackgroundPriority.lowerCurrentThread();
                handle.set(lowered);
                int[] during = {tid, niceOf(tid), policyOf(tid)};
                loweredLatch.countDown();
                raisedLatch.await();
                // read by the thread itself: the kernel's record after another thread raised it
                seen.set(new int[] {during[0], during[1], during[2], niceOf(tid), policyOf(tid)});
                lowered.ended();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        loweredLatch.await();
        BackgroundPriority.LoweredThread lowered = handle.get();
        assertTrue(lowered.isLowered(), "lowering one's own thread needs no privilege");
        boolean raised = lowered.raise();
        assertFalse(lowered.isLowered());
        assertFalse(lowered.raise(), "a thread is raised once");
        raisedLatch.countDown();
        t.join();
        int[] s = seen.get();
        assertEquals(BackgroundPriority.NICE, s[1]);
        assertEquals(BackgroundPriority.SCHED_IDLE, s[2]);
        if (raised) {
            assertEquals(normalPolicy, s[4], "raising gives the normal policy back, whoever raises");
            assertEquals(normal, s[3]);
        } else {
            // without CAP_SYS_NICE or RLIMIT_NICE the kernel refuses: the thread stays as it was lowered
            assertEquals(BackgroundPriority.SCHED_IDLE, s[4]);
            assertEquals(BackgroundPriority.NICE, s[3]);
        }
    }

    @Test
    void aLoweredThreadRunsASectionInTheForegroundAndGoesBack() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int[] s = onNewThread(tid -> {
            int normal = niceOf(tid);
            boolean unloweredAsks = BackgroundPriority.ofCurrentThread().foreground();
            BackgroundPriority.LoweredThread lowered = BackgroundPriority.lowerCurrentThread();
            boolean same = BackgroundPriority.ofCurrentThread() == lowered;
            boolean raised = lowered.foreground();
            boolean nested = lowered.foreground();
            int[] during = {niceOf(tid), policyOf(tid)};
            lowered.background();
            int[] after = {
                normal,
                unloweredAsks ? 1 : 0,
                same ? 1 : 0,
                raised ? 1 : 0,
                nested ? 1 : 0,
                during[0],
                during[1],
                niceOf(tid),
                policyOf(tid),
                lowered.isLowered() ? 1 : 0
            };
            lowered.ended();
            return after;
        });
        assertEquals(0, s[1], "a thread that was never lowered has nothing to raise");
        assertEquals(1, s[2], "the thread's own lowering is what it finds");
        assertEquals(0, s[4], "a thread in the foreground already is not raised twice");
        if (s[3] == 1) {
            assertEquals(s[0], s[5], "in the foreground: its normal nice value");
            assertEquals(0, s[6], "and the normal policy");
        } else {
            // without CAP_SYS_NICE or RLIMIT_NICE the kernel refuses: the thread stays background
            assertEquals(BackgroundPriority.NICE, s[5]);
            assertEquals(BackgroundPriority.SCHED_IDLE, s[6]);
        }
        assertEquals(BackgroundPriority.NICE, s[7], "background again after the section");
        assertEquals(BackgroundPriority.SCHED_IDLE, s[8]);
        assertEquals(1, s[9]);
    }

    @Test
    void aThreadRaisedForGoodInItsForegroundSectionStaysRaised() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int[] s = onNewThread(tid -> {
            int normal = niceOf(tid);
            BackgroundPriority.LoweredThread lowered = BackgroundPriority.lowerCurrentThread();
            boolean raised = lowered.foreground();
            // as Actor.stop does from another thread while this one holds the barrier lock
            boolean forGood = lowered.raise();
            lowered.background();
            int[] after = {normal, raised ? 1 : 0, forGood ? 1 : 0, niceOf(tid), policyOf(tid)};
            lowered.ended();
            return after;
        });
        assumeTrue(s[1] == 1, "raising needs CAP_SYS_NICE or RLIMIT_NICE");
        assertEquals(1, s[2]);
        assertEquals(s[0], s[3], "a raise for good is not undone by the end of the section");
        assertEquals(0, s[4]);
    }

    @Test
    void theJitCompilerThreadsAreLoweredToNiceNineteen() throws Exception {
        assumeTrue(BackgroundPriority.enabled(), "Linux with libc, background priority not turned off");
        int lowered = BackgroundPriority.lowerJitCompilers();
        int compilers = 0;
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name = Files.readString(task.resolve("comm")).trim();
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    compilers++;
                    int tid = Integer.parseInt(task.getFileName().toString());
                    // the kernel's record, and the normal policy: nice only, never SCHED_IDLE
                    assertEquals(BackgroundPriority.NICE, niceOf(tid), name);
                    assertEquals(BackgroundPriority.SCHED_OTHER, policyOf(tid), name);
                }
            }
        }
        assertTrue(compilers > 0, "a HotSpot JVM with its JIT on has compiler threads");
        assertTrue(lowered > 0);
        assertTrue(niceOf(currentTid()) < BackgroundPriority.NICE, "other threads keep their priority");
    }

    @Test
    void aShortSliceReachesTheThreadsStartedAfterAndSurvivesARaise() throws Exception {
        assumeTrue(BackgroundPriority.enabled(), "Linux with libc, background priority not turned off");
        int callerNice = niceOf(currentTid());
        long callerSlice = sliceOf(currentTid());
        int[] s = onNewThread(tid -> {
            int before = (int) sliceOf(tid);
            boolean shortened = BackgroundPriority.shortenSlices();
            int[] child = onNewThread(childTid -> {
                int inherited = (int) sliceOf(childTid);
                BackgroundPriority.LoweredThread lowered = BackgroundPriority.lowerCurrentThreadRestorably();
                boolean wasLowered = lowered.isLowered();
                boolean raised = lowered.raise();
                return new int[] {inherited, wasLowered ? 1 : 0, raised ? 1 : 0, (int) sliceOf(childTid)};
            });
            return new int[] {
                shortened ? 1 : 0, before, (int) sliceOf(tid), niceOf(tid), child[0], child[1], child[2], child[3]
            };
        });
        assumeTrue(s[0] == 1, "custom slices need Linux 6.12 or later");
        assertTrue(s[1] > BackgroundPriority.SHORT_SLICE_NANOS, "the kernel's default slice is longer");
        assertEquals(BackgroundPriority.SHORT_SLICE_NANOS, s[2], "the kernel's record of the caller's slice");
        assertEquals(callerNice, s[3], "the nice value is kept");
        assertEquals(BackgroundPriority.SHORT_SLICE_NANOS, s[4], "a thread started after inherits it");
        if (s[5] == 1 && s[6] == 1) {
            assertEquals(BackgroundPriority.SHORT_SLICE_NANOS, s[7], "raised back to normal: short again");
        }
        assertEquals(callerSlice, sliceOf(currentTid()), "threads started before keep theirs");
    }

    /** What a new thread reads of itself, given its kernel thread id. */
    private interface ThreadReading {
        int[] read(int tid) throws Exception;
    }

    /**
     * Runs {@code reading} on a new thread (whose priority it may change without touching the test
     * runner's), waits for it and hands back what it read; its failure is rethrown here.
     */
    private static int[] onNewThread(ThreadReading reading) throws Exception {
        AtomicReference<int[]> seen = new AtomicReference<>();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                seen.set(reading.read(currentTid()));
            } catch (Exception e) {
                failed.set(e);
            }
        });
        t.start();
        t.join();
        if (failed.get() != null) {
            throw failed.get();
        }
        return seen.get();
    }

    private static int currentTid() throws Exception {
        return Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self"))
                .getFileName()
                .toString());
    }

    /** The thread's time slice in ns, as the scheduler's debug file {@code /proc/self/task/TID/sched} shows it. */
    private static long sliceOf(int tid) throws Exception {
        Path sched = Path.of("/proc/self/task/" + tid + "/sched");
        assumeTrue(Files.exists(sched), "a kernel built with the scheduler's debug files");
        for (String line : Files.readAllLines(sched)) {
            if (line.startsWith("se.slice")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        assumeTrue(false, "a kernel that reports se.slice");
        return 0;
    }

    /** Field 19 of /proc/self/task/TID/stat. */
    private static int niceOf(int tid) throws Exception {
        return statField(tid, 19);
    }

    /** Field 41 of /proc/self/task/TID/stat: the scheduling policy. */
    private static int policyOf(int tid) throws Exception {
        return statField(tid, 41);
    }

    /** A numeric field of the thread's stat line, counted from 1 as proc(5) does (field 3 follows the name). */
    private static int statField(int tid, int field) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[field - 3]);
    }
}
