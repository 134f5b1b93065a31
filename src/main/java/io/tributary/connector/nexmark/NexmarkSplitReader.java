package io.tributary.connector.nexmark;

import io.tributary.common.SqlState;
import io.tributary.common.types.Values;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates one split's events. Its position is the event number of the next event it will
 * generate (8 bytes). Polls return at most {@code nexmark.max.chunk.size} rows and do not wait
 * unless the events are exhausted. Used by one engine thread at a time.
 */
final class NexmarkSplitReader implements SplitReader {
    private final NexmarkOptions options;
    private final NexmarkGenerator generator;
    /** The index, among the table's events, of the next event this split generates. */
    private long next;
    /** Whether the declared columns are the generated ones, in order, of the same types. */
    private final boolean asGenerated;

    NexmarkSplitReader(NexmarkOptions options, NexmarkGenerator generator, int split, byte[] position) {
        this.options = options;
        this.generator = generator;
        this.asGenerated = sameAsGenerated(options);
        if (position == null) {
            next = split;
        } else {
            long eventNumber = decode(position);
            next = options.table().eventsBefore(eventNumber);
            if (next % options.splitNum() != split || options.table().eventNumber(next) != eventNumber) {
                throw new ConnectorException(
                        SqlState.DATA_EXCEPTION,
                        "nexmark position " + eventNumber + " is not an event of split " + split);
            }
        }
    }

    @Override
    public SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException {
        NexmarkTable table = options.table();
        int limit = Math.min(maxRows, options.maxChunkSize());
        List<SourceChange> changes = new ArrayList<>(Math.max(limit, 0));
        while (changes.size() < limit) {
            long n = table.eventNumber(next);
            if (n >= options.eventNum()) {
                break;
            }
            changes.add(SourceChange.insert(declared(generator.row(table, n))));
            next += options.splitNum();
        }
        if (changes.isEmpty()) {
            Thread.sleep(Math.max(0, maxWaitMillis)); // exhausted (or paused): nothing will come
            return SourceBatch.EMPTY;
        }
        return new SourceBatch(changes, List.of());
    }

    /**
     * The generated fields in the declared columns' order and types: the generated row itself when
     * the table declares the generated columns in their order and types (as RisingWave's Nexmark
     * tables do), which saves a copy and a type check per value.
     */
    private Object[] declared(Object[] generated) {
        if (asGenerated) {
            return generated;
        }
        int[] fieldOf = options.fieldOf();
        Object[] row = new Object[fieldOf.length];
        for (int i = 0; i < row.length; i++) {
            int f = fieldOf[i];
            row[i] = Values.assign(
                    generated[f],
                    options.table().columns.get(f).type(),
                    options.types().get(i));
        }
        return row;
    }

    private static boolean sameAsGenerated(NexmarkOptions options) {
        int[] fieldOf = options.fieldOf();
        if (fieldOf.length != options.table().columns.size()) {
            return false;
        }
        for (int i = 0; i < fieldOf.length; i++) {
            if (fieldOf[i] != i
                    || !options.table()
                            .columns
                            .get(i)
                            .type()
                            .equals(options.types().get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public byte[] position() {
        return ByteBuffer.allocate(Long.BYTES)
                .putLong(options.table().eventNumber(next))
                .array();
    }

    private static long decode(byte[] position) {
        if (position.length != Long.BYTES) {
            throw new ConnectorException(SqlState.DATA_EXCEPTION, "unreadable nexmark position");
        }
        return ByteBuffer.wrap(position).getLong();
    }

    @Override
    public String describe(byte[] position) {
        return "next event " + decode(position);
    }
}
