package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers ended by {@code kill -9} leave no copy of RocksDB's 15 MB JNI library behind: every server
 * maps the one shared copy in the user's directory under the temporary directory, where RocksJava's
 * own loader would leave a fresh copy per killed process.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NativeLibraryCopiesTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void killedServersShareOneCopyAndLeaveNoneBehind(@TempDir Path tmp) throws Exception {
        List<String> jvm = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmp);
        Path shared = tmp.resolve("tributary-rocksdbjni-" + System.getProperty("user.name"));
        String first = null;
        for (int i = 0; i < 3; i++) {
            ServerProcess server = servers.start(tmp.resolve("data" + i), 100, jvm, List.of());
            String mapped = mappedRocksLibrary(server.pid());
            assertTrue(mapped.startsWith(shared + "/"), "maps " + mapped + ", not a copy under " + shared);
            if (first == null) {
                first = mapped;
            }
            assertEquals(first, mapped, "every server maps the same copy");
            server.kill9();
        }
        try (Stream<Path> top = Files.list(tmp)) {
            assertEquals(
                    List.of(),
                    top.map(p -> p.getFileName().toString())
                            .filter(n -> n.contains("rocksdbjni") && n.endsWith(".so"))
                            .toList(),
                    "per-process copies in the temporary directory");
        }
        try (Stream<Path> all = Files.walk(shared)) {
            assertEquals(
                    List.of(Path.of(first)), all.filter(Files::isRegularFile).toList());
        }
    }

    /** The path of the RocksDB JNI library a live process has mapped, from its {@code /proc} maps. */
    private static String mappedRocksLibrary(long pid) throws Exception {
        try (Stream<String> maps = Files.lines(Path.of("/proc", Long.toString(pid), "maps"))) {
            List<String> paths = maps.map(l -> l.substring(l.lastIndexOf(' ') + 1))
                    .filter(p -> p.contains("rocksdbjni"))
                    .distinct()
                    .toList();
            assertEquals(1, paths.size(), "RocksDB libraries mapped: " + paths);
            return paths.get(0);
        }
    }
}
