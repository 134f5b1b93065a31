package io.tributary.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs rounds of a {@link ChangeScript} on one target: each client's statements on its own
 * autocommit connection and thread, all clients at once. Checks that every statement changed the
 * rows the script says, so that both targets provably get the same changes. Driven by one thread
 * at a time; {@link #close()} closes the connections.
 */
final class ChangeRunner implements AutoCloseable {
    private final String targetName;
    private final ChangeScript script;
    private final List<Client> clients = new ArrayList<>();
    private final ExecutorService threads;

    ChangeRunner(BenchTarget target, ChangeScript script, int clientCount) throws SQLException {
        this.targetName = target.name();
        this.script = script;
        this.threads = Executors.newFixedThreadPool(clientCount, r -> {
            Thread t = new Thread(r, "bench-client");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < clientCount; i++) {
                clients.add(new Client(target.connect()));
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /**
     * Runs one round, the {@code i}th list on the {@code i}th client, and returns when all are done.
     *
     * @param literals whether statements go as text with their constants (each text new, as psql
     *     sends them) instead of prepared with parameters
     * @return nanoseconds from releasing the clients until the last statement returned
     * @throws IllegalStateException if a statement changed another number of rows than the script's
     */
    long run(List<List<ChangeScript.Change>> round, boolean literals) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Long>> ends = new ArrayList<>();
        for (int i = 0; i < round.size(); i++) {
            Client client = clients.get(i);
            List<ChangeScript.Change> statements = round.get(i);
            ends.add(threads.submit(() -> {
                go.await();
                for (ChangeScript.Change change : statements) {
                    client.apply(change, literals);
                }
                return System.nanoTime();
            }));
        }
        long start = System.nanoTime();
        go.countDown();
        long end = start;
        for (Future<Long> f : ends) {
            end = Math.max(end, f.get());
        }
        return end - start;
    }

    @Override
    public void close() throws SQLException {
        threads.shutdownNow();
        SQLException failure = null;
        for (Client client : clients) {
            try {
                client.connection.close();
            } catch (SQLException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** One connection and its prepared statements; used by one thread at a time. */
    private final class Client {
        private final Connection connection;
        /** INSERT statements by their number of rows: all but a round's last insert have the same. */
        private final Map<Integer, PreparedStatement> inserts = new HashMap<>();

        private PreparedStatement update;
        private PreparedStatement delete;

        Client(Connection connection) {
            this.connection = connection;
        }

        void apply(ChangeScript.Change change, boolean literals) throws SQLException {
            if (literals) {
                int changed;
                try (Statement st = connection.createStatement()) {
                    changed = st.executeUpdate(literalText(change));
                }
                if (changed != change.rows()) {
                    throw new IllegalStateException(targetName + ": " + change + " changed " + changed + " rows");
                }
                return;
            }
            PreparedStatement ps;
            if (change instanceof ChangeScript.Insert i) {
                ps = bindInsert(i);
            } else if (change instanceof ChangeScript.Update u) {
                ps = bindUpdate(u);
            } else {
                ps = bindDelete((ChangeScript.Delete) change);
            }
            int changed = ps.executeUpdate();
            if (changed != change.rows()) {
                throw new IllegalStateException(targetName + ": " + change + " changed " + changed + " rows");
            }
        }

        /** The statement of {@code change} as text with its constants, as psql would send it. */
        private String literalText(ChangeScript.Change change) {
            if (change instanceof ChangeScript.Insert insert) {
                StringBuilder sql = new StringBuilder("INSERT INTO orders (id, customer_id, amount, status) VALUES ");
                for (int i = 0; i < insert.count(); i++) {
                    ChangeScript.Order order = script.order(insert.firstId() + i);
                    sql.append(i == 0 ? "(" : ", (")
                            .append(order.id())
                            .append(", ")
                            .append(order.customerId())
                            .append(", ")
                            .append(order.amount().toPlainString())
                            .append(", ")
                            .append(quoted(order.status()))
                            .append(')');
                }
                return sql.toString();
            }
            if (change instanceof ChangeScript.Update u) {
                return "UPDATE orders SET amount = amount + " + u.delta().toPlainString() + ", status = "
                        + quoted(u.status()) + " WHERE id BETWEEN " + u.firstId() + " AND " + u.lastId();
            }
            ChangeScript.Delete d = (ChangeScript.Delete) change;
            return "DELETE FROM orders WHERE id BETWEEN " + d.firstId() + " AND " + d.lastId();
        }

        private static String quoted(String s) {
            return "'" + s.replace("'", "''") + "'";
        }

        private PreparedStatement bindInsert(ChangeScript.Insert insert) throws SQLException {
            PreparedStatement ps = inserts.get(insert.count());
            if (ps == null) {
                StringBuilder sql = new StringBuilder("INSERT INTO orders (id, customer_id, amount, status) VALUES ");
                for (int i = 0; i < insert.count(); i++) {
                    sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?)");
                }
                ps = connection.prepareStatement(sql.toString());
                inserts.put(insert.count(), ps);
            }
            for (int i = 0; i < insert.count(); i++) {
                ChangeScript.Order order = script.order(insert.firstId() + i);
                ps.setLong(4 * i + 1, order.id());
                ps.setInt(4 * i + 2, order.customerId());
                ps.setBigDecimal(4 * i + 3, order.amount());
                ps.setString(4 * i + 4, order.status());
            }
            return ps;
        }

        private PreparedStatement bindUpdate(ChangeScript.Update u) throws SQLException {
            if (update == null) {
                update = connection.prepareStatement(
                        "UPDATE orders SET amount = amount + ?, status = ? WHERE id BETWEEN ? AND ?");
            }
            update.setBigDecimal(1, u.delta());
            update.setString(2, u.status());
            update.setLong(3, u.firstId());
            update.setLong(4, u.lastId());
            return update;
        }

        private PreparedStatement bindDelete(ChangeScript.Delete d) throws SQLException {
            if (delete == null) {
                delete = connection.prepareStatement("DELETE FROM orders WHERE id BETWEEN ? AND ?");
            }
            delete.setLong(1, d.firstId());
            delete.setLong(2, d.lastId());
            return delete;
        }
    }
}
