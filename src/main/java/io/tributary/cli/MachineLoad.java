package io.tributary.cli;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;

/**
 * The machine's load before a benchmark, taken so that its report can say when other processes
 * competed for the cores. Our own clients and servers load the machine during the run, so only the
 * load before it tells of others.
 */
final class MachineLoad {
    private final double loadAverage;
    private final int cores = Runtime.getRuntime().availableProcessors();

    private MachineLoad(double loadAverage) {
        this.loadAverage = loadAverage;
    }

    /** The system's one-minute load average now (NaN where the platform has none). */
    static MachineLoad now() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return new MachineLoad(load < 0 ? Double.NaN : load);
    }

    int cores() {
        return cores;
    }

    /**
     * Prints a warning if the load was above the core count. The load average still decays from a
     * run just before, so only a load above one per core is taken as others' work.
     */
    void warnIfBusy(PrintStream out) {
        if (loadAverage > cores) {
            out.printf(
                    "warning: load average %.1f on %d cores before the run: other processes competed"
                            + " for the cores, so the figures are low and the ratios unreliable%n",
                    loadAverage, cores);
        }
    }
}
