package io.tributary.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY's text format split in bytes; what PostgreSQL makes of whole COPYs is CopyDifferentialTest's. */
class CopyTextTokenizerTest {
    private static List<String> split(CopyTextTokenizer t, String line) {
        byte[] b = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
        int n = t.split(b, 2, b.length - 2);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(t.isNull(i) ? null : new String(t.bytes(), t.start(i), t.length(i), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void fieldsEscapesAndNulls() {
        CopyTextTokenizer t = new CopyTextTokenizer('\t', "\\N");
        assertEquals(Arrays.asList("1", null, "a\tb", "\\N", ""), split(t, "1\t\\N\ta\\tb\t\\\\N\t"));
        assertEquals(List.of(""), split(t, ""));
        assertEquals(List.of("a\nb\rc\\", "x"), split(t, "a\\nb\\rc\\\\\tx"));
        assertEquals(List.of("ends in \\"), split(t, "ends in \\"));
        assertEquals(List.of("grüße", "東京"), split(t, "grüße\t東京"));
    }

    @Test
    void chosenDelimiterAndNullString() {
        CopyTextTokenizer t = new CopyTextTokenizer(',', "");
        // with another NULL string, \N is an escaped N
        assertEquals(Arrays.asList(null, "a,b", null, "N"), split(t, ",a\\,b,,\\N"));
        CopyTextTokenizer word = new CopyTextTokenizer('|', "none");
        assertEquals(Arrays.asList(null, "none", "nonesuch"), split(word, "none|n\\one|nonesuch"));
    }

    @Test
    void buffersGrowForWideLines() {
        CopyTextTokenizer t = new CopyTextTokenizer('\t', "\\N");
        String wide = "v".repeat(1000);
        List<String> expected = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            expected.add(wide + i);
            line.append(i == 0 ? "" : "\t").append(wide).append(i);
        }
        assertEquals(expected, split(t, line.toString()));
    }
}
