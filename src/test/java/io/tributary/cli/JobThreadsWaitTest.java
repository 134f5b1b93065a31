package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class JobThreadsWaitTest {
    @Test
    void findsTheViewsJobThreadsByName() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(5);
        List<Thread> threads = new ArrayList<>();
        for (String name :
                List.of("actor-v1/0/0", "backfill-v1", "backfill-count-v1", "actor-v2/0/0", "backfill-v10")) {
            threads.add(start(name, () -> {
                started.countDown();
                await(done);
            }));
        }
        started.await();
        JobThreadsWait wait = new JobThreadsWait("v1");
        wait.poll();
        done.countDown();
        join(threads);
        assertEquals(3, wait.threadsSeen());
    }

    @Test
    void countsTheTimeRunnableThreadsWaitedForACore() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        JobThreadsWait wait = new JobThreadsWait("busy");
        // twice as many spinning threads as cores: each waits for a core about half of the time
        int spinners = 2 * Runtime.getRuntime().availableProcessors();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < spinners; i++) {
            threads.add(start("actor-busy/" + i, () -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        Thread.sleep(300);
        wait.poll();
        stop.set(true);
        join(threads);
        assertEquals(spinners, wait.threadsSeen());
        assertTrue(wait.seconds() > 0, "runnable threads beyond the cores must have waited: " + wait.seconds());
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
    }
}
