package io.tributary.connector.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SkippedInput;
import io.tributary.connector.Source;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceFormat;
import io.tributary.connector.SplitReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesSplitReaderTest {
    private static final List<SourceColumn> COLUMNS =
            List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("name", DataType.TEXT));

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private SplitReader reader(Map<String, String> options, Map<String, String> csv, byte[] position) {
        Map<String, String> all = new HashMap<>(options);
        all.put("path", dir.toString());
        Source source = new FilesConnector()
                .open(new SourceContext(1, "t", COLUMNS, new int[0], all, new SourceFormat("PLAIN", "CSV", csv), null));
        SplitReader r = source.reader(FilesSource.SPLIT, position);
        toClose.add(r);
        toClose.add(source);
        return r;
    }

    private SplitReader headerless(byte[] position) {
        return reader(Map.of(), Map.of("without_header", "true"), position);
    }

    private void write(String name, String text, boolean old) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        if (old) {
            Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        }
    }

    private static List<List<Object>> rows(SourceBatch b) {
        List<List<Object>> out = new ArrayList<>();
        for (SourceChange c : b.changes()) {
            assertEquals(SourceChange.Kind.INSERT, c.kind());
            out.add(Arrays.asList(c.row()));
        }
        return out;
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void malformedLinesAreSkippedWithFileLineAndReason() throws Exception {
        write("a.csv", "1,one\nx,two\n3\n\n4,\"four\n5,five\n", true);
        write("b.csv", "6,six\n", false);
        SplitReader r = headerless(null);
        SourceBatch b = r.poll(100, 100);
        assertEquals(List.of(row(1, "one"), row(6, "six")), rows(b));
        assertEquals(3, b.skipped().size(), b.skipped().toString());
        SkippedInput badInt = b.skipped().get(0);
        assertEquals("a.csv:2", badInt.location());
        assertTrue(badInt.reason().contains("invalid input syntax for type integer"), badInt.reason());
        assertEquals("a.csv:3", b.skipped().get(1).location());
        assertTrue(b.skipped().get(1).reason().contains("expected 2 fields, found 1"));
        // the quote opened on line 5 runs to the end of a file that is done
        assertEquals("a.csv:5", b.skipped().get(2).location());
        assertEquals("unterminated quoted field", b.skipped().get(2).reason());
    }

    @Test
    void onErrorFailThrowsAndReturnsNothingOfTheBatch() throws Exception {
        write("a.csv", "1,one\n2,two\nbad,three\n4,four\n", false);
        SplitReader r = reader(Map.of("on_error", "fail"), Map.of("without_header", "true"), null);
        byte[] before = r.position();
        ConnectorException e = assertThrows(ConnectorException.class, () -> r.poll(100, 100));
        assertEquals("22P02", e.sqlState());
        assertTrue(e.getMessage().contains("a.csv line 3"), e.getMessage());
        assertTrue(e.getMessage().contains("invalid input syntax for type integer: \"bad\""), e.getMessage());
        assertArrayEquals(before, r.position(), "a failed poll must not move the position");
        // the rows before the bad line come once the engine reads with a smaller batch, never half a batch
        SplitReader again = reader(Map.of("on_error", "fail"), Map.of("without_header", "true"), before);
        assertEquals(List.of(row(1, "one"), row(2, "two")), rows(again.poll(100, 2)));
        assertThrows(ConnectorException.class, () -> again.poll(100, 100));
    }

    @Test
    void halfWrittenLinesWaitForTheirNewline() throws Exception {
        write("a.csv", "1,one\n2,tw", false);
        SplitReader r = headerless(null);
        assertEquals(List.of(row(1, "one")), rows(r.poll(100, 100)));
        assertTrue(r.poll(300, 100).isEmpty(), "the half line of the newest file is not read");
        Files.writeString(dir.resolve("a.csv"), "o\n3,three\n", StandardOpenOption.APPEND);
        assertEquals(List.of(row(2, "two"), row(3, "three")), rows(r.poll(1000, 100)));
        // a reopened reader resumes after the last line read, not inside it
        Files.writeString(dir.resolve("a.csv"), "4,fo", StandardOpenOption.APPEND);
        assertTrue(r.poll(100, 100).isEmpty());
        byte[] position = r.position();
        Files.writeString(dir.resolve("a.csv"), "ur\n", StandardOpenOption.APPEND);
        assertEquals(List.of(row(4, "four")), rows(headerless(position).poll(1000, 100)));
    }

    @Test
    void theUnterminatedLastLineOfAFinishedFileIsRead() throws Exception {
        write("a.csv", "1,one\n2,two", false);
        write("b.csv", "3,three", false);
        SplitReader r = headerless(null);
        List<List<Object>> got = new ArrayList<>(rows(r.poll(100, 100)));
        long deadline = System.currentTimeMillis() + 5000;
        while (got.size() < 2 && System.currentTimeMillis() < deadline) {
            got.addAll(rows(r.poll(100, 100)));
        }
        // b.csv is the newest: its unterminated line may still be being written
        assertEquals(List.of(row(1, "one"), row(2, "two")), got);
        assertTrue(r.poll(200, 100).isEmpty());
    }

    @Test
    void quotingFollowsRfc4180() throws Exception {
        write(
                "a.csv",
                "id,name\n"
                        + "1,\"a, b\"\n"
                        + "2,\"say \"\"hi\"\"\"\n"
                        + "3,\"two\r\nlines\"\r\n"
                        + "4,\n"
                        + "5,\"\"\n"
                        + "6,it's 5'10\"\n"
                        + "7,\"x\"y\n",
                false);
        SplitReader r = reader(Map.of(), Map.of(), null);
        SourceBatch b = r.poll(100, 100);
        assertEquals(
                List.of(
                        row(1, "a, b"),
                        row(2, "say \"hi\""),
                        row(3, "two\r\nlines"),
                        row(4, null),
                        row(5, ""),
                        row(6, "it's 5'10\"")),
                rows(b));
        assertEquals(1, b.skipped().size());
        assertEquals("a.csv:9", b.skipped().get(0).location());
        assertTrue(b.skipped().get(0).reason().contains("after a closing quote"));
    }

    @Test
    void headerMatchesColumnsByNameAndOtherDelimiters() throws Exception {
        write("a.csv", "\uFEFFextra;NAME;id\nz;one;1\nz;;2\n", false);
        SplitReader r = reader(Map.of(), Map.of("delimiter", ";"), null);
        assertEquals(List.of(row(1, "one"), row(2, null)), rows(r.poll(100, 100)));
    }

    @Test
    void aHeaderWithoutKnownColumnsSkipsTheFile() throws Exception {
        write("a.csv", "x,y\n1,2\n", true);
        write("b.csv", "id,name\n3,three\n", false);
        SplitReader r = reader(Map.of(), Map.of(), null);
        SourceBatch b = r.poll(100, 100);
        assertEquals(List.of(row(3, "three")), rows(b));
        assertEquals("a.csv:1", b.skipped().get(0).location());
        assertTrue(b.skipped().get(0).reason().contains("none of the table's columns"));
    }

    @Test
    void resumingInsideAFileRereadsItsHeader() throws Exception {
        write("a.csv", "name,id\none,1\ntwo,2\nthree,3\n", false);
        SplitReader r = reader(Map.of(), Map.of(), null);
        assertEquals(List.of(row(1, "one")), rows(r.poll(100, 1)));
        SplitReader resumed = reader(Map.of(), Map.of(), r.position());
        assertEquals(List.of(row(2, "two"), row(3, "three")), rows(resumed.poll(100, 100)));
    }

    @Test
    void positionStaysSmallForThousandsOfFinishedFiles() throws Exception {
        int files = 5000;
        for (int i = 0; i < files; i++) {
            write(String.format("part-%05d.csv", i), i + ",n" + i + "\n", true);
        }
        SplitReader r = headerless(null);
        int read = 0;
        long deadline = System.currentTimeMillis() + 20_000;
        while (read < files && System.currentTimeMillis() < deadline) {
            read += r.poll(100, 1000).changes().size();
        }
        assertEquals(files, read);
        r.poll(10, 1000); // lets the last file's quiet check pass where the batch was full
        byte[] position = r.position();
        assertTrue(position.length < 200, "position has " + position.length + " bytes");
        assertTrue(r.describe(position).contains("finished through part-04998.csv (4999 files)"), r.describe(position));

        // a reopened reader reads nothing again, but does read a late file with a small name
        SplitReader resumed = headerless(position);
        assertTrue(resumed.poll(300, 1000).isEmpty());
        write("part-00000-late.csv", "-1,late\n", true);
        List<List<Object>> got = new ArrayList<>();
        deadline = System.currentTimeMillis() + 5000;
        while (got.isEmpty() && System.currentTimeMillis() < deadline) {
            got.addAll(rows(resumed.poll(100, 1000)));
        }
        assertEquals(List.of(row(-1, "late")), got);
    }

    @Test
    void lateFilesWhileDownAreFoundAndRemovedFinishedFilesDoNotConfuseIt() throws Exception {
        for (String name : List.of("b.csv", "c.csv", "d.csv", "e.csv")) {
            write(name, "1," + name + "\n", true);
        }
        SplitReader r = headerless(null);
        assertEquals(4, r.poll(100, 100).changes().size());
        byte[] position = r.position();

        // finished files removed while down: nothing new, nothing again
        Files.delete(dir.resolve("b.csv"));
        Files.delete(dir.resolve("c.csv"));
        SplitReader afterCleanup = headerless(position);
        assertTrue(afterCleanup.poll(200, 100).isEmpty());

        // late files added while down: read exactly once
        write("a1.csv", "2,a1\n", true);
        write("a2.csv", "3,a2\n", true);
        write("c2.csv", "4,c2\n", true);
        SplitReader afterLate = headerless(afterCleanup.position());
        List<List<Object>> got = rows(afterLate.poll(100, 100));
        assertEquals(List.of(row(2, "a1"), row(3, "a2"), row(4, "c2")), got);
        assertTrue(afterLate.poll(200, 100).isEmpty());

        // both added and removed while down: the reader cannot tell and says so instead of guessing quietly
        byte[] later = afterLate.position();
        Files.delete(dir.resolve("d.csv"));
        write("a0.csv", "5,a0\n", true);
        SourceBatch notice = headerless(later).poll(200, 100);
        assertEquals(0, notice.changes().size());
        assertEquals(1, notice.skipped().size());
        assertTrue(notice.skipped().get(0).reason().contains("both added and removed"));
    }

    @Test
    void matchPatternSelectsFiles() throws Exception {
        write("a.csv", "1,a\n", true);
        write("b.txt", "2,b\n", true);
        write("c.csv", "3,c\n", false);
        SplitReader r = reader(Map.of("match_pattern", "*.txt"), Map.of("without_header", "true"), null);
        assertEquals(List.of(row(2, "b")), rows(r.poll(100, 100)));
    }
}
