package io.tributary.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of one view's job threads in this JVM (its actors {@code actor-<view>/...} and its
 * backfill's {@code backfill-<view>}, {@code backfill-count-<view>}), apart from the rest of the
 * process: the process's CPU also counts the INSERTs and job polls the bench sends meanwhile, the
 * JIT and the collector, all of which grow with the elapsed time, so under a loaded machine a
 * slower run costs more process CPU without the job doing more.
 *
 * <p>A thread's CPU can only be read while it lives, so {@link #poll} is called often (by the
 * bench's job poll, every 100 ms); what a thread used between its last poll and its end is not
 * counted. Used by the one thread that polls the job.
 */
final class JobThreadsCpu {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final String actorPrefix;
    private final String backfillPrefix;
    private final String counterPrefix;
    /** The CPU nanoseconds last read of each job thread, by thread id. */
    private final Map<Long, Long> lastRead = new HashMap<>();

    /** Starts tracking the threads of {@code view}; none of them may have run before. */
    JobThreadsCpu(String view) {
        this.actorPrefix = "actor-" + view + "/";
        this.backfillPrefix = "backfill-" + view;
        this.counterPrefix = "backfill-count-" + view;
    }

    /** Reads the CPU time of every live job thread. */
    void poll() {
        if (!threads.isThreadCpuTimeSupported()) {
            return;
        }
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null || !isJobThread(info.getThreadName())) {
                continue;
            }
            long nanos = threads.getThreadCpuTime(info.getThreadId());
            if (nanos >= 0) {
                lastRead.put(info.getThreadId(), nanos);
            }
        }
    }

    private boolean isJobThread(String name) {
        return name.startsWith(actorPrefix) || name.equals(backfillPrefix) || name.equals(counterPrefix);
    }

    /** The job threads' CPU seconds as last polled; NaN where the JVM cannot tell. */
    double seconds() {
        if (!threads.isThreadCpuTimeSupported()) {
            return Double.NaN;
        }
        long sum = 0;
        for (long nanos : lastRead.values()) {
            sum += nanos;
        }
        return sum / 1e9;
    }
}
