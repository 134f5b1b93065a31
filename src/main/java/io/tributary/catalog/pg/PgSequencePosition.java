package io.tributary.catalog.pg;

/**
 * Where a sequence stands, as its relation's {@code last_value} and {@code is_called} show it.
 *
 * @param value the last value handed out when {@code called}, else the value handed out next
 * @param called whether {@code value} was handed out (by nextval, or set so by setval)
 */
public record PgSequencePosition(long value, boolean called) {}
