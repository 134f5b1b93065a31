package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the files split stands, in a size independent of how many files were read: every
 * matching name up to {@code finishedThrough} (in {@link String#compareTo} order) is finished,
 * except the files in {@code open}; every name after it is unfinished, read from the offset in
 * {@code open} or from the start. {@code finished} fingerprints the finished names that existed
 * when the position was taken, so that a file which appears later with a smaller name is still
 * recognized as new (see {@link NameSetSketch}).
 *
 * @param finishedThrough the greatest finished name, or "" when none is
 * @param open unfinished files with a read offset, and every unfinished name up to
 *     {@code finishedThrough}
 */
record FilesPosition(String finishedThrough, NameSetSketch finished, List<OpenFile> open) {
    private static final int VERSION = 1;

    /**
     * @param offset the byte offset of the next unread record
     * @param line the 1-based line number at {@code offset}, for messages
     */
    record OpenFile(String name, long offset, long line) {}

    static final FilesPosition START = new FilesPosition("", new NameSetSketch(), List.of());

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(finishedThrough);
            writeVarLong(out, finished.count());
            if (finished.count() != 0) {
                for (long s : finished.sums()) {
                    out.writeLong(s);
                }
            }
            writeVarLong(out, open.size());
            for (OpenFile f : open) {
                out.writeUTF(f.name());
                writeVarLong(out, f.offset());
                writeVarLong(out, f.line());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static FilesPosition decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IOException("version " + version);
            }
            String through = in.readUTF();
            long count = readVarLong(in);
            long[] sums = new long[NameSetSketch.SUMS];
            if (count != 0) {
                for (int i = 0; i < sums.length; i++) {
                    sums[i] = in.readLong();
                }
            }
            int n = (int) readVarLong(in);
            List<OpenFile> open = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                open.add(new OpenFile(in.readUTF(), readVarLong(in), readVarLong(in)));
            }
            return new FilesPosition(through, new NameSetSketch(count, sums), List.copyOf(open));
        } catch (IOException e) {
            throw new ConnectorException(SqlState.DATA_EXCEPTION, "unreadable files source position: " + e, e);
        }
    }

    String describe() {
        StringBuilder sb = new StringBuilder();
        if (finishedThrough.isEmpty()) {
            sb.append("no file finished");
        } else {
            sb.append("finished through ")
                    .append(finishedThrough)
                    .append(" (")
                    .append(finished.count())
                    .append(" files)");
        }
        for (OpenFile f : open) {
            sb.append("; ")
                    .append(f.name())
                    .append(" at byte ")
                    .append(f.offset())
                    .append(" (line ")
                    .append(f.line())
                    .append(')');
        }
        return sb.toString();
    }

    /** Unsigned LEB128: counts and offsets are never negative, and mostly small. */
    private static void writeVarLong(DataOutputStream out, long v) throws IOException {
        while ((v & ~0x7fL) != 0) {
            out.writeByte((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    private static long readVarLong(DataInputStream in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("bad varint");
    }
}
