package io.tributary.plan;

import io.tributary.common.types.DataType;

/** An output column of a plan node. */
public record Field(String name, DataType type) {}
