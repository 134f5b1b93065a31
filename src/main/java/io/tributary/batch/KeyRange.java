package io.tributary.batch;

/**
 * Bounds on the first primary-key column of a table: canonical values of its type, null for no
 * bound. A scan over a range reads each vnode's slice of it, since rows are ordered by primary key
 * only within a vnode.
 */
public record KeyRange(Object low, boolean lowInclusive, Object high, boolean highInclusive) {}
