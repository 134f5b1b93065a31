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

    /**
     * A temporary directory inside {@code parent} that {@link #close()} deletes: for state that must
     * live on another file system than the rest, e.g. a tmpfs.
     */
    static BenchDirectory temporaryUnder(Path parent) throws IOException {
        return new BenchDirectory(Files.createTempDirectory(parent, "tributary-bench"), true);
    }

    /** The directory of one target's state, e.g. {@code resolve("tributary")}. */
    Path resolve(String name) {
        return path.resolve(name);
    }

    /**
     * The bytes of all files under {@code resolve(name)}; a file linked twice counts twice. A file
     * deleted while it is being measured (RocksDB compacts meanwhile) counts as gone.
     */
    long bytes(String name) {
        long[] total = {0};
        try {
            Files.walkFileTree(resolve(name), new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(
                        Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        total[0] += attrs.size();
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof java.nio.file.NoSuchFileException) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                    throw e;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + resolve(name), e);
        }
        return total[0];
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
