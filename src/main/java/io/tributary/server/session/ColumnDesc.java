package io.tributary.server.session;

import io.tributary.common.types.DataType;

/** A result column: its label and type. */
public record ColumnDesc(String name, DataType type) {}
