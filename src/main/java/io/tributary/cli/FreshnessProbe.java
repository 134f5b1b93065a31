package io.tributary.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * Measures how soon a new order shows in one view: inserts one order at a time over its own
 * autocommit connection, then polls the view by key until the order's row is there. Probe orders
 * have ids from {@link ChangeScript#FIRST_FREE_ID} on, so they never meet the change script's
 * statements; {@link #deleteProbes()} removes them again. Driven by one thread.
 */
final class FreshnessProbe implements AutoCloseable {
    /** Longest wait for a probe before the view is taken to be broken. */
    private static final long GIVE_UP_NANOS = 60_000_000_000L;

    /**
     * Latencies in ms of one series of probes: from the INSERT's return and from its sending to the
     * end of the first poll that saw the row, and how many probes that first poll after the return saw.
     */
    record Series(double[] returnedToVisibleMs, double[] sentToVisibleMs, int visibleAtFirstPoll) {}

    private final StreamView view;
    private final int customers;
    private final Connection connection;
    private final PreparedStatement insert;
    private final PreparedStatement poll;
    private long probes;

    FreshnessProbe(BenchTarget target, StreamView view, int customers) throws SQLException {
        this.view = view;
        this.customers = customers;
        this.connection = target.connect();
        try {
            insert = connection.prepareStatement(
                    "INSERT INTO orders (id, customer_id, amount, status) VALUES (?, ?, 1.00, 'new')");
            poll = connection.prepareStatement(view.pollSql());
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    /** Tributary only: whether this connection's INSERTs return once committed or once queued. */
    void setImplicitFlush(boolean on) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("SET implicit_flush = " + on);
        }
    }

    /**
     * Runs {@code count} probes one after the other, each after a pause drawn from
     * {@code [0, maxPauseMs)} so that, with {@code maxPauseMs} the barrier interval, probes land at
     * every point of the interval rather than just after the commit that showed the previous one.
     */
    Series run(int count, long maxPauseMs, SplittableRandom random) throws SQLException, InterruptedException {
        double[] returned = new double[count];
        double[] sent = new double[count];
        int firstPollHits = 0;
        for (int i = 0; i < count; i++) {
            if (maxPauseMs > 0) {
                Thread.sleep(random.nextLong(maxPauseMs));
            }
            long start = System.nanoTime();
            bindNext();
            insert.executeUpdate();
            long acknowledged = System.nanoTime();
            if (visible()) {
                firstPollHits++;
            } else {
                awaitVisible(start);
            }
            long seen = System.nanoTime();
            returned[i] = (seen - acknowledged) / 1e6;
            sent[i] = (seen - start) / 1e6;
        }
        return new Series(returned, sent, firstPollHits);
    }

    /**
     * PostgreSQL only: inserts one probe, refreshes the view and reads the probe's row from it.
     *
     * @return ms from sending the INSERT until the row was read
     */
    double insertAndRefresh() throws SQLException {
        long start = System.nanoTime();
        bindNext();
        insert.executeUpdate();
        try (Statement st = connection.createStatement()) {
            st.execute("REFRESH MATERIALIZED VIEW " + view.viewName());
        }
        if (!visible()) {
            throw new IllegalStateException(view.viewName() + " lacks probe " + (probes - 1) + " after its refresh");
        }
        return (System.nanoTime() - start) / 1e6;
    }

    /** Deletes every probe order, committed when it returns (with implicit flush on). */
    void deleteProbes() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.executeUpdate("DELETE FROM orders WHERE id >= " + ChangeScript.FIRST_FREE_ID);
        }
    }

    private void bindNext() throws SQLException {
        long id = ChangeScript.FIRST_FREE_ID + probes;
        int customer = view.probeCustomer(probes, customers);
        probes++;
        insert.setLong(1, id);
        insert.setInt(2, customer);
        view.bindProbeKey(poll, id, customer);
    }

    /** Polls about every millisecond; sleeping rather than spinning leaves the cores to the engine. */
    private void awaitVisible(long start) throws SQLException, InterruptedException {
        do {
            if (System.nanoTime() - start > GIVE_UP_NANOS) {
                throw new IllegalStateException("probe " + (probes - 1) + " did not show in " + view.viewName());
            }
            Thread.sleep(1);
        } while (!visible());
    }

    private boolean visible() throws SQLException {
        try (ResultSet rs = poll.executeQuery()) {
            return rs.next();
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
