package io.tributary.connector;

import io.tributary.common.types.DataType;

/** A column of a table fed by a source. */
public record SourceColumn(String name, DataType type) {}
