package io.tributary.connector.nexmark;

import io.tributary.connector.Source;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceContractTest;
import io.tributary.connector.SplitReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The connector contract for one nexmark table type, over three splits and small chunks. The
 * expected rows are one uninterrupted read by a single split with the same identity (base time).
 */
abstract class NexmarkContractTest extends SourceContractTest {
    abstract NexmarkTable table();

    /** How many events (of all tables) the generator makes; kept small where the table's share is large. */
    abstract long events();

    private Source open(byte[] identity, int splits) {
        List<SourceColumn> columns = new ArrayList<>(table().columns);
        java.util.Collections.reverse(columns); // declared order need not be the generator's
        return new NexmarkConnector()
                .open(new SourceContext(
                        3,
                        table().optionValue(),
                        columns,
                        new int[0],
                        Map.of(
                                "nexmark.table.type",
                                table().optionValue(),
                                "nexmark.event.num",
                                Long.toString(events()),
                                "nexmark.max.chunk.size",
                                "7",
                                "nexmark.split.num",
                                Integer.toString(splits)),
                        null,
                        identity));
    }

    private byte[] identity;

    @Override
    protected Source open(byte[] identity) {
        Source s = open(identity, 3);
        this.identity = s.identity();
        return s;
    }

    @Override
    protected List<List<Object>> expectedRows() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Source single = open(identity, 1);
                SplitReader r = single.reader("0", null)) {
            while (true) {
                SourceBatch b = r.poll(0, 100_000);
                if (b.isEmpty()) {
                    break;
                }
                for (SourceChange c : b.changes()) {
                    rows.add(Arrays.asList(c.row()));
                }
            }
        }
        long perCycle = table().proportion;
        long count = events() / NexmarkTable.EVENTS_PER_CYCLE * perCycle;
        if (rows.size() != count) {
            throw new AssertionError("expected " + count + " rows, got " + rows.size());
        }
        return rows;
    }

    @Override
    protected int[] primaryKey() {
        return new int[0];
    }
}
