package io.tributary.crash;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client writing only its own rows and predicting them: {@link #acknowledged()} is the state
 * implied by the statements whose {@code executeUpdate} returned, and {@link #inDoubt()} the one
 * statement that was interrupted by the crash (its effect must be all or nothing). Survives
 * restarts: {@link #run} is called once per server life, {@link #recovered} after each crash.
 */
final class Writer implements CrashWriter {
    static final int ROWS_PER_INSERT = 10;
    /** Ids of different writers never collide: writer w owns [w * ID_SPAN, (w + 1) * ID_SPAN). */
    private static final long ID_SPAN = 1_000_000_000L;

    private final int id;
    private final Random random;
    private WriterState acknowledged = new WriterState();
    private WriterOp inDoubt;
    private long nextId;
    private long nextBatch;
    private long statements;

    Writer(int id, long seed) {
        this.id = id;
        this.random = new Random(seed);
        this.nextId = id * ID_SPAN;
    }

    int id() {
        return id;
    }

    WriterState acknowledged() {
        return acknowledged;
    }

    /** The state if the in-doubt statement took effect, or null when there is none. */
    WriterState acknowledgedPlusInDoubt() {
        return inDoubt == null ? null : inDoubt.applyTo(acknowledged);
    }

    WriterOp inDoubt() {
        return inDoubt;
    }

    long statements() {
        return statements;
    }

    /**
     * Writes until a statement fails. A failure after {@code killing} was set is the crash: that
     * statement becomes in doubt. A failure before it, or a wrong update count, is a bug.
     *
     * @param firstAcknowledged counted down once this writer's first statement is acknowledged
     * @throws AssertionError on a bug
     */
    @Override
    public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                Statement st = c.createStatement()) {
            while (true) {
                WriterOp op = nextOp();
                long count;
                try {
                    count = st.executeUpdate(op.sql());
                } catch (SQLException e) {
                    if (!killing.get()) {
                        throw new AssertionError(
                                "writer " + id + ": statement failed on a live server: " + op.sql(), e);
                    }
                    inDoubt = op;
                    return;
                }
                if (count != op.expectedCount()) {
                    throw new AssertionError("writer " + id + ": " + op.sql() + " reported " + count
                            + " rows, expected " + op.expectedCount());
                }
                acknowledged = op.applyTo(acknowledged);
                statements++;
                firstAcknowledged.countDown();
            }
        } catch (SQLException e) {
            if (!killing.get()) {
                throw new AssertionError("writer " + id + ": cannot connect to a live server", e);
            }
        }
    }

    /** Adopts the state found after recovery, which the caller has checked to be a legal outcome. */
    void recovered(WriterState actual) {
        acknowledged = actual;
        inDoubt = null;
    }

    private WriterOp nextOp() {
        int dice = random.nextInt(100);
        if (dice < 15 && !acknowledged.acked.isEmpty()) {
            return update();
        }
        if (dice < 30 && !acknowledged.acked.isEmpty()) {
            return delete();
        }
        return dice < 45 ? insertEvents() : insertAcked();
    }

    private WriterOp insertAcked() {
        long first = nextId;
        nextId += ROWS_PER_INSERT;
        StringJoiner values = new StringJoiner(", ");
        for (long k = first; k < first + ROWS_PER_INSERT; k++) {
            values.add("(" + k + ", " + id + ", 'v" + k + "')");
        }
        return new WriterOp("INSERT INTO acked (id, writer, payload) VALUES " + values, ROWS_PER_INSERT, s -> {
            for (long k = first; k < first + ROWS_PER_INSERT; k++) {
                s.acked.put(k, "v" + k);
            }
        });
    }

    private WriterOp insertEvents() {
        long batch = id * ID_SPAN + nextBatch++;
        StringJoiner values = new StringJoiner(", ");
        for (int n = 0; n < ROWS_PER_INSERT; n++) {
            values.add("(" + id + ", " + batch + ", " + n + ")");
        }
        return new WriterOp("INSERT INTO events (writer, batch, n) VALUES " + values, ROWS_PER_INSERT, s -> {
            for (int n = 0; n < ROWS_PER_INSERT; n++) {
                s.addEvent(batch, n);
            }
        });
    }

    /** Updates a random range of up to 20 ids, so an in-doubt update spans several rows. */
    private WriterOp update() {
        long from = randomOwnedId();
        long to = from + random.nextInt(20);
        String payload = "u" + statements + "-" + random.nextInt(1000);
        return new WriterOp(
                "UPDATE acked SET payload = '" + payload + "' WHERE writer = " + id + " AND id BETWEEN " + from
                        + " AND " + to,
                acknowledged.ackedRange(from, to).size(),
                s -> s.ackedRange(from, to).replaceAll((k, v) -> payload));
    }

    private WriterOp delete() {
        long from = randomOwnedId();
        long to = from + random.nextInt(5);
        return new WriterOp(
                "DELETE FROM acked WHERE writer = " + id + " AND id BETWEEN " + from + " AND " + to,
                acknowledged.ackedRange(from, to).size(),
                s -> s.ackedRange(from, to).clear());
    }

    private long randomOwnedId() {
        long lo = acknowledged.acked.firstKey();
        long hi = acknowledged.acked.lastKey();
        return acknowledged.acked.ceilingKey(lo + (long) (random.nextDouble() * (hi - lo + 1)));
    }
}
