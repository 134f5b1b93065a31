package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HeapWatchTest {
    private static final Pattern LINE =
            Pattern.compile("heap: max ([\\d,]+) MB .*: ([\\d,]+) collections, ([\\d.]+) s in the collector,"
                    + " peak heap in use after a collection ([\\d,]+) MB .*\\n");

    /** Holds an array past the collection, so the peak after it cannot be zero. */
    private static volatile long[] held;

    @Test
    void reportsTheHeapLimitAndTheCollectionsWhileWatched() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (HeapWatch watch = new HeapWatch()) {
            held = new long[4 << 20]; // 32 MB live across the collection
            System.gc();
            // the collector's notification arrives on a JMX thread some time after the collection
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (watch.peakAfterGcBytes() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            watch.close();
            watch.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), "the test");
        }
        String line = bytes.toString(StandardCharsets.UTF_8);
        Matcher m = LINE.matcher(line);
        assertTrue(m.matches(), line);
        long maxMb = Long.parseLong(m.group(1).replace(",", ""));
        // -Xmx counts a survivor space that Runtime.maxMemory leaves out
        assertTrue(maxMb >= Runtime.getRuntime().maxMemory() >> 20, line);
        assertTrue(Long.parseLong(m.group(2).replace(",", "")) >= 1, line);
        assertTrue(Long.parseLong(m.group(4).replace(",", "")) >= 32, line);
        assertTrue(held.length > 0);
    }
}
