package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class GeneratedRowsReaderTest {
    private static final GeneratedRowsReader.RowFormat SQUARES =
            (out, x) -> out.append(x).append('\t').append(x * x).append('\n');

    @Test
    void readsTheRowsFromFirstToLastAcrossChunks() throws IOException {
        String text = readAll(new GeneratedRowsReader(3, 2500, SQUARES));
        String[] lines = text.split("\n");
        assertEquals(2498, lines.length);
        assertEquals("3\t9", lines[0]);
        assertEquals("1027\t" + 1027L * 1027, lines[1024]);
        assertEquals("2500\t6250000", lines[lines.length - 1]);
    }

    @Test
    void anEmptyRangeReadsNothing() throws IOException {
        assertEquals("", readAll(new GeneratedRowsReader(5, 4, SQUARES)));
    }

    private static String readAll(Reader reader) throws IOException {
        StringWriter out = new StringWriter();
        char[] buf = new char[700];
        for (int n; (n = reader.read(buf, 0, buf.length)) >= 0; ) {
            out.write(buf, 0, n);
        }
        return out.toString();
    }
}
