package io.tributary.meta.ddl;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps index builds ({@link IndexBuild}) and table rewrites (ALTER TABLE ... ADD or DROP COLUMN,
 * ADD PRIMARY KEY, which refuse a table a job reads, and a build's key watch counts as one) of one
 * table apart, as PostgreSQL's locks do: a rewrite first claims the table ({@link #claim}), which
 * waits for the builds running on it, and a build does not start while a rewrite holds a claim
 * (it waits for the claim to end and then reads the table the rewrite left). Claims are queued
 * like PostgreSQL's lock requests: a build asked for after a rewrite's claim waits for it even
 * while the claim still waits for an earlier build.
 *
 * <p>A build's start is decided under the barrier lock, in the same epoch change that attaches its
 * key watch ({@link #tryStartBuild}); a claim is taken without it, before the rewrite reads the
 * table, and kept until the rewrite's epoch committed or failed. So no build attaches a watch
 * between a claim's end of waiting and the rewrite's staging: the rewrite never meets a build.
 * Tables are named by catalog key. Thread-safe.
 */
public final class IndexBuildGate {
    /** Per table, the builds started (their watches attached and not yet released). */
    private final Map<String, Integer> builds = new HashMap<>();
    /** Per table, the rewrites' claims (waiting or held). */
    private final Map<String, Integer> claims = new HashMap<>();

    /** A rewrite's claim on a table; {@link #close} ends it (once). */
    public final class Claim implements AutoCloseable {
        private final String table;
        private boolean closed;

        private Claim(String table) {
            this.table = table;
        }

        @Override
        public void close() {
            synchronized (IndexBuildGate.this) {
                if (!closed) {
                    closed = true;
                    decrement(claims, table);
                    IndexBuildGate.this.notifyAll();
                }
            }
        }
    }

    /**
     * Claims table {@code table} for a rewrite and waits until no build runs on it; builds asked for
     * meanwhile wait for the claim. Session threads, without the barrier lock.
     *
     * @param check run every 10 ms while waiting; it throws to end the wait (a cancel or {@code
     *     statement_timeout}: 57014), and the claim is then dropped
     * @return the claim, to close once the rewrite's epoch committed or failed
     * @throws InterruptedException the waiting thread was interrupted (the claim is dropped)
     */
    public synchronized Claim claim(String table, Runnable check) throws InterruptedException {
        Claim claim = new Claim(table);
        claims.merge(table, 1, Integer::sum);
        try {
            while (builds.containsKey(table)) {
                check.run();
                wait(10);
            }
        } catch (RuntimeException | InterruptedException e) {
            claim.close();
            throw e;
        }
        return claim;
    }

    /**
     * Starts a build on table {@code table} unless a rewrite claims it; under the barrier lock, in
     * the epoch change that attaches the build's watch.
     *
     * @return whether it started ({@link #buildEnded} must follow); false: {@link #awaitUnclaimed}
     */
    synchronized boolean tryStartBuild(String table) {
        if (claims.containsKey(table)) {
            return false;
        }
        builds.merge(table, 1, Integer::sum);
        return true;
    }

    /** A build that started ended (its watch released, or the server stops). */
    synchronized void buildEnded(String table) {
        decrement(builds, table);
        notifyAll();
    }

    /** Whether a rewrite claims table {@code table} (waiting or running). */
    synchronized boolean claimed(String table) {
        return claims.containsKey(table);
    }

    /**
     * Waits until no rewrite claims table {@code table}; without the barrier lock.
     *
     * @param check run every 10 ms while waiting; it throws to end the wait (a cancel or {@code
     *     statement_timeout}: 57014)
     * @throws InterruptedException the waiting thread was interrupted
     */
    synchronized void awaitUnclaimed(String table, Runnable check) throws InterruptedException {
        while (claims.containsKey(table)) {
            check.run();
            wait(10);
        }
    }

    private static void decrement(Map<String, Integer> counts, String table) {
        counts.computeIfPresent(table, (t, n) -> n == 1 ? null : n - 1);
    }
}
