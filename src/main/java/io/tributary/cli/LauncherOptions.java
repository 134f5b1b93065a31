package io.tributary.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options {@code bin/tributary} starts Tributary with, for benches that start a server or a
 * worker as a child process: measured the way it runs. Keep in step with {@code bin/tributary}.
 */
final class LauncherOptions {
    private LauncherOptions() {}

    /**
     * ParallelGC unless {@code userOptions} picks a collector itself (two collectors stop the JVM),
     * a 1 GB initial heap, then {@code userOptions} split at whitespace.
     *
     * @param userOptions {@code TRIBUTARY_JAVA_OPTS}, or null
     */
    static List<String> javaOptions(String userOptions) {
        List<String> user = new ArrayList<>();
        if (userOptions != null) {
            for (String option : userOptions.trim().split("\\s+")) {
                if (!option.isEmpty()) {
                    user.add(option);
                }
            }
        }
        List<String> options = new ArrayList<>();
        if (user.stream().noneMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"))) {
            options.add("-XX:+UseParallelGC");
        }
        options.add("-Xms1g");
        options.addAll(user);
        return options;
    }
}
