package io.tributary.stream.backfill;

/**
 * Sent into a backfilling job's source channels at the epoch boundary where the job joins its
 * upstreams' live flow: every change after epoch {@code upTo} follows in the channel, so the
 * receiving backfill first reads the change log through {@code upTo}, then passes the live changes.
 */
public record JoinLive(long upTo) {}
