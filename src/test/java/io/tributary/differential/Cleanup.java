package io.tributary.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Tear-down shared by the differential tests: by then the outcome is decided, so failures are ignored. */
final class Cleanup {
    private Cleanup() {}

    /** Closes each non-null resource in order, ignoring failures. */
    static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable c : resources) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // best effort: the test's outcome is already decided
                }
            }
        }
    }

    /** Deletes a directory tree if it exists, ignoring failures. */
    static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort
        }
    }
}
