package io.tributary.crash;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The child servers a crash test started, killed after each test method whether it passed or
 * failed, so no server outlives its test and holds its data directory or ports. A test registers
 * one as an instance field with {@code @RegisterExtension} and starts every server through it.
 */
final class StartedServers implements AfterEachCallback {
    private final List<ServerProcess> started = new ArrayList<>();

    /** Starts a server on {@code dataDir} with the given barrier interval, as {@link ServerProcess#start(Path, long)}. */
    ServerProcess start(Path dataDir, long barrierIntervalMs) throws Exception {
        return keep(ServerProcess.start(dataDir, barrierIntervalMs));
    }

    /** Starts a server with extra JVM options and server flags, as {@link ServerProcess#start(Path, long, List, List)}. */
    ServerProcess start(Path dataDir, long barrierIntervalMs, List<String> jvmOptions, List<String> serverFlags)
            throws Exception {
        return keep(ServerProcess.start(dataDir, barrierIntervalMs, jvmOptions, serverFlags));
    }

    private ServerProcess keep(ServerProcess server) {
        started.add(server);
        return server;
    }

    /** Kills every server still running; a test calls it where it needs the data directory free. */
    void stopAll() throws InterruptedException {
        for (ServerProcess server : started) {
            server.close();
        }
        started.clear();
    }

    /** Kills every server still running; called by JUnit after each test method. */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        stopAll();
    }
}
