package io.tributary.storage;

/**
 * A durable snapshot of the committed state, made by {@link StateStore#pin}: its name, under which
 * {@link StateStore#openPinned} reads it (also after a restart), and the epoch whose committed
 * state it holds. A consumer that resumes after a restart rebuilds this value from its own
 * durable record of both.
 */
public record PinnedSnapshot(String name, long epoch) {}
