package io.tributary.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code bin/tributary}: dispatches to the subcommands. */
@Command(
        name = "tributary",
        mixinStandardHelpOptions = true,
        version = "Tributary 0.1.0",
        description = "A streaming SQL database speaking PostgreSQL's protocol.",
        subcommands = {PlaygroundCommand.class, ServerCommand.class, WorkerCommand.class, BenchCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
