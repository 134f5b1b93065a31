package io.tributary.meta.ddl;

import io.tributary.meta.epoch.EpochChange;

/**
 * Moves a table's watermark and late-row count from one table id to another, as a change of the
 * epoch that switches the catalog to the new id; the database's watermark store implements it
 * ({@code meta.write.Watermarks#moved}), which meta.ddl may not reach itself.
 */
@FunctionalInterface
public interface WatermarkMove {
    /** The change that gives {@code toTable} the watermark {@code fromTable} has when staged. */
    EpochChange moved(int fromTable, int toTable);
}
