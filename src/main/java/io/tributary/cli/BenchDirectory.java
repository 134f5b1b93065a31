package io.tributary.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where a benchmark's databases keep their state: the new directory the user named, kept after the
 * run, or a temporary one that {@link #close()} deletes.
 */
final class BenchDirectory implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private BenchDirectory(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** @param given the user's {@code --data-dir}, or null for a temporary directory */
    static BenchDirectory of(Path given) throws IOException {
        return given != null
                ? new BenchDirectory(given, false)
                : new BenchDirectory(Files.createTempDirectory("tributary-bench"), true);
    }

    /** The directory of one target's state, e.g. {@code resolve("tributary")}. */
    Path resolve(String name) {
        return path.resolve(name);
    }

    /** The bytes of all files under {@code resolve(name)}; a file linked twice counts twice. */
    long bytes(String name) {
        try (Stream<Path> paths = Files.walk(resolve(name))) {
            return paths.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + resolve(name), e);
        }
    }

    @Override
    public void close() {
        if (!temporary) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
