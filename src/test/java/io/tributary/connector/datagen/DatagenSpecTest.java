package io.tributary.connector.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatagenSpecTest {
    private static List<Object[]> readAll(Map<String, String> options) throws InterruptedException {
        List<Object[]> rows = new ArrayList<>();
        try (Source source = new DatagenConnector().open(DatagenSourceContractTest.context(options, null))) {
            for (String split : source.splits()) {
                try (SplitReader reader = source.reader(split, null)) {
                    while (!reader.phase().equals("finished")) {
                        SourceBatch batch = reader.poll(10, 100);
                        batch.changes().stream().map(SourceChange::row).forEach(rows::add);
                    }
                }
            }
        }
        return rows;
    }

    private static Map<String, String> options(String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("datagen.rows.per.second", "1000000");
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void splitsTogetherMakeTheSequenceExactlyOnce() throws InterruptedException {
        List<Object[]> rows = readAll(options(
                "fields.id.kind",
                "sequence",
                "fields.id.start",
                "10",
                "fields.id.end",
                "109",
                "datagen.split.num",
                "7"));
        long[] ids = rows.stream().mapToLong(r -> (Long) r[0]).sorted().toArray();
        assertEquals(100, ids.length);
        for (int i = 0; i < ids.length; i++) {
            assertEquals(10 + i, ids[i]);
        }
    }

    @Test
    void randomValuesStayInRangeAndDependOnlyOnSeedAndSequence() throws InterruptedException {
        Map<String, String> o = options(
                "fields.id.kind",
                "sequence",
                "fields.id.end",
                "300",
                "fields.v.start",
                "-3",
                "fields.v.end",
                "3",
                "fields.v.seed",
                "5",
                "fields.name.length",
                "25",
                "fields.at.start",
                "2024-05-01 00:00:00",
                "fields.at.end",
                "2024-05-01 00:00:10");
        List<Object[]> one = readAll(o);
        o.put("datagen.split.num", "4");
        List<Object[]> four = readAll(o);
        one.sort((a, b) -> Long.compare((Long) a[0], (Long) b[0]));
        four.sort((a, b) -> Long.compare((Long) a[0], (Long) b[0]));
        assertEquals(300, one.size());
        for (int i = 0; i < one.size(); i++) {
            assertArrayEquals(one.get(i), four.get(i), "row " + i + " differs with another split count");
            int v = (Integer) one.get(i)[1];
            assertTrue(v >= -3 && v <= 3, "v out of range: " + v);
            assertEquals(25, ((String) one.get(i)[2]).length());
            long at = (Long) one.get(i)[3];
            assertTrue(at >= 1714521600_000000L && at <= 1714521610_000000L, "at out of range: " + at);
        }
        assertEquals(7, one.stream().map(r -> r[1]).distinct().count(), "every value of [-3, 3] appears");
        o.put("fields.v.seed", "6");
        List<Object[]> otherSeed = readAll(o);
        otherSeed.sort((a, b) -> Long.compare((Long) a[0], (Long) b[0]));
        assertTrue(
                java.util.stream.IntStream.range(0, 300)
                        .anyMatch(i -> !one.get(i)[1].equals(otherSeed.get(i)[1])),
                "another seed gives other values");
    }

    @Test
    void rowsTotalBoundsAnEndlessGenerator() throws InterruptedException {
        assertEquals(
                17,
                readAll(options("datagen.rows.total", "17", "datagen.split.num", "3"))
                        .size());
    }

    @Test
    void anEndlessSequenceRunsOnEverySplitWithinTheBatchSize() throws InterruptedException {
        Map<String, String> o = options("fields.id.kind", "sequence", "datagen.split.num", "3");
        try (Source source = new DatagenConnector().open(DatagenSourceContractTest.context(o, null))) {
            for (String split : source.splits()) {
                try (SplitReader reader = source.reader(split, null)) {
                    List<SourceChange> changes = reader.poll(10, 100).changes();
                    assertTrue(!changes.isEmpty() && changes.size() <= 100, "rows: " + changes.size());
                    for (SourceChange c : changes) {
                        assertEquals(Integer.parseInt(split), ((Long) c.row()[0] - 1) % 3, "split " + split);
                    }
                }
            }
        }
    }

    @Test
    void numericRandomValuesHaveTheColumnsScaleWithinBounds() {
        RandomField f = new RandomField(io.tributary.common.types.DataType.numeric(6, 2), 1, 150, 9999, 0, 0, 2, 0);
        for (long s = 0; s < 1000; s++) {
            BigDecimal v = (BigDecimal) f.value(s);
            assertEquals(2, v.scale());
            assertTrue(v.compareTo(new BigDecimal("1.50")) >= 0 && v.compareTo(new BigDecimal("99.99")) <= 0);
        }
    }

    @Test
    void theRateLimitsHowFastRowsCome() throws InterruptedException {
        Map<String, String> o = options("datagen.rows.per.second", "50");
        try (Source source = new DatagenConnector().open(DatagenSourceContractTest.context(o, null));
                SplitReader reader = source.reader("0", null)) {
            long start = System.nanoTime();
            int rows = 0;
            while (System.nanoTime() - start < 400_000_000L) {
                rows += reader.poll(50, 1000).changes().size();
            }
            // the last poll may end late on a busy machine: bound by the time that really passed,
            // at 50 rows/s plus the first row that is due at once
            double elapsed = (System.nanoTime() - start) / 1e9;
            long most = 2 + (long) Math.floor(50 * elapsed);
            assertTrue(
                    rows >= 15 && rows <= most,
                    "rows in " + elapsed + " s at 50/s: " + rows + " (at most " + most + ")");
        }
    }

    @Test
    void badOptionsFailWithTheirNames() {
        ConnectorException e = assertThrows(
                ConnectorException.class,
                () -> new DatagenConnector()
                        .open(DatagenSourceContractTest.context(
                                options("fields.id.kind", "sequence", "fields.id.seed", "1"), null)));
        assertEquals("22023", e.sqlState());
        e = assertThrows(
                ConnectorException.class,
                () -> new DatagenConnector()
                        .open(DatagenSourceContractTest.context(options("fields.nope.kind", "random"), null)));
        assertEquals("42601", e.sqlState());
        assertTrue(e.getMessage().contains("id, v, name, at"), e.getMessage());
    }
}
