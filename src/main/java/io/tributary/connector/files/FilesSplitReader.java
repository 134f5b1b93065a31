package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SkippedInput;
import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Reads the files split: every matching regular file of the directory, in name order, as records
 * of the table's format.
 *
 * <p>Files and lines: a record is taken once its terminating newline is there, so a half-written
 * line is never read early. The newest file (the greatest name) is followed as it grows. Any other
 * file is finished once it is read to its end and has not been modified for {@value #QUIET_MILLIS}
 * ms; an unterminated last line is then taken as its last record. Later changes to a finished file
 * are not read. A file that appears with a smaller name than finished ones is read too, also after
 * a restart (see {@link FilesPosition}). Blank lines are ignored.
 *
 * <p>Each {@link #poll} is all-or-nothing: the offsets move only when the whole batch was read, so
 * with {@code on_error = 'fail'} a malformed record throws and nothing of that batch is returned
 * or counted as read. The directory is listed at most every {@value #SCAN_INTERVAL_MILLIS} ms.
 * Files are read in chunks, so a large file is never held in memory. Used by one engine thread at
 * a time; {@link #lagMillis()} and {@link #phase()} may be called from any thread.
 */
final class FilesSplitReader implements SplitReader {
    static final long SCAN_INTERVAL_MILLIS = 200;
    static final long QUIET_MILLIS = 500;
    private static final long IDLE_SLEEP_MILLIS = 50;
    private static final int CHUNK = 1 << 20;
    private static final int MAX_RECORD = 16 << 20;
    private static final long BYTES_PER_POLL = 16L << 20;

    private final FilesOptions options;
    private final RecordFormat format;
    private final Path directory;
    /** Unfinished files by name; every known file is either here or in {@link #finished}. */
    private final TreeMap<String, FileCursor> open = new TreeMap<>();
    /** The finished files the last listing showed; kept only in memory, fingerprinted by {@link #sketch}. */
    private final Set<String> finished = new HashSet<>();

    private NameSetSketch sketch;
    private String finishedThrough;
    private String newest = "";
    private long lastScanNanos;
    private final List<SkippedInput> restartNotices = new ArrayList<>();
    private volatile long lagMillis = -1;

    FilesSplitReader(FilesOptions options, FilesPosition position) {
        this.options = options;
        this.format = options.format();
        this.directory = options.directory();
        this.finishedThrough = position.finishedThrough();
        for (FilesPosition.OpenFile f : position.open()) {
            open.put(f.name(), new FileCursor(f.name(), f.offset(), f.line()));
        }
        TreeSet<String> names = list();
        List<String> below = new ArrayList<>();
        for (String name : names) {
            if (name.compareTo(finishedThrough) <= 0 && !open.containsKey(name)) {
                below.add(name);
            }
        }
        Set<String> added = new HashSet<>();
        List<String> decoded = position.finished().added(below);
        if (decoded == null) {
            String reason = "files up to " + finishedThrough + " were both added and removed (or more than "
                    + NameSetSketch.SUMS
                    + " changed) while the source was stopped; the ones there now are taken as read";
            if (options.failOnError()) {
                throw new ConnectorException(SqlState.DATA_EXCEPTION, "files source: " + reason);
            }
            restartNotices.add(new SkippedInput(directory.toString(), reason));
        } else {
            added.addAll(decoded);
        }
        for (String name : below) {
            if (added.contains(name)) {
                open.put(name, new FileCursor(name, 0, 1));
            } else {
                finished.add(name);
            }
        }
        sketch = NameSetSketch.of(finished);
        open.keySet().retainAll(names);
        admitNew(names);
        lastScanNanos = System.nanoTime();
    }

    @Override
    public SourceBatch poll(long maxWaitMillis, int maxRows) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        while (true) {
            if (System.nanoTime() - lastScanNanos >= TimeUnit.MILLISECONDS.toNanos(SCAN_INTERVAL_MILLIS)) {
                scan();
            }
            SourceBatch batch = read(Math.max(maxRows, 0));
            long left = deadline - System.nanoTime();
            if (!batch.isEmpty() || left <= 0) {
                return batch;
            }
            Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), IDLE_SLEEP_MILLIS)));
        }
    }

    /** Re-lists the directory: admits new files, forgets finished ones that were removed. */
    private void scan() {
        TreeSet<String> names = list();
        for (Iterator<String> it = finished.iterator(); it.hasNext(); ) {
            String name = it.next();
            if (!names.contains(name)) {
                it.remove();
                sketch.remove(name);
            }
        }
        admitNew(names);
        lastScanNanos = System.nanoTime();
    }

    private void admitNew(TreeSet<String> names) {
        for (String name : names) {
            if (!finished.contains(name) && !open.containsKey(name)) {
                open.put(name, new FileCursor(name, 0, 1));
            }
        }
        newest = names.isEmpty() ? "" : names.last();
    }

    /** The names of the matching regular files now in the directory. */
    private TreeSet<String> list() {
        TreeSet<String> names = new TreeSet<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(directory)) {
            for (Path p : dir) {
                Path fileName = p.getFileName();
                String name = fileName.toString();
                boolean known = finished.contains(name) || open.containsKey(name);
                if (options.matcher().matches(fileName) && (known || Files.isRegularFile(p))) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new ConnectorException(
                    SqlState.IO_ERROR, "files source: cannot list directory " + directory + ": " + e.getMessage(), e);
        }
        return names;
    }

    /** Reads what is there now, in name order, without waiting; moves the offsets only on success. */
    private SourceBatch read(int maxRows) {
        Batch batch = new Batch(maxRows);
        batch.skipped.addAll(restartNotices);
        String stoppedAt = null;
        for (FileCursor cursor : open.values()) {
            try {
                readFile(cursor, batch);
            } catch (IOException e) {
                throw new ConnectorException(
                        SqlState.IO_ERROR, "files source: cannot read " + cursor.name + ": " + e.getMessage(), e);
            }
            if (batch.full()) {
                stoppedAt = cursor.name;
                break;
            }
        }
        for (Progress p : batch.progress) {
            commit(p);
        }
        restartNotices.clear();
        lagMillis = stoppedAt == null ? 0 : lag(stoppedAt);
        return batch.changes.isEmpty() && batch.skipped.isEmpty()
                ? SourceBatch.EMPTY
                : new SourceBatch(batch.changes, batch.skipped);
    }

    private void readFile(FileCursor cursor, Batch batch) throws IOException, ConnectorException {
        Progress p = new Progress(cursor);
        batch.progress.add(p);
        FileChannel channel;
        try {
            channel = cursor.channel(directory);
        } catch (NoSuchFileException e) {
            p.gone = true;
            return;
        } catch (AccessDeniedException e) {
            malformed(
                    batch,
                    p,
                    p.line,
                    new MalformedRecordException(SqlState.IO_ERROR, "permission denied; the file is skipped"));
            p.finish = true;
            return;
        }
        long size = channel.size();
        if (size < p.offset) {
            malformed(
                    batch,
                    p,
                    p.line,
                    new MalformedRecordException(
                            SqlState.DATA_EXCEPTION,
                            "the file shrank below the read offset " + p.offset + "; the rest of it is skipped"));
            p.finish = true;
            return;
        }
        boolean finishable = cursor.name.compareTo(newest) < 0;
        if (format.hasHeader() && p.layout == null && p.offset > 0) {
            // resuming inside the file: its header is its first record
            try {
                p.layout = format.header(firstRecord(channel, size, cursor.name));
            } catch (MalformedRecordException e) {
                malformed(batch, p, 1, e);
                p.finish = true;
                return;
            }
        }
        int chunk = CHUNK;
        while (!batch.full() && !p.finish && p.offset < size) {
            int len = (int) Math.min(chunk, size - p.offset);
            byte[] buf = readBytes(channel, p.offset, len);
            boolean atEnd = len == size - p.offset;
            int pos = 0;
            while (!batch.full() && !p.finish) {
                int end = format.recordEnd(buf, pos, len);
                if (end < 0) {
                    if (pos < len && atEnd && finishable && quiet(cursor.name)) {
                        end = len; // the unterminated last line of a file that is done
                    } else {
                        break;
                    }
                }
                record(batch, p, buf, pos, end);
                pos = end;
            }
            if (pos == 0 && !atEnd && !p.finish) {
                if (chunk >= MAX_RECORD) {
                    malformed(
                            batch,
                            p,
                            p.line,
                            new MalformedRecordException(
                                    SqlState.BAD_COPY_FILE_FORMAT,
                                    "record longer than " + (MAX_RECORD >> 20)
                                            + " MB (an unbalanced quote?); the rest of the file is skipped"));
                    p.finish = true;
                    return;
                }
                chunk *= 2;
                continue;
            }
            if (pos == 0) {
                break;
            }
            p.offset += pos;
            batch.bytes += pos;
        }
        if (p.offset == size && finishable && quiet(cursor.name)) {
            p.finish = true;
        }
    }

    private void record(Batch batch, Progress p, byte[] buf, int from, int end) {
        long line = p.line;
        for (int i = from; i < end; i++) {
            if (buf[i] == '\n') {
                p.line++;
            }
        }
        int start = from;
        if (p.offset == 0
                && from == 0
                && end >= 3
                && (buf[0] & 0xff) == 0xEF
                && (buf[1] & 0xff) == 0xBB
                && (buf[2] & 0xff) == 0xBF) {
            start = 3; // a UTF-8 byte order mark
        }
        String text = text(buf, start, end);
        if (text.isBlank()) {
            return;
        }
        try {
            if (format.hasHeader() && p.layout == null) {
                p.layout = format.header(text);
            } else {
                batch.changes.add(SourceChange.insert(format.row(text, p.layout)));
            }
        } catch (MalformedRecordException e) {
            malformed(batch, p, line, e);
            if (format.hasHeader() && p.layout == null) {
                p.finish = true; // no row of a file with a bad header can be matched to columns
            }
        }
    }

    private void malformed(Batch batch, Progress p, long line, MalformedRecordException e) {
        String location = p.cursor.name + ":" + line;
        if (options.failOnError()) {
            throw new ConnectorException(
                    e.sqlState(), "files source: " + p.cursor.name + " line " + line + ": " + e.getMessage());
        }
        batch.skipped.add(new SkippedInput(location, e.getMessage()));
    }

    private String firstRecord(FileChannel channel, long size, String name) throws IOException {
        int chunk = CHUNK;
        while (true) {
            int len = (int) Math.min(chunk, size);
            byte[] buf = readBytes(channel, 0, len);
            int end = format.recordEnd(buf, 0, len);
            if (end >= 0 || len == size) {
                int start = len >= 3 && (buf[0] & 0xff) == 0xEF && (buf[1] & 0xff) == 0xBB && (buf[2] & 0xff) == 0xBF
                        ? 3
                        : 0;
                return text(buf, start, end < 0 ? len : end);
            }
            if (chunk >= MAX_RECORD) {
                throw new ConnectorException(
                        SqlState.BAD_COPY_FILE_FORMAT,
                        "files source: the header of " + name + " is longer than " + (MAX_RECORD >> 20) + " MB");
            }
            chunk *= 2;
        }
    }

    /** The record's text without its line terminator ({@code \n} or {@code \r\n}). */
    private static String text(byte[] buf, int from, int end) {
        int to = end;
        if (to > from && buf[to - 1] == '\n') {
            to--;
        }
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        return new String(buf, from, to - from, StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(FileChannel channel, long offset, int len) throws IOException {
        byte[] buf = new byte[len];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        while (bb.hasRemaining()) {
            if (channel.read(bb, offset + bb.position()) < 0) {
                throw new IOException("the file ended early (truncated while being read?)");
            }
        }
        return buf;
    }

    /** Whether the file was not modified for {@link #QUIET_MILLIS}: its writer is done with it. */
    private boolean quiet(String name) throws IOException {
        long modified = Files.getLastModifiedTime(directory.resolve(name)).toMillis();
        return System.currentTimeMillis() - modified >= QUIET_MILLIS;
    }

    private long lag(String name) {
        try {
            return Math.max(
                    0,
                    System.currentTimeMillis()
                            - Files.getLastModifiedTime(directory.resolve(name)).toMillis());
        } catch (IOException e) {
            return -1;
        }
    }

    private void commit(Progress p) {
        FileCursor cursor = p.cursor;
        if (p.gone) {
            cursor.close();
            open.remove(cursor.name);
            return;
        }
        cursor.offset = p.offset;
        cursor.line = p.line;
        cursor.layout = p.layout;
        if (p.finish) {
            cursor.close();
            open.remove(cursor.name);
            finished.add(cursor.name);
            sketch.add(cursor.name);
            if (cursor.name.compareTo(finishedThrough) > 0) {
                finishedThrough = cursor.name;
            }
        }
    }

    @Override
    public byte[] position() {
        List<FilesPosition.OpenFile> files = new ArrayList<>();
        for (FileCursor c : open.values()) {
            // a file after finishedThrough that was not started is found again by listing
            if (c.offset > 0 || c.name.compareTo(finishedThrough) <= 0) {
                files.add(new FilesPosition.OpenFile(c.name, c.offset, c.line));
            }
        }
        return new FilesPosition(finishedThrough, sketch.copy(), files).encode();
    }

    @Override
    public String describe(byte[] position) {
        return FilesPosition.decode(position).describe();
    }

    /** At least how old the oldest unread record is (its file's last change), 0 when all is read. */
    @Override
    public long lagMillis() {
        return lagMillis;
    }

    @Override
    public void close() {
        open.values().forEach(FileCursor::close);
    }

    /** One poll's reading, applied to the cursors only when the whole poll succeeded. */
    private static final class Batch {
        final int maxRows;
        final List<SourceChange> changes = new ArrayList<>();
        final List<SkippedInput> skipped = new ArrayList<>();
        final List<Progress> progress = new ArrayList<>();
        long bytes;

        Batch(int maxRows) {
            this.maxRows = maxRows;
        }

        boolean full() {
            return changes.size() >= maxRows || bytes >= BYTES_PER_POLL;
        }
    }

    /** Where a file's reading got to within one poll. */
    private static final class Progress {
        final FileCursor cursor;
        long offset;
        long line;
        int[] layout;
        boolean finish;
        boolean gone;

        Progress(FileCursor cursor) {
            this.cursor = cursor;
            this.offset = cursor.offset;
            this.line = cursor.line;
            this.layout = cursor.layout;
        }
    }
}
