package io.tributary.cli;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this JVM has used, all threads, for benchmarks that run the server in-process:
 * unlike elapsed time, it does not grow when other processes take the cores.
 */
final class ProcessCpu {
    private ProcessCpu() {}

    /** CPU nanoseconds used by this process so far; -1 where the JVM cannot tell. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
