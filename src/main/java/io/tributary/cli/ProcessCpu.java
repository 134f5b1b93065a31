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

    /**
     * Milliseconds the JIT compilers have spent so far (their threads are not Java threads, so
     * this is the one way to tell their share of {@link #nanos}); -1 where the JVM cannot tell.
     */
    static long jitMillis() {
        java.lang.management.CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }
}
