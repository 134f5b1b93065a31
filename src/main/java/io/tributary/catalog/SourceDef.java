package io.tributary.catalog;

import java.util.Map;
import java.util.TreeMap;

/**
 * How a table is fed by a connector: what {@code CREATE TABLE ... WITH (connector = ...) FORMAT
 * ... ENCODE ...} said, what the source created outside Tributary, and the rate limit. Immutable;
 * stored in the table's catalog record.
 *
 * @param connector the {@code connector} option, e.g. {@code datagen}
 * @param options the other {@code WITH} options, names lower-cased
 * @param format the FORMAT word upper-cased (e.g. {@code PLAIN}), or null without a FORMAT clause
 * @param encode the ENCODE word upper-cased (e.g. {@code CSV}), or null without a FORMAT clause
 * @param formatOptions the options after ENCODE, names lower-cased; empty when none
 * @param identity what the source created once (e.g. a replication slot name), handed back at
 *     every open; empty when it keeps nothing
 * @param acceptsDml whether INSERT/UPDATE/DELETE may change the table too (the source said so at CREATE)
 * @param positionsTableId the state table holding each split's committed position, removed with the table
 * @param rateLimit rows per second over all splits; {@link #UNLIMITED} for none, 0 pauses the source
 */
public record SourceDef(
        String connector,
        Map<String, String> options,
        String format,
        String encode,
        Map<String, String> formatOptions,
        byte[] identity,
        boolean acceptsDml,
        int positionsTableId,
        long rateLimit) {
    public static final long UNLIMITED = -1;

    public SourceDef {
        options = options == null ? Map.of() : new TreeMap<>(options);
        formatOptions = formatOptions == null ? Map.of() : new TreeMap<>(formatOptions);
        identity = identity == null ? new byte[0] : identity;
    }

    /** The same source with another rate limit. */
    public SourceDef withRateLimit(long rowsPerSecond) {
        return new SourceDef(
                connector,
                options,
                format,
                encode,
                formatOptions,
                identity,
                acceptsDml,
                positionsTableId,
                rowsPerSecond);
    }
}
