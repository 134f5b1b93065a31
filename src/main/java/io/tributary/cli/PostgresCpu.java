package io.tributary.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time a PostgreSQL cluster on this machine has used, read from Linux's {@code /proc}: the
 * postmaster's own and its exited children's (which the postmaster reaped, so its {@code cutime}
 * and {@code cstime} hold them), plus every live child's. Benchmarks take it before and after a
 * phase to tell whether PostgreSQL was busy or waiting. Any thread.
 */
final class PostgresCpu {
    /** Linux's clock ticks per second for {@code /proc/<pid>/stat} (USER_HZ, 100 on every common kernel). */
    private static final long TICK_NANOS = 10_000_000L;

    private final long postmaster;

    private PostgresCpu(long postmaster) {
        this.postmaster = postmaster;
    }

    /**
     * The cluster with its data in {@code dataDir} (its {@code postmaster.pid} names the
     * postmaster); null where {@code /proc} cannot tell (not Linux, or no such file).
     */
    static PostgresCpu of(Path dataDir) {
        try {
            String first =
                    Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim();
            long pid = Long.parseLong(first);
            return Files.exists(Path.of("/proc", first, "stat")) ? new PostgresCpu(pid) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** CPU nanoseconds the cluster has used so far, or -1 when {@code /proc} could not be read. */
    long nanos() {
        long[] own = stat(postmaster);
        if (own == null) {
            return -1;
        }
        long ticks = own[1] + own[2] + own[3] + own[4];
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                    long[] child = stat(Long.parseLong(name));
                    if (child != null && child[0] == postmaster) {
                        ticks += child[1] + child[2];
                    }
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * TICK_NANOS;
    }

    /** ppid, utime, stime, cutime, cstime of {@code pid}; null when it is gone. */
    private static long[] stat(long pid) {
        String line;
        try {
            line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return null;
        }
        // the command name is in parentheses and may hold spaces: fields start after the last ')'
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        // f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17
        return new long[] {
            Long.parseLong(f[1]),
            Long.parseLong(f[11]),
            Long.parseLong(f[12]),
            Long.parseLong(f[13]),
            Long.parseLong(f[14])
        };
    }
}
