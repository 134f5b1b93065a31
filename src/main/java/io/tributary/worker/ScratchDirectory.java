package io.tributary.worker;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A worker's scratch directory under the temporary directory, {@code <prefix><random>}, held by a
 * lock while it is in use so that a later worker can remove the ones whose process died.
 *
 * <p>Why: a worker closes its scratch directories in {@code finally}, which {@code kill -9} skips;
 * a view job's directory holds its scratch RocksDB store, so every killed worker left gigabytes
 * behind forever. Each directory has a lock file beside it, {@code <prefix><random>.lock}, made
 * first and locked ({@link FileChannel#tryLock}, an {@code fcntl} lock the kernel drops when its
 * process ends, however it ends) before the directory is made; {@link #close} removes the
 * directory, then the lock file, then lets the lock go. {@link #sweep} removes, for each lock file
 * of a prefix that it can lock (its process is gone), the directory and the lock file, in that
 * order, so a sweep that is killed itself leaves a lock file for the next. It touches only its own
 * prefixes and this user's files.
 *
 * <p>Directories of builds before this one have no lock file; the sweep removes one when RocksDB's
 * own {@code state/LOCK} inside it is there and no process holds it (RocksDB holds that lock, also
 * {@code fcntl}, while the store is open). One killed before its store was opened stays.
 *
 * <p>In one process, closing any channel on a file drops all the process's {@code fcntl} locks on
 * it, so a sweep never opens a lock file this process made ({@link #HELD}); creating and sweeping
 * take one monitor, so a sweep never sees a lock file of this process before it is in {@link #HELD}.
 * Thread-safe.
 */
final class ScratchDirectory implements AutoCloseable {
    /** A view job's scratch database ({@link ViewSnapshotRun}). */
    static final String VIEW_JOB = "tributary-view-job-";

    /** The worker's warm-up scratch database ({@link JobWorker}). */
    static final String WARM_UP = "tributary-warm-up-";

    /** Where workers make them: {@code java.io.tmpdir}. */
    static final Path TEMPORARY = Path.of(System.getProperty("java.io.tmpdir"));

    private static final String LOCK_SUFFIX = ".lock";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The lock files this process made and holds, which a sweep must not open. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private static final Object CREATING = new Object();

    private final Path dir;
    private final Path lockFile;
    private final FileChannel channel;

    private ScratchDirectory(Path dir, Path lockFile, FileChannel channel) {
        this.dir = dir;
        this.lockFile = lockFile;
        this.channel = channel;
    }

    /** A new, empty directory {@code <parent>/<prefix><random>} ({@code rwx------}), locked until {@link #close}. */
    static ScratchDirectory create(Path parent, String prefix) throws IOException {
        synchronized (CREATING) {
            while (true) {
                String name = prefix + Long.toUnsignedString(RANDOM.nextLong(), 36);
                ScratchDirectory made = tryCreate(parent.resolve(name), parent.resolve(name + LOCK_SUFFIX));
                if (made != null) {
                    return made;
                }
            }
        }
    }

    /** The directory and its lock file; null when the name is taken or another process's sweep took the lock file. */
    private static ScratchDirectory tryCreate(Path dir, Path lockFile) throws IOException {
        HELD.add(lockFile);
        FileChannel channel = null;
        ScratchDirectory made = null;
        try {
            try {
                channel = FileChannel.open(
                        lockFile,
                        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException e) {
                return null;
            }
            // another process's sweep may lock and remove the new file before this locks it
            if (channel.tryLock() == null || !Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            try {
                Files.createDirectory(
                        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                Files.delete(lockFile); // not this lock file's directory, which a sweep would otherwise remove
                return null;
            }
            made = new ScratchDirectory(dir, lockFile, channel);
            return made;
        } finally {
            if (made == null) {
                if (channel != null) {
                    channel.close();
                }
                HELD.remove(lockFile);
            }
        }
    }

    Path path() {
        return dir;
    }

    /** Removes the directory with everything in it, then its lock file; a failure leaves them for a later {@link #sweep}. */
    @Override
    public void close() {
        try {
            delete(dir);
            Files.deleteIfExists(lockFile);
        } catch (IOException e) {
            // left for the sweep of a later worker, which finds the lock file unlocked
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                // the lock goes with the channel's descriptor either way
            }
            HELD.remove(lockFile);
        }
    }

    /**
     * Removes the directories of {@code prefixes} under {@code parent} whose process is gone, and
     * their lock files; never one a live process holds, nor another user's.
     *
     * @return the directories removed
     */
    static List<Path> sweep(Path parent, String... prefixes) throws IOException {
        UserPrincipal me = parent.getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        List<Path> removed = new ArrayList<>();
        synchronized (CREATING) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
                for (Path entry : entries) {
                    String name = entry.getFileName().toString();
                    if (!hasPrefix(name, prefixes) || HELD.contains(entry)) {
                        continue;
                    }
                    try {
                        if (!me.equals(Files.getOwner(entry, LinkOption.NOFOLLOW_LINKS))) {
                            continue;
                        }
                        if (name.endsWith(LOCK_SUFFIX) && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                            Path dir = parent.resolve(name.substring(0, name.length() - LOCK_SUFFIX.length()));
                            if (removeIfUnlocked(entry, dir, entry, me)) {
                                removed.add(dir);
                            }
                        } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                                && !Files.exists(parent.resolve(name + LOCK_SUFFIX), LinkOption.NOFOLLOW_LINKS)) {
                            Path rocksLock = entry.resolve("state").resolve("LOCK");
                            if (Files.isRegularFile(rocksLock, LinkOption.NOFOLLOW_LINKS)
                                    && removeIfUnlocked(rocksLock, entry, null, me)) {
                                removed.add(entry);
                            }
                        }
                    } catch (IOException e) {
                        // gone meanwhile (its owner closed it, or this sweep removed it with its lock file), or not
                        // ours
                    }
                }
            }
        }
        return removed;
    }

    private static boolean hasPrefix(String name, String[] prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Removes {@code dir}, then {@code lockFile} when given, both while holding {@code lock}'s lock;
     * false when another process holds it. {@code dir} goes only when it is a directory (not a link)
     * that {@code me} owns: a lock file may outlive its directory (a sweep or a start killed between
     * the two), and a directory another user made under that name is not this worker's to walk.
     */
    private static boolean removeIfUnlocked(Path lock, Path dir, Path lockFile, UserPrincipal me) throws IOException {
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock held;
            try {
                held = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                return false;
            }
            if (held == null) {
                return false;
            }
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    && me.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS))) {
                delete(dir);
            }
            if (lockFile != null) {
                Files.deleteIfExists(lockFile);
            }
            return true;
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
