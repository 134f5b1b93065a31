package io.tributary.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where this process's CPU went over a window, by {@link ThreadCpuGroup}: each thread's user and
 * system time from Linux's {@code /proc/self/task/<tid>/stat}, read when the window starts, at each
 * {@link #poll} and at its end, less what it had at the start (a thread born in the window had
 * none). A thread's figures can only be read while it lives, so what a thread used after its last
 * reading counts as {@link ThreadCpuGroup#ENDED}: the process's own total ({@code /proc/self/stat},
 * which keeps the time of its ended threads) less every thread read.
 *
 * <p>A reading is one small file per live thread, so polls every 100 ms cost the bench's main
 * thread a few milliseconds a second; nothing is read per row. Figures are in clock ticks (10 ms),
 * which the kernel charges to the thread running at each tick, so a group's seconds are exact to
 * about a tick per thread. Used by one thread.
 */
final class ThreadGroupsCpu {
    /** Linux's clock ticks per second for {@code /proc/.../stat} (USER_HZ, 100 on every common kernel). */
    private static final long TICK_NANOS = 10_000_000L;

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path PROCESS = Path.of("/proc/self/stat");

    /** One thread's (or the process's) kernel name and user plus system time in ticks. */
    record TaskStat(String comm, long ticks) {
        /**
         * Parses a {@code /proc/.../stat} line, {@code tid (comm) state ppid ... utime stime ...}:
         * the name may hold spaces and parentheses, so the fields start after the last ')'.
         */
        static TaskStat parse(String line) {
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            // fields after the name, from field 3 (state): utime is field 14, stime field 15
            String[] fields = line.substring(close + 2).split(" ", 14);
            return new TaskStat(
                    line.substring(open + 1, close), Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
        }
    }

    /** Each thread's ticks when the window started, by tid. */
    private final Map<String, Long> atStart = new HashMap<>();
    /** Each thread's ticks and name at its last reading in the window, by tid. */
    private final Map<String, TaskStat> lastRead = new HashMap<>();

    private final long processAtStart;
    private boolean readable;

    private ThreadGroupsCpu() {
        TaskStat process = readProcess();
        this.processAtStart = process == null ? -1 : process.ticks();
        this.readable = process != null && Files.isDirectory(TASKS);
        if (readable) {
            readTasks();
            for (Map.Entry<String, TaskStat> e : lastRead.entrySet()) {
                atStart.put(e.getKey(), e.getValue().ticks());
            }
        }
    }

    /** Starts a window now; its figures are empty where {@code /proc} cannot be read (not Linux). */
    static ThreadGroupsCpu start() {
        return new ThreadGroupsCpu();
    }

    /** Reads every live thread, so that threads ending before the window does lose little. */
    void poll() {
        if (readable) {
            readTasks();
        }
    }

    private void readTasks() {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    lastRead.put(task.getFileName().toString(), TaskStat.parse(Files.readString(task.resolve("stat"))));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read: its last reading stands
                }
            }
        } catch (IOException e) {
            readable = false;
        }
    }

    private static TaskStat readProcess() {
        try {
            return TaskStat.parse(Files.readString(PROCESS));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads every thread and the process once more and returns the window's CPU seconds by group
     * (groups that used none are left out); empty where {@code /proc} could not be read.
     */
    Map<ThreadCpuGroup, Double> end() {
        Map<ThreadCpuGroup, Double> seconds = new EnumMap<>(ThreadCpuGroup.class);
        TaskStat process = readProcess();
        if (!readable || process == null) {
            return seconds;
        }
        readTasks();
        Map<ThreadCpuGroup, Long> ticks = new EnumMap<>(ThreadCpuGroup.class);
        long threadsTicks = 0;
        for (Map.Entry<String, TaskStat> e : lastRead.entrySet()) {
            long used = e.getValue().ticks() - atStart.getOrDefault(e.getKey(), 0L);
            if (used > 0) {
                ticks.merge(ThreadCpuGroup.of(e.getValue().comm()), used, Long::sum);
                threadsTicks += used;
            }
        }
        long ended = process.ticks() - processAtStart - threadsTicks;
        if (ended > 0) {
            ticks.put(ThreadCpuGroup.ENDED, ended);
        }
        for (Map.Entry<ThreadCpuGroup, Long> e : ticks.entrySet()) {
            seconds.put(e.getKey(), e.getValue() * TICK_NANOS / 1e9);
        }
        return seconds;
    }

    /**
     * The {@code top} groups that used the most, largest first, as {@code "job 4.3, rocksdb:low
     * 2.1, ..."}, then the rest's sum ({@code "rest 0.4"}); {@code "n/a"} where there are none.
     */
    static String topGroups(Map<ThreadCpuGroup, Double> seconds, int top) {
        if (seconds.isEmpty()) {
            return "n/a";
        }
        List<Map.Entry<ThreadCpuGroup, Double>> sorted = new ArrayList<>(seconds.entrySet());
        sorted.sort(Map.Entry.<ThreadCpuGroup, Double>comparingByValue().reversed());
        StringBuilder line = new StringBuilder();
        double rest = 0;
        for (int i = 0; i < sorted.size(); i++) {
            Map.Entry<ThreadCpuGroup, Double> e = sorted.get(i);
            if (i < top) {
                if (i > 0) {
                    line.append(", ");
                }
                line.append(e.getKey().label()).append(' ').append(oneDecimal(e.getValue()));
            } else {
                rest += e.getValue();
            }
        }
        if (sorted.size() > top) {
            line.append(", rest ").append(oneDecimal(rest));
        }
        return line.toString();
    }

    private static String oneDecimal(double value) {
        long tenths = Math.round(value * 10);
        return tenths / 10 + "." + tenths % 10;
    }
}
