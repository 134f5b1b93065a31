package io.tributary.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tributary server}: like the playground, optionally with password authentication. */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = "Run the server in the foreground; with --password clients must authenticate (SCRAM-SHA-256).")
final class ServerCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options = new ServerOptions();

    @Option(
            names = "--password",
            description = "Password clients must give; also read from TRIBUTARY_PASSWORD.",
            defaultValue = "${env:TRIBUTARY_PASSWORD}")
    String password;

    @Override
    public Integer call() throws Exception {
        return ServerRunner.run(options, password == null || password.isEmpty() ? null : password, false);
    }
}
