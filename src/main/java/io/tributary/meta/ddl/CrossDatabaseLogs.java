package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upstream side of cross-database views (docs/ARCHITECTURE.md, Cross-database views): the
 * tables of this database that views of other databases read, each consumer's snapshot pin and
 * the change log kept for it. A consumer is registered durably ({@code xlog/<table>/<db>/<view>}
 * in this database's catalog keyspace) at an epoch boundary of this database, in the epoch that pins
 * its snapshot and starts logging the table, so after any crash the log holds every change after
 * the snapshot; the log is truncated only through what every consumer reported it has durably
 * read ({@link #consumed}). Thread-safe: consumers call from their own databases' threads, never
 * under this database's barrier lock, and nothing here waits for another database.
 */
public final class CrossDatabaseLogs {
    private static final Logger LOG = LoggerFactory.getLogger(CrossDatabaseLogs.class);
    private static final String PREFIX = "xlog/";
    private static final String PIN_PREFIX = "xdb-";

    /**
     * One view of another database reading one table of this one.
     *
     * @param relation the table's id in this database
     * @param database the reading database's number
     * @param view the view's id in the reading database
     * @param name the view's three-part name, for errors
     */
    public record Consumer(int relation, int database, int view, String name) {
        byte[] key() {
            return (PREFIX + relation + "/" + database + "/" + view).getBytes(StandardCharsets.UTF_8);
        }

        byte[] value() {
            return (relation + "/" + database + "/" + view + "/" + name).getBytes(StandardCharsets.UTF_8);
        }

        static Consumer decode(byte[] value) {
            String[] parts = new String(value, StandardCharsets.UTF_8).split("/", 4);
            return new Consumer(
                    Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), parts[3]);
        }

        String pinName() {
            return PIN_PREFIX + database + "-" + view + "-" + relation;
        }
    }

    private final Catalog catalog;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime runtime;
    private final Map<Consumer, StreamRuntime.LogKeeper> keepers = new ConcurrentHashMap<>();
    private volatile ConsumerDrops drops = (consumer, notices) -> {
        throw new TributaryException(
                SqlState.FEATURE_NOT_SUPPORTED, "dropping views of other databases is not implemented here");
    };

    /** Drops a consumer's view in its own database, for DROP TABLE ... CASCADE; bound by the cluster. */
    public interface ConsumerDrops {
        /** Drops {@code consumer}'s view (and what depends on it), telling {@code notices}; returns once durable. */
        void drop(Consumer consumer, java.util.function.Consumer<String> notices) throws InterruptedException;
    }

    CrossDatabaseLogs(Catalog catalog, BarrierManager barriers, StateStore store, StreamRuntime runtime) {
        this.catalog = catalog;
        this.barriers = barriers;
        this.store = store;
        this.runtime = runtime;
    }

    /** This database's store, which consumers read the pinned snapshot and the log from. */
    public StateStore store() {
        return store;
    }

    /** This database's catalog. */
    public Catalog catalog() {
        return catalog;
    }

    /**
     * Registers {@code consumer} at an epoch boundary of this database: pins the committed state
     * as its snapshot and keeps the table's change log from the next epoch on. Returns once that is
     * durable. Called by the consumer's database before it stages the view; not under any barrier lock.
     *
     * @throws TributaryException 42P01 when the table or materialized view is gone
     */
    public PinnedSnapshot attach(Consumer consumer) throws InterruptedException {
        Attach change = new Attach(consumer);
        store.flushMemory();
        barriers.awaitCommitted(barriers.stageAtBoundary(change));
        return change.pin;
    }

    private final class Attach implements EpochChange {
        private final Consumer consumer;
        private PinnedSnapshot pin;

        Attach(Consumer consumer) {
            this.consumer = consumer;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            TableDef table = tableById(consumer.relation());
            if (table == null) {
                throw new TributaryException(
                        SqlState.UNDEFINED_TABLE,
                        "a table read by materialized view " + consumer.name() + " was dropped meanwhile");
            }
            // one being created or not populated has no rows to pin yet, and may still change its key
            Catalog.Unreadable unreadable = catalog().unreadable(table.id()).orElse(null);
            if (unreadable != null) {
                throw new TributaryException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        unreadable.reason(),
                        0,
                        null,
                        unreadable.hint(),
                        null);
            }
            pin = store.pin(consumer.pinName());
            keepers.put(consumer, keepLog(table));
            buffer.put(Keyspace.CATALOG, consumer.key(), consumer.value());
        }

        @Override
        public void failed() {
            StreamRuntime.LogKeeper keeper = keepers.remove(consumer);
            if (keeper != null) {
                runtime.releaseLog(keeper);
            }
            if (pin != null) {
                store.unpin(pin.name());
            }
        }
    }

    /**
     * Forgets {@code consumer} (its view was dropped, or its creation failed): stops keeping the log
     * for it and removes its record and snapshot pin. Does not wait for the commit, so a consumer's
     * DROP never waits for this database; the log stops being kept for it at once.
     */
    public void detach(Consumer consumer) {
        StreamRuntime.LogKeeper keeper = keepers.remove(consumer);
        barriers.stageAtBoundary(new EpochChange() {
            @Override
            public void stage(WriteBuffer buffer) {
                if (keeper != null) {
                    runtime.releaseLog(keeper);
                }
                buffer.delete(Keyspace.CATALOG, consumer.key());
            }

            @Override
            public void committed() {
                store.unpin(consumer.pinName());
            }
        });
    }

    /** Binds how DROP TABLE ... CASCADE drops the views of other databases; once, by the cluster. */
    public void bindConsumerDrops(ConsumerDrops drops) {
        this.drops = drops;
    }

    /**
     * DROP TABLE ... CASCADE: drops every view of another database reading table {@code relation},
     * each in its own database and epoch, before the table's own drop is staged. Not under any
     * barrier lock.
     */
    void dropConsumers(int relation, java.util.function.Consumer<String> notices) throws InterruptedException {
        for (Consumer c : consumersOf(relation)) {
            notices.accept("drop cascades to materialized view " + c.name());
            drops.drop(c, notices);
        }
    }

    /**
     * Forgets every consumer whose view no longer exists in its database, nor is being created
     * there: a crash between that database committing the view's DROP (or failing its CREATE) and
     * this database's next epoch leaves the record, which would keep the table's log (and the
     * snapshot pin) forever. Called by the cluster at startup, once every database has started, and
     * periodically after; any thread, never under a barrier lock.
     *
     * @param readerHolds whether database (number) holds view (id); false for a database that is gone
     * @return how many consumers were forgotten
     */
    public int sweep(java.util.function.BiPredicate<Integer, Integer> readerHolds) {
        int swept = 0;
        for (Consumer c : List.copyOf(keepers.keySet())) {
            if (!readerHolds.test(c.database(), c.view())) {
                LOG.info(
                        "database {}: forgetting the reader record of {} (view {} of database {}), whose view is gone",
                        catalog.database(),
                        c.name(),
                        c.view(),
                        c.database());
                detach(c);
                swept++;
            }
        }
        return swept;
    }

    /** The consumer's snapshot is no longer read (its view was created): releases its pin. */
    public void releaseSnapshot(Consumer consumer) {
        store.unpin(consumer.pinName());
    }

    /**
     * The consumer has durably consumed the table's log through {@code epoch} (its database
     * committed that position): this database may truncate the log through there. Any thread.
     */
    public void consumed(Consumer consumer, long epoch) {
        StreamRuntime.LogKeeper keeper = keepers.get(consumer);
        if (keeper != null) {
            keeper.consumedThrough(epoch);
        }
    }

    /** The views of other databases reading table {@code relation}, for DROP's 2BP01; any thread. */
    public List<Consumer> consumersOf(int relation) {
        return keepers.keySet().stream()
                .filter(c -> c.relation() == relation)
                .sorted(java.util.Comparator.comparing(Consumer::name))
                .toList();
    }

    /** Every view of another database reading this one, for DROP DATABASE; any thread. */
    public List<Consumer> consumers() {
        return keepers.keySet().stream()
                .sorted(java.util.Comparator.comparing(Consumer::name))
                .toList();
    }

    /**
     * At startup, before any job starts and before unread logs are dropped: keeps the log of every
     * table a registered consumer reads, and releases the pins of consumers no longer registered.
     */
    void recover() {
        List<String> pins = new ArrayList<>();
        try (ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.CATALOG, bytes(PREFIX), bytes("xlog0"))) {
            while (it.next()) {
                Consumer c = Consumer.decode(it.value());
                TableDef table = tableById(c.relation());
                if (table == null) {
                    continue;
                }
                keepers.put(c, keepLog(table));
                pins.add(c.pinName());
            }
        }
        for (String pin : store.pinned()) {
            if (pin.startsWith(PIN_PREFIX) && !pins.contains(pin)) {
                store.unpin(pin);
            }
        }
        if (!keepers.isEmpty()) {
            LOG.info(
                    "database {}: keeping change logs for {} cross-database reader(s)",
                    catalog.database(),
                    keepers.size());
        }
    }

    private StreamRuntime.LogKeeper keepLog(TableDef table) {
        // a materialized view's log is its job's output, kept from the job's next barrier on
        return runtime.keepLog(
                table.id(), table.isView(), table.primaryKey(), table.primaryKeyTypes(), table.columnTypes());
    }

    private TableDef tableById(int id) {
        for (TableDef t : catalog.tables()) {
            if (t.id() == id) {
                return t;
            }
        }
        return null;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
