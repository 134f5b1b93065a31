package io.tributary.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How long one view's job threads in this JVM were ready to run but waited for a core: the run
 * delay Linux keeps per thread ({@code /proc/self/task/<tid>/schedstat}, its second field). A
 * backfill's threads run in the {@code SCHED_IDLE} policy ({@code BackgroundPriority}), so every
 * runnable normal thread on the machine goes first, the process's own JIT compilers, collector and
 * INSERT sessions included; this shows how much of a backfill's time went to that, which thread
 * states from a profiler or JFR's park events do not: a woken actor's wait for a core is counted
 * there as part of its park.
 *
 * <p>The kernel keeps a thread's name to 15 bytes, so the job's threads are found by the first 15
 * bytes of their names ({@code actor-<view>/...}, {@code backfill-<view>}, {@code
 * backfill-count-<view>}): right while one view's job runs at a time, as in {@code bench backfill}.
 * A thread's figures can only be read while it lives, so {@link #poll} is called as often as
 * {@link JobThreadsCpu#poll}. Used by the one thread that polls the job.
 */
final class JobThreadsWait {
    /** The longest thread name the kernel keeps ({@code TASK_COMM_LEN} less its terminating zero). */
    private static final int COMM_LENGTH = 15;

    private static final Path TASKS = Path.of("/proc/self/task");

    /** The kernel's names of the job's actors start with this; those of its two backfill threads are these. */
    private final String actorPrefix;

    private final String backfillComm;
    private final String counterComm;
    /** The run delay in nanoseconds last read of each job thread, by thread id. */
    private final Map<String, Long> lastRead = new HashMap<>();

    private boolean readable = Files.isDirectory(TASKS);

    /** Starts tracking the threads of {@code view}; none of them may have run before. */
    JobThreadsWait(String view) {
        this.actorPrefix = comm("actor-" + view + "/");
        this.backfillComm = comm("backfill-" + view);
        this.counterComm = comm("backfill-count-" + view);
    }

    private static String comm(String threadName) {
        return threadName.length() <= COMM_LENGTH ? threadName : threadName.substring(0, COMM_LENGTH);
    }

    /** Reads the run delay of every live job thread. */
    void poll() {
        if (!readable) {
            return;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                read(task);
            }
        } catch (IOException e) {
            readable = false;
        }
    }

    private void read(Path task) {
        try {
            String name = Files.readString(task.resolve("comm")).strip();
            if (!isJobThread(name)) {
                return;
            }
            String[] fields =
                    Files.readString(task.resolve("schedstat")).strip().split(" ");
            lastRead.put(task.getFileName().toString(), Long.parseLong(fields[1]));
        } catch (IOException | RuntimeException e) {
            // the thread ended between the listing and the read: its last reading stands
        }
    }

    private boolean isJobThread(String comm) {
        return comm.startsWith(actorPrefix) || comm.equals(backfillComm) || comm.equals(counterComm);
    }

    /** How many job threads were read so far, live or ended. */
    int threadsSeen() {
        return lastRead.size();
    }

    /** The job threads' seconds waiting for a core as last polled; NaN where the system does not tell. */
    double seconds() {
        if (!readable) {
            return Double.NaN;
        }
        long sum = 0;
        for (long nanos : lastRead.values()) {
            sum += nanos;
        }
        return sum / 1e9;
    }
}
