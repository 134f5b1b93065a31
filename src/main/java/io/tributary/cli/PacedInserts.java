package io.tributary.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Single-row INSERTs of new orders at a steady pace, each timed, from their own autocommit
 * connection and thread: what the writers of a busy upstream table see, e.g. while a view over it
 * is backfilled. {@link #start()} and {@link #stop()} are called by one thread, alternately.
 */
final class PacedInserts implements AutoCloseable {
    /**
     * One INSERT starts every this many ms, or as soon as the previous one returned if it took
     * longer: 200 a second, so a backfill of a few seconds already gives a p99 of 1,000 samples.
     */
    static final long PACE_MS = 5;

    private final Connection connection;
    private final PreparedStatement insert;
    private final BackfillRows rows;
    private long nextId;
    private Thread thread;
    private volatile boolean stopping;
    private double[] latencies;
    private int count;
    private Exception failure;

    /** @param firstId the id of the first order to insert; the ids after it must be free too */
    PacedInserts(BenchTarget target, BackfillRows rows, long firstId) throws SQLException {
        this.connection = target.connect();
        this.rows = rows;
        this.nextId = firstId;
        try {
            this.insert = connection.prepareStatement(BackfillRows.INSERT_ORDER);
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    /** Starts inserting on a new thread. */
    void start() {
        stopping = false;
        latencies = new double[1024];
        count = 0;
        failure = null;
        thread = new Thread(this::run, "bench-inserts");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Stops inserting once the INSERT under way returned.
     *
     * @return the latency of every INSERT since {@link #start()}, in ms
     * @throws SQLException if an INSERT failed
     */
    double[] stop() throws Exception {
        stopping = true;
        thread.join();
        if (failure != null) {
            throw failure;
        }
        return Arrays.copyOf(latencies, count);
    }

    /** The id the next INSERT will use: every order below it that this inserted is committed. */
    long nextId() {
        return nextId;
    }

    private void run() {
        long next = System.nanoTime();
        try {
            while (!stopping) {
                LockSupport.parkNanos(next - System.nanoTime());
                long start = System.nanoTime();
                rows.bindOrder(insert, nextId);
                insert.executeUpdate();
                nextId++;
                long end = System.nanoTime();
                if (count == latencies.length) {
                    latencies = Arrays.copyOf(latencies, count * 2);
                }
                latencies[count++] = (end - start) / 1e6;
                next = Math.max(start + PACE_MS * 1_000_000, end);
            }
        } catch (SQLException e) {
            failure = e;
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
