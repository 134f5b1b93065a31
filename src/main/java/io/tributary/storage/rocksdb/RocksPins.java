package io.tributary.storage.rocksdb;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pinned snapshots of one {@link RocksStateStore}, each a RocksDB checkpoint in a directory of
 * its own under {@code <store dir>.pins/}: the memtables are flushed, the store's SST files are
 * hard-linked (copied only across file systems) and its MANIFEST copied, so a pin is a complete
 * database that survives restarts and is read with {@code RocksDB.openReadOnly}.
 *
 * <p>Why a checkpoint rather than versioned keys ({@code [key][epoch]}, old versions kept while a
 * pin needs them): a checkpoint costs nothing on the write path (no key grows, no read has to skip
 * versions) and nothing while it exists beyond the SST files compaction would otherwise have
 * freed; versioned keys would tax every read and write of every table for the sake of the rare
 * backfill. In-memory RocksDB snapshots are not an option: they end with the process.
 *
 * <p>Views of one pin share one read-only database, opened at the first view and kept open while
 * the pin lives: it is closed when the pin is unpinned and its last view and iterator have closed
 * (at once when none is open), or when the store closes. Why not at its last view: a remote worker
 * reads an exported snapshot one piece per statement, each a view of its own, and opening the
 * database (its MANIFEST, every SST file's footer, index and filter) for each piece was most of
 * what serving a piece cost the server's core, beside the writers it must not slow down. What an
 * open pin holds between views: the SST files' descriptors and table readers, which its files on
 * disk outlive anyway. Removal is crash-safe: a pin is renamed to {@code <name>.deleting} before
 * its files are deleted, and a pin unpinned while still read is first marked with an {@value
 * #UNPINNED} file; the store's next open deletes what a crash left of either, and RocksDB's own
 * {@code <name>.tmp} staging directories. Thread-safe: every method locks this object.
 */
final class RocksPins implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RocksPins.class);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,128}");
    private static final String UNPINNED = "UNPINNED";
    private static final String DELETING = ".deleting";
    private static final String STAGING = ".tmp";

    private final Path root;
    private final ColumnFamilyOptions cfOptions;
    /** The column families a pin is opened with: the namespace's keyspaces in order, then any RocksDB requires. */
    private final List<String> families;

    /** The pins whose database is open: read now, or read before and not unpinned since. */
    private final Map<String, OpenPin> open = new HashMap<>();

    private boolean closed;
    /** How many times a pin's database was opened over this object's life; see {@link #databaseOpens}. */
    private long databaseOpens;

    /**
     * @param root the directory holding the pins; created if missing, cleared of what a crash left
     * @param cfOptions the store's column family options (same table format, shared block cache);
     *     owned by the store, which closes it after this
     * @param families the column families to open a pin with, the namespace's keyspaces first in
     *     {@link io.tributary.storage.Keyspace} order
     */
    RocksPins(Path root, ColumnFamilyOptions cfOptions, List<String> families) {
        this.root = root;
        this.cfOptions = cfOptions;
        this.families = List.copyOf(families);
        try {
            Files.createDirectories(root);
            for (Path p : list()) {
                String name = p.getFileName().toString();
                if (name.endsWith(DELETING) || name.endsWith(STAGING)) {
                    deleteTree(p);
                } else if (Files.exists(p.resolve(UNPINNED))) {
                    delete(name);
                }
            }
        } catch (IOException e) {
            throw ioError("cannot prepare the pinned snapshots in " + root, e);
        }
    }

    /** Checkpoints {@code db}; the caller excludes commits meanwhile, so the pin holds {@code epoch}. */
    synchronized PinnedSnapshot create(RocksDB db, String name, long epoch) {
        checkName(name);
        checkOpen();
        Path dir = root.resolve(name);
        if (Files.exists(dir)) {
            throw new IllegalStateException("a snapshot is pinned as \"" + name + "\" already");
        }
        try (Checkpoint checkpoint = Checkpoint.create(db)) {
            checkpoint.createCheckpoint(dir.toString());
            // RocksDB syncs the pin's files and renames its staging directory into place; the
            // rename itself is durable only once the parent directory is synced
            syncDirectory(root);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        } catch (IOException e) {
            throw ioError("cannot pin snapshot " + name, e);
        }
        return new PinnedSnapshot(name, epoch);
    }

    synchronized Optional<ReadView> open(String name) {
        checkName(name);
        checkOpen();
        OpenPin pin = open.get(name);
        if (pin == null) {
            Path dir = root.resolve(name);
            if (!Files.isDirectory(dir) || Files.exists(dir.resolve(UNPINNED))) {
                return Optional.empty();
            }
            pin = new OpenPin(name, dir);
            open.put(name, pin);
            databaseOpens++;
        } else if (pin.unpinned) {
            return Optional.empty();
        }
        return Optional.of(new RocksReadView(pin.db, pin.handles, false, pin, false));
    }

    synchronized void unpin(String name) {
        checkName(name);
        checkOpen();
        OpenPin pin = open.get(name);
        try {
            if (pin != null && pin.users == 0) {
                // open between views, read by no one: nothing holds its files any longer
                open.remove(name);
                pin.closeDb();
                delete(name);
            } else if (pin != null) {
                if (!pin.unpinned) {
                    Path marker = root.resolve(name).resolve(UNPINNED);
                    Files.write(marker, new byte[0]);
                    syncDirectory(marker.getParent());
                    pin.unpinned = true;
                }
            } else if (Files.isDirectory(root.resolve(name))) {
                delete(name);
            }
        } catch (IOException e) {
            throw ioError("cannot unpin snapshot " + name, e);
        }
    }

    synchronized List<String> names() {
        checkOpen();
        List<String> names = new ArrayList<>();
        try {
            for (Path p : list()) {
                String name = p.getFileName().toString();
                if (NAME.matcher(name).matches() && Files.isDirectory(p) && !Files.exists(p.resolve(UNPINNED))) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw ioError("cannot list the pinned snapshots in " + root, e);
        }
        names.sort(null);
        return names;
    }

    /**
     * How many times a pin's database was opened since this object was made: a pin read by many
     * views in turn counts once while it stays pinned. For tests of that reuse; any thread.
     */
    synchronized long databaseOpens() {
        return databaseOpens;
    }

    /**
     * Refuses further calls and closes the pin databases no one reads. One still being read stays
     * open until its last view and iterator close, so a straggling reader (an actor that has not
     * stopped yet) never touches a closed database; what it unpinned is deleted at the next open of
     * the store.
     */
    @Override
    public synchronized void close() {
        closed = true;
        for (OpenPin pin : open.values()) {
            if (pin.users == 0) {
                pin.closeDb();
            }
        }
        open.clear();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the state store is closed");
        }
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a pin name is 1 to 128 letters, digits, '_' or '-': " + name);
        }
    }

    private List<ColumnFamilyDescriptor> descriptors() {
        List<ColumnFamilyDescriptor> out = new ArrayList<>();
        for (String name : families) {
            out.add(new ColumnFamilyDescriptor(name.getBytes(java.nio.charset.StandardCharsets.UTF_8), cfOptions));
        }
        return out;
    }

    private List<Path> list() throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.toList();
        }
    }

    /** Renames the pin away in one step, so a crash never leaves half a pin under its name. */
    private void delete(String name) throws IOException {
        Path doomed = root.resolve(name + DELETING);
        deleteTree(doomed);
        Files.move(root.resolve(name), doomed, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(root);
        deleteTree(doomed);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static TributaryException ioError(String what, IOException e) {
        return new TributaryException(SqlState.INTERNAL_ERROR, what + ": " + e, e);
    }

    /**
     * One pin's read-only database, open from its first view until it is unpinned and unread or the
     * store closes; the lease its views and iterators hold.
     */
    private final class OpenPin implements RocksReadView.Lease {
        private final String name;
        private final DBOptions options;
        private final RocksDB db;
        private final List<ColumnFamilyHandle> handles = new ArrayList<>();
        private int users;
        private boolean unpinned;

        OpenPin(String name, Path dir) {
            this.name = name;
            this.options = new DBOptions();
            try {
                this.db = RocksDB.openReadOnly(options, dir.toString(), descriptors(), handles);
            } catch (RocksDBException e) {
                options.close();
                throw RocksStateStore.storageError(e);
            }
        }

        @Override
        public void retain() {
            synchronized (RocksPins.this) {
                users++;
            }
        }

        @Override
        public void release() {
            synchronized (RocksPins.this) {
                if (--users > 0 || (!closed && !unpinned)) {
                    // still read, or kept for the pin's next view (see the class comment)
                    return;
                }
                closeDb();
                if (closed) {
                    return;
                }
                open.remove(name);
                if (unpinned) {
                    try {
                        delete(name);
                    } catch (IOException e) {
                        // closing a view must not fail; the marker stays, so the next open of the store deletes it
                        LOG.warn("cannot delete unpinned snapshot {} yet", name, e);
                    }
                }
            }
        }

        private void closeDb() {
            handles.forEach(ColumnFamilyHandle::close);
            db.close();
            options.close();
        }
    }
}
