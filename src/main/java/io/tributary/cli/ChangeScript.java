package io.tributary.cli;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The input changes of {@code bench stream}: rounds of statements on {@code orders}, one list per
 * client, generated from a seed so that every target gets the same statements.
 *
 * <p>Each client owns a disjoint part of the ids (an equal share of the preloaded {@code 1..rows}
 * plus the ids it inserts), so that concurrent clients never touch the same row and every
 * statement changes exactly {@link Change#rows()} rows on any target, whatever the interleaving.
 * A client inserts new ids after its previous ones, deletes its oldest live ids and updates a
 * random run of live ids; the three kinds are equally likely, so the table keeps its size.
 */
final class ChangeScript {
    /** Rows changed by one statement, unless a client runs out of rows or of changes in the round. */
    static final int ROWS_PER_STATEMENT = 500;

    static final List<String> STATUSES = List.of("new", "paid", "shipped", "cancelled");
    /** Ids of rows a client inserts start at {@code (client + 1) * NEW_ID_STRIDE}. */
    private static final long NEW_ID_STRIDE = 1_000_000_000_000L;
    /** The most clients whose new ids stay below {@link #FIRST_FREE_ID}. */
    static final int MAX_CLIENTS = 64;
    /** No statement of the script touches an id from here on; probes use them. */
    static final long FIRST_FREE_ID = 1_000_000_000_000_000L;

    /** One statement. */
    sealed interface Change permits Insert, Update, Delete {
        /** The number of rows the statement inserts, updates or deletes. */
        long rows();
    }

    /** Inserts the orders {@code firstId .. firstId + count - 1} with the values of {@link #order}. */
    record Insert(long firstId, int count) implements Change {
        @Override
        public long rows() {
            return count;
        }
    }

    /** Adds {@code delta} to the amount and sets the status of the orders {@code firstId .. lastId}. */
    record Update(long firstId, long lastId, BigDecimal delta, String status) implements Change {
        @Override
        public long rows() {
            return lastId - firstId + 1;
        }
    }

    /** Deletes the orders {@code firstId .. lastId}. */
    record Delete(long firstId, long lastId) implements Change {
        @Override
        public long rows() {
            return lastId - firstId + 1;
        }
    }

    /** The values of an inserted order; a function of its id, so that inserts need not be stored. */
    record Order(long id, int customerId, BigDecimal amount, String status) {}

    private final int customers;
    private final List<ClientIds> clients = new ArrayList<>();

    /**
     * @param rows the orders {@code 1..rows} the table is preloaded with
     * @param customers the customers {@code 1..customers} inserted orders refer to
     * @param clientCount concurrent clients, 1..{@link #MAX_CLIENTS}
     */
    ChangeScript(long rows, int customers, int clientCount, long seed) {
        if (clientCount < 1 || clientCount > MAX_CLIENTS) {
            throw new IllegalArgumentException("clients must be 1.." + MAX_CLIENTS + ": " + clientCount);
        }
        this.customers = customers;
        for (int c = 0; c < clientCount; c++) {
            long first = rows * c / clientCount + 1;
            long last = rows * (c + 1) / clientCount;
            clients.add(new ClientIds(first, last, (c + 1) * NEW_ID_STRIDE, new SplittableRandom(seed + c)));
        }
    }

    /**
     * The next round: {@code changes} row changes shared evenly among the clients, continuing from
     * the ids the previous rounds left live.
     *
     * @return the statements of each client, in the order that client runs them
     */
    List<List<Change>> nextRound(long changes) {
        List<List<Change>> round = new ArrayList<>();
        int n = clients.size();
        for (int c = 0; c < n; c++) {
            round.add(clients.get(c).next(changes / n + (c < changes % n ? 1 : 0)));
        }
        return round;
    }

    /** The values of the inserted order {@code id}. */
    Order order(long id) {
        SplittableRandom random = new SplittableRandom(id);
        return new Order(
                id,
                1 + random.nextInt(customers),
                BigDecimal.valueOf(random.nextInt(100_000), 2),
                STATUSES.get(random.nextInt(STATUSES.size())));
    }

    /** The live ids of one client as ascending runs {@code {first, last}}, oldest first. */
    private static final class ClientIds {
        private final Deque<long[]> runs = new ArrayDeque<>();
        private final SplittableRandom random;
        private long nextNewId;

        ClientIds(long first, long last, long firstNewId, SplittableRandom random) {
            if (first <= last) {
                runs.add(new long[] {first, last});
            }
            this.nextNewId = firstNewId;
            this.random = random;
        }

        List<Change> next(long changes) {
            List<Change> statements = new ArrayList<>();
            for (long left = changes; left > 0; ) {
                int wanted = (int) Math.min(ROWS_PER_STATEMENT, left);
                int kind = runs.isEmpty() ? 0 : random.nextInt(3);
                Change change = switch (kind) {
                    case 0 -> insert(wanted);
                    case 1 -> update(wanted);
                    default -> delete(wanted);
                };
                statements.add(change);
                left -= change.rows();
            }
            return statements;
        }

        private Change insert(int count) {
            long first = nextNewId;
            nextNewId += count;
            long[] newest = runs.peekLast();
            if (newest != null && newest[1] == first - 1) {
                newest[1] = nextNewId - 1;
            } else {
                runs.addLast(new long[] {first, nextNewId - 1});
            }
            return new Insert(first, count);
        }

        /** Updates a random run of live ids, chosen with a chance proportional to its length. */
        private Change update(int wanted) {
            long live = 0;
            for (long[] run : runs) {
                live += run[1] - run[0] + 1;
            }
            long pick = random.nextLong(live);
            for (long[] run : runs) {
                long length = run[1] - run[0] + 1;
                if (pick < length) {
                    long count = Math.min(wanted, length);
                    long first = run[0] + random.nextLong(length - count + 1);
                    return new Update(
                            first,
                            first + count - 1,
                            BigDecimal.valueOf(random.nextInt(-500, 501), 2),
                            STATUSES.get(random.nextInt(STATUSES.size())));
                }
                pick -= length;
            }
            throw new IllegalStateException("pick beyond the live ids");
        }

        /** Deletes the oldest live ids, at most the rest of the oldest run. */
        private Change delete(int wanted) {
            long[] oldest = runs.peekFirst();
            long last = Math.min(oldest[1], oldest[0] + wanted - 1);
            Delete delete = new Delete(oldest[0], last);
            if (last == oldest[1]) {
                runs.removeFirst();
            } else {
                oldest[0] = last + 1;
            }
            return delete;
        }
    }
}
