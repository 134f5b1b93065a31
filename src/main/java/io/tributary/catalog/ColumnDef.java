package io.tributary.catalog;

import io.tributary.common.types.DataType;

/**
 * A table column. {@code hidden} columns (the generated row id of tables without a primary key)
 * are stored but not shown by {@code SELECT *} or {@code SHOW COLUMNS}.
 */
public record ColumnDef(String name, DataType type, boolean notNull, boolean hidden) {}
