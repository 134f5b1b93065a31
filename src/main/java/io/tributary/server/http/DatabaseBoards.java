package io.tributary.server.http;

import io.tributary.meta.Database;
import io.tributary.server.session.SessionFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The dashboard's view of every database: per open database its {@link DashboardApi}, its
 * {@link RateHistory} and its {@link EpochLog}. Once a second its own daemon thread follows the
 * databases the server holds (a created database gets a board, a dropped one loses it; a database
 * dropped and created again under the same name is a new board) and samples each board's rates.
 * HTTP requests look boards up by name. Thread-safe.
 */
final class DatabaseBoards implements AutoCloseable {
    /** One database's part of the dashboard. */
    record Board(Database db, DashboardApi api, RateHistory history, EpochLog epochs) {}

    private final Supplier<List<Database>> databases;
    private final SessionFactory sessions;
    private final Map<String, Board> boards = new LinkedHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "dashboard-history");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param databases the open databases, in the order the dashboard lists them; called once a
     *     second and for a request naming a database not seen yet
     * @param sessions opens the session a cancel runs in, in the job's database
     */
    DatabaseBoards(Supplier<List<Database>> databases, SessionFactory sessions) {
        this.databases = databases;
        this.sessions = sessions;
        follow();
    }

    /** Starts following the databases and sampling rates once a second. */
    void start() {
        timer.scheduleAtFixedRate(this::tick, 0, 1, TimeUnit.SECONDS);
    }

    private void tick() {
        try {
            long now = System.currentTimeMillis();
            for (Board b : follow()) {
                b.history().sample(now);
            }
        } catch (RuntimeException e) {
            // a database may be closing under the sampler; the next tick tries again
        }
    }

    /** Brings the boards in line with the open databases; returns them in list order. */
    private synchronized List<Board> follow() {
        List<Database> open = databases.get();
        Map<String, Board> next = new LinkedHashMap<>();
        for (Database db : open) {
            Board b = boards.get(db.name());
            if (b == null || b.db() != db) {
                EpochLog epochs = new EpochLog();
                // a dropped database's barrier manager goes with it, and the listener with that
                db.barriers().addCommitListener(epochs);
                RateHistory history = new RateHistory(db);
                b = new Board(db, new DashboardApi(db, sessions, history, epochs), history, epochs);
            }
            next.put(db.name(), b);
        }
        boards.clear();
        boards.putAll(next);
        return new ArrayList<>(next.values());
    }

    /**
     * The board of database {@code name}.
     *
     * @throws ApiError 404 with SQLSTATE 3D000 when the server holds no such database
     */
    Board board(String name) {
        Board b;
        synchronized (this) {
            b = boards.get(name);
        }
        if (b == null) {
            // created since the last tick
            b = follow().stream()
                    .filter(x -> x.db().name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new ApiError(404, "3D000", "database \"" + name + "\" does not exist"));
        }
        return b;
    }

    /** Every board, in the order the databases are listed. */
    List<Board> all() {
        return follow();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
