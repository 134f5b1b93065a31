package io.tributary.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file {@code bench remote --latency-log} writes: one line per timed INSERT, {@code <phase>
 * <start, Unix ms> <latency ms>}, so slow INSERTs can be lined up with GC logs, disk samples and
 * the server's thread CPU taken on the same clock. Written by the bench's main thread only, after
 * each INSERT's timing ends.
 */
final class InsertLatencyLog implements AutoCloseable {
    private final PrintWriter out;

    private InsertLatencyLog(PrintWriter out) {
        this.out = out;
    }

    static InsertLatencyLog open(Path file) {
        try {
            BufferedWriter w = Files.newBufferedWriter(file);
            return new InsertLatencyLog(new PrintWriter(w));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    void add(String phase, long startMillis, double latencyMs) {
        out.print(phase);
        out.print(' ');
        out.print(startMillis);
        out.print(' ');
        out.println(latencyMs);
    }

    @Override
    public void close() {
        out.close();
    }
}
