package io.tributary.storage.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.jar.JarEntry;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library from one shared copy per library build and user, where RocksJava by
 * default writes a fresh copy per process.
 *
 * <p>Why: RocksJava extracts its 15 MB library to a new file in the temporary directory every time a
 * process loads it, and removes it only at a clean exit. Every process that ends by {@code kill -9}
 * (crash recovery, a killed worker, the crash tests) leaves its copy behind; 2,701 of them (39 GB)
 * piled up on this project's CI machine in a day and, with the rest, filled its disk. Here the library is extracted once to {@code
 * <java.io.tmpdir>/tributary-rocksdbjni-<user>/<crc>-<size>/}, written under a temporary name and
 * renamed into place, so a process never maps half a file however many start at once, and every
 * later process maps the same file. The directory is the user's own ({@code rwx------}); one owned
 * by anyone else, or any failure on the way, falls back to RocksJava's own loader, so loading never
 * fails where it used to succeed.
 *
 * <p>{@link #load()} is called from {@link RocksSharedStore}'s class initialiser, which every use of
 * RocksDB in Tributary goes through before it initialises any other RocksJava class (those call
 * RocksJava's default loader from their own initialisers when the library is not loaded yet).
 */
final class RocksNativeLibrary {
    /** The library's name inside RocksJava's jar; the same name RocksJava's own loader extracts. */
    private static final String RESOURCE = Environment.getJniLibraryFileName("rocksdb");

    /**
     * The file name {@link RocksDB#loadLibrary(List)} looks for in each directory it is given. In
     * RocksJava 10.10 it derives it from {@code "rocksdbjni"}, not {@code "rocksdb"}, so it differs
     * from {@link #RESOURCE}; taking it from the same call keeps the two in step.
     */
    private static final String LOADED_NAME = Environment.getJniLibraryFileName("rocksdbjni");

    /** The name a copy being extracted starts with, before it is renamed into place. */
    private static final String PARTIAL_PREFIX = "extracting-";

    /**
     * How old a partial copy must be to count as abandoned: far longer than writing 15 MB takes, so
     * a copy another process is still writing is never taken for one.
     */
    private static final long ABANDONED_AFTER_MS = 10 * 60_000;

    private RocksNativeLibrary() {}

    /** Loads the library once per process; later calls return at once. Thread-safe. */
    static void load() {
        Path dir = null;
        try {
            dir = sharedCopy();
        } catch (IOException | RuntimeException e) {
            // Falls through to RocksJava's per-process copy below.
        }
        if (dir != null) {
            try {
                RocksDB.loadLibrary(List.of(dir.toString()));
                return;
            } catch (UnsatisfiedLinkError e) {
                // A copy that does not load (another platform's, a damaged one): the default below.
            }
        }
        RocksDB.loadLibrary();
    }

    /**
     * The directory holding the shared copy under {@link #LOADED_NAME}, extracting it first if it is
     * missing; null when the library is not in a jar this process can read its size and checksum from.
     */
    static Path sharedCopy() throws IOException {
        URL url = RocksDB.class.getClassLoader().getResource(RESOURCE);
        if (url == null) {
            return null;
        }
        URLConnection connection = url.openConnection();
        if (!(connection instanceof JarURLConnection)) {
            return null;
        }
        JarEntry entry = ((JarURLConnection) connection).getJarEntry();
        if (entry.getSize() < 0 || entry.getCrc() < 0) {
            return null;
        }
        Path userDir = ownDirectory(Path.of(
                System.getProperty("java.io.tmpdir"), "tributary-rocksdbjni-" + System.getProperty("user.name")));
        if (userDir == null) {
            return null;
        }
        Path dir = userDir.resolve(Long.toHexString(entry.getCrc()) + "-" + entry.getSize());
        Files.createDirectories(dir);
        Path library = dir.resolve(LOADED_NAME);
        if (Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS) && Files.size(library) == entry.getSize()) {
            return dir;
        }
        removeAbandonedExtractions(dir);
        Path partial = Files.createTempFile(dir, PARTIAL_PREFIX, ".tmp");
        try {
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                return null;
            }
        } finally {
            Files.deleteIfExists(partial);
        }
        return dir;
    }

    /**
     * Deletes the partial copies in {@code dir} that a process killed while extracting left (15 MB
     * each), those last written over {@link #ABANDONED_AFTER_MS} ago.
     */
    private static void removeAbandonedExtractions(Path dir) throws IOException {
        long before = System.currentTimeMillis() - ABANDONED_AFTER_MS;
        try (java.nio.file.DirectoryStream<Path> partials = Files.newDirectoryStream(dir, PARTIAL_PREFIX + "*")) {
            for (Path partial : partials) {
                if (Files.getLastModifiedTime(partial, LinkOption.NOFOLLOW_LINKS)
                                .toMillis()
                        < before) {
                    Files.deleteIfExists(partial);
                }
            }
        }
    }

    /**
     * {@code dir}, created {@code rwx------} if missing; null when it exists as anything but a
     * directory of this user's that no one else may write to (another user could plant a library in it).
     */
    private static Path ownDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // Checked below, like one made just now.
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        UserPrincipal me = dir.getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        if (!Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).equals(me)) {
            return null;
        }
        if (!PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS))
                .equals("rwx------")) {
            return null;
        }
        return dir;
    }
}
