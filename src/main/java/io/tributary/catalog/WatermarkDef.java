package io.tributary.catalog;

/**
 * A table's {@code WATERMARK FOR column AS column - INTERVAL '...'}: the watermark trails the
 * largest value of the column seen so far by {@code delayMicros}; rows whose value is below it are
 * late and dropped as they arrive. Immutable; part of the table's {@link TableDef}.
 *
 * @param column index of a TIMESTAMP or TIMESTAMPTZ column of the table
 * @param delayMicros how far the watermark trails the largest value seen, microseconds, {@code >= 0}
 */
public record WatermarkDef(int column, long delayMicros) {}
