package io.tributary.connector.datagen;

import io.tributary.common.types.DataType;
import io.tributary.connector.Source;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceContractTest;
import io.tributary.connector.SplitReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Datagen passes the connector contract: three splits of a 500-row sequence with random columns,
 * read in part, checkpointed, abandoned and reopened, end with exactly the rows a single
 * uninterrupted read makes.
 */
class DatagenSourceContractTest extends SourceContractTest {
    private static final Map<String, String> OPTIONS = Map.of(
            "fields.id.kind",
            "sequence",
            "fields.id.start",
            "1",
            "fields.id.end",
            "500",
            "fields.v.seed",
            "42",
            "fields.v.start",
            "-100",
            "fields.v.end",
            "100",
            "fields.name.length",
            "12",
            "datagen.rows.per.second",
            "1000000",
            "datagen.split.num",
            "3");

    static SourceContext context(Map<String, String> options, byte[] identity) {
        return new SourceContext(
                7,
                "gen",
                List.of(
                        new SourceColumn("id", DataType.BIGINT),
                        new SourceColumn("v", DataType.INTEGER),
                        new SourceColumn("name", DataType.TEXT),
                        new SourceColumn("at", DataType.TIMESTAMP)),
                new int[] {0},
                options,
                null,
                identity);
    }

    @Override
    protected Source open(byte[] identity) {
        return new DatagenConnector().open(context(OPTIONS, identity));
    }

    /** The rows of one uninterrupted read of every split, from a fresh source. */
    @Override
    protected List<List<Object>> expectedRows() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Source source = open(null)) {
            for (String split : source.splits()) {
                try (SplitReader reader = source.reader(split, null)) {
                    while (!reader.phase().equals("finished")) {
                        SourceBatch batch = reader.poll(10, 1000);
                        batch.changes().forEach(c -> rows.add(Arrays.asList(c.row())));
                    }
                }
            }
        }
        if (rows.size() != 500) {
            throw new AssertionError("a full read made " + rows.size() + " rows instead of 500");
        }
        return rows;
    }

    @Override
    protected int[] primaryKey() {
        return new int[] {0};
    }

    @Override
    protected int changesBeforeCheckpoint() {
        return 100;
    }
}
