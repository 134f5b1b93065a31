package io.tributary.sql;

import io.tributary.common.types.DataType;

/** A column of a query result. */
public record ResultColumn(String name, DataType type) {}
