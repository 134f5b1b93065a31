package io.tributary.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tributary playground}: a local server with trust authentication. */
@Command(
        name = "playground",
        mixinStandardHelpOptions = true,
        description = "Run a local server in the foreground (user root, database dev, no password).")
final class PlaygroundCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options = new ServerOptions();

    @Override
    public Integer call() throws Exception {
        return ServerRunner.run(options, null, true);
    }
}
